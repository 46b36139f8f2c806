import * as assert from 'assert';
import { checkEditInput, checkMultiEditInput, checkWriteInput, groupByFile } from '../../../src/core/tools/toolInput';

// Calls without a chat session must name the version they read: the tools take it, as a string.
suite('tool input: expectedVersion', () => {
  test('edit and write take an optional string expectedVersion; anything else is INVALID_INPUT naming it', () => {
    assert.strictEqual(checkEditInput({ filePath: 'a', oldString: 'x', newString: 'y', expectedVersion: 'v1' }).ok, true);
    assert.strictEqual(checkWriteInput({ filePath: 'a', content: 'x', expectedVersion: 'v1' }).ok, true);
    const wrong = checkEditInput({ filePath: 'a', oldString: 'x', newString: 'y', expectedVersion: 7 });
    assert.match(wrong.ok ? '' : wrong.message, /input\.expectedVersion must be a string/);
    const multi = checkMultiEditInput({ edits: [{ filePath: 'a', oldString: 'x', newString: 'y', expectedVersion: false }] });
    assert.match(multi.ok ? '' : multi.message, /input\.edits\[0\]\.expectedVersion/);
  });

  test('multiEdit groups edits per file with the version any of them names', () => {
    const groups = groupByFile([
      { filePath: 'a', oldString: '1', newString: 'one' },
      { filePath: 'b', oldString: '2', newString: 'two', expectedVersion: 'vb' },
      { filePath: 'a', oldString: '3', newString: 'three', expectedVersion: 'va', replaceAll: true },
    ]);
    assert.deepStrictEqual(groups, [
      { path: 'a', edits: [{ oldString: '1', newString: 'one' }, { oldString: '3', newString: 'three', replaceAll: true }], expectedVersion: 'va' },
      { path: 'b', edits: [{ oldString: '2', newString: 'two' }], expectedVersion: 'vb' },
    ]);
  });

  test('two different versions for one file are INVALID_INPUT naming both edits', () => {
    const groups = groupByFile([
      { filePath: 'a', oldString: '1', newString: 'one', expectedVersion: 'v1' },
      { filePath: 'a', oldString: '2', newString: 'two', expectedVersion: 'v2' },
    ]);
    assert.ok(!Array.isArray(groups) && groups.code === 'INVALID_INPUT');
    assert.match(groups.message, /input\.edits\[1\]\.expectedVersion \(v2\) differs from input\.edits\[0\]\.expectedVersion \(v1\)/);
  });
});
