import * as assert from 'assert';
import { applyHunks, hunksOf } from '../../../src/core/edit/hunks';
import { computeLineChanges } from '../../../src/core/edit/lineDiff';

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`): string => Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';

suite('hunks', () => {
  const before = lines(40);
  const after = before.replace('line 5\n', 'FIVE\n').replace('line 30\n', 'THIRTY\nextra\n');
  const changes = computeLineChanges(before, after);
  const hunks = hunksOf(changes, 40, 41);

  test('groups distant changes into separate hunks with context', () => {
    assert.strictEqual(hunks.length, 2);
    assert.deepStrictEqual([hunks[0].oldStart, hunks[0].oldLines, hunks[0].newStart, hunks[0].newLines], [2, 7, 2, 7]);
    assert.deepStrictEqual([hunks[1].oldStart, hunks[1].oldLines, hunks[1].newStart, hunks[1].newLines], [27, 7, 27, 8]);
  });

  test('accepting every hunk gives the proposal; rejecting every hunk gives the original', () => {
    assert.strictEqual(applyHunks(before, after, hunks, new Set()), after);
    assert.strictEqual(applyHunks(before, after, hunks, new Set([0, 1])), before);
  });

  test('rejecting one hunk keeps its old lines and applies the others', () => {
    assert.strictEqual(applyHunks(before, after, hunks, new Set([0])), before.replace('line 30\n', 'THIRTY\nextra\n'));
    assert.strictEqual(applyHunks(before, after, hunks, new Set([1])), before.replace('line 5\n', 'FIVE\n'));
  });

  test('works for a file without a final newline and for a created file', () => {
    const a = 'x\ny';
    const b = 'x\nz';
    const h = hunksOf(computeLineChanges(a, b), 2, 2);
    assert.strictEqual(applyHunks(a, b, h, new Set()), b);
    assert.strictEqual(applyHunks(a, b, h, new Set([0])), a);
    const created = hunksOf(computeLineChanges('', 'new\n'), 0, 1);
    assert.strictEqual(applyHunks('', 'new\n', created, new Set()), 'new\n');
    assert.strictEqual(applyHunks('', 'new\n', created, new Set([0])), '');
  });
});
