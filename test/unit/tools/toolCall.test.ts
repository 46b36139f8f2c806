import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard, isToolName, parseToolCall, TOOL_NAMES } from '../../../src/core/index';
import { makeTempDir } from '../helpers/tempDir';

suite('the five tools as one check and dispatch (parseToolCall)', () => {
  test('every tool\'s input is checked before any session is touched, naming the field', () => {
    const cases: [string, unknown, RegExp][] = [
      [TOOL_NAMES.read, null, /input must be an object/],
      [TOOL_NAMES.read, { filePath: 1 }, /input\.filePath must be a string/],
      [TOOL_NAMES.read, { filePath: 'a', offset: '3' }, /input\.offset must be a number when given/],
      [TOOL_NAMES.edit, { filePath: 'a', oldString: 'x' }, /input\.newString must be a string; got nothing/],
      [TOOL_NAMES.write, { filePath: 'a', content: 'x', expectedVersion: 5 }, /input\.expectedVersion/],
      [TOOL_NAMES.multiEdit, { edits: [] }, /input\.edits must be a non-empty list/],
      [TOOL_NAMES.multiEdit, { edits: [{ filePath: 'a', oldString: 'x', newString: 'y', expectedVersion: 'v1' }, { filePath: 'a', oldString: 'z', newString: 'w', expectedVersion: 'v2' }] }, /differs from input\.edits\[0\]\.expectedVersion/],
      [TOOL_NAMES.applyPatch, { patch: 5 }, /input\.patch must be a string/],
      [TOOL_NAMES.applyPatch, { patch: 'x', filePath: 'a' }, /input\.filePath is not an input of readgate_applyPatch; its inputs are patch, explanation\?/],
      ['readgate_remove', { filePath: 'a' }, /There is no tool named "readgate_remove"/],
    ];
    for (const [name, input, message] of cases) {
      const call = parseToolCall(name, input);
      assert.ok(!call.ok && call.code === 'INVALID_INPUT' && message.test(call.message), `${name} ${JSON.stringify(input)}: ${JSON.stringify(call)}`);
    }
    assert.ok(isToolName('readgate_read') && !isToolName('readgate_remove'));
  });

  // The manifest's schemas say additionalProperties: false, but nothing enforced it: a misspelled optional field
  // (`replace_all`, `expected_version`) was dropped without a word and the call ran without it.
  test('a field the tool does not take is INVALID_INPUT naming it and the tool\'s fields, at the top and in multiEdit\'s edits', () => {
    const edit = { filePath: 'a', oldString: 'x', newString: 'y' };
    const cases: [string, unknown, RegExp][] = [
      [TOOL_NAMES.read, { filePath: 'a', lines: 3 }, /^input\.lines is not an input of readgate_read; its inputs are filePath, offset\?, limit\?, force\?\./],
      [TOOL_NAMES.edit, { ...edit, replace_all: true }, /^input\.replace_all is not an input of readgate_edit; .*replaceAll\?/],
      [TOOL_NAMES.write, { filePath: 'a', content: 'x', expected_version: 'v' }, /^input\.expected_version is not an input of readgate_write/],
      [TOOL_NAMES.multiEdit, { edits: [edit], dryRun: true }, /^input\.dryRun is not an input of readgate_multiEdit; its inputs are edits, explanation\?\./],
      [TOOL_NAMES.multiEdit, { edits: [edit, { ...edit, explanation: 'why' }] }, /^input\.edits\[1\]\.explanation is not an input of an edit in readgate_multiEdit; .*expectedVersion\?/],
      // A name that is no identifier, or a huge one, is quoted and shortened.
      [TOOL_NAMES.read, { filePath: 'a', ['k'.repeat(100_000)]: 1 }, /^input\["k{40}"…\] is not an input of readgate_read/],
      [TOOL_NAMES.read, { filePath: 'a', 'file path': 'b' }, /^input\["file path"\] is not an input/],
    ];
    for (const [name, input, message] of cases) {
      const call = parseToolCall(name, input);
      assert.ok(!call.ok && call.code === 'INVALID_INPUT' && message.test(call.message), `${name}: ${JSON.stringify(call).slice(0, 400)}`);
      assert.ok(call.message.length < 400);
    }
    assert.ok(parseToolCall(TOOL_NAMES.read, { filePath: 'a', offset: undefined }).ok, 'a field given as undefined is a field left out');
  });

  test('readgate_applyPatch runs the session\'s applyPatch: an unread file is refused, a read one patched', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\n');
    const guard = createGuard({ roots: [root] });
    const session = guard.session('s');
    const patch = '--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n';
    const call = parseToolCall(TOOL_NAMES.applyPatch, { patch, explanation: 'why' });
    assert.ok(call.ok);
    const unread = await call.run(session);
    assert.ok(!unread.ok && unread.code === 'EDIT_REQUIRES_PRIOR_READ');
    await session.read('a.txt');
    assert.ok((await call.run(session)).ok);
    assert.strictEqual(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'one\n2\n');
    await guard.dispose();
  });

  test('a path mapper\'s refusal is the call\'s refusal; its path is the one the guard gets', async () => {
    const refused = parseToolCall(TOOL_NAMES.read, { filePath: 'bad:uri' }, () => ({ ok: false, code: 'PATH_INVALID', message: 'no' }));
    assert.deepStrictEqual(refused, { ok: false, code: 'PATH_INVALID', message: 'no' });
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'real.txt'), 'hello\n');
    const guard = createGuard({ roots: [root] });
    const call = parseToolCall(TOOL_NAMES.read, { filePath: 'alias' }, () => path.join(root, 'real.txt'));
    assert.ok(call.ok);
    const read = await call.run(guard.session('s'));
    assert.ok(read.ok && /1\thello/.test(read.text));
    await guard.dispose();
  });

  test('runs each tool in the given session: read, edit, multiEdit by file, write', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'a\n');
    fs.writeFileSync(path.join(root, 'b.txt'), 'b\n');
    const guard = createGuard({ roots: [root] });
    const session = guard.session('s');
    const run = async (name: string, input: unknown) => {
      const call = parseToolCall(name, input);
      assert.ok(call.ok, JSON.stringify(call));
      return call.run(session);
    };
    assert.ok((await run(TOOL_NAMES.read, { filePath: 'a.txt' })).ok);
    assert.ok((await run(TOOL_NAMES.read, { filePath: 'b.txt' })).ok);
    assert.ok((await run(TOOL_NAMES.edit, { filePath: 'a.txt', oldString: 'a', newString: 'A' })).ok);
    assert.ok((await run(TOOL_NAMES.multiEdit, { edits: [{ filePath: 'a.txt', oldString: 'A', newString: 'AA' }, { filePath: 'b.txt', oldString: 'b', newString: 'B' }, { filePath: 'a.txt', oldString: 'AA', newString: 'AAA' }] })).ok);
    assert.ok((await run(TOOL_NAMES.write, { filePath: 'c.txt', content: 'new\n' })).ok);
    assert.deepStrictEqual(['a.txt', 'b.txt', 'c.txt'].map((name) => fs.readFileSync(path.join(root, name), 'utf8')), ['AAA\n', 'B\n', 'new\n']);
    await guard.dispose();
  });
});
