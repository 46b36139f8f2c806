import * as assert from 'assert';
import { planSessionRevert } from '../../../src/core/index';
import type { RevertChange } from '../../../src/core/index';
import { applyOps, tree, viewOf } from './memoryTree';

const lines = (...values: string[]): string => values.map((value) => `${value}\n`).join('');

suite('history: planSessionRevert (newest first, each against the state the previous revert left)', () => {
  test("a session's two changes of the same line revert to the line before the first", () => {
    const changes: RevertChange[] = [
      { id: 's1', files: [{ path: 'f', kind: 'edit', before: lines('a', 'b', 'c'), after: lines('a', 'B1', 'c') }] },
      { id: 's2', files: [{ path: 'f', kind: 'edit', before: lines('a', 'B1', 'c'), after: lines('a', 'B2', 'c') }] },
    ];
    const files = tree({ f: lines('a', 'B2', 'c') });
    const plan = planSessionRevert(changes, viewOf(files));
    assert.strictEqual(plan.clean, true);
    assert.deepStrictEqual(plan.ops, [{ type: 'write', path: 'f', current: lines('a', 'B2', 'c'), content: lines('a', 'b', 'c') }]);
  });

  test('keeps an outside edit made between two of its changes, away from both', () => {
    const original = lines('1', '2', '3', '4', '5', '6', '7', '8', '9');
    const s1After = lines('1', 'TWO', '3', '4', '5', '6', '7', '8', '9');
    const outside = lines('1', 'TWO', '3', '4', 'five', '6', '7', '8', '9');
    const s2After = lines('1', 'TWO', '3', '4', 'five', '6', '7', 'EIGHT', '9');
    const changes: RevertChange[] = [
      { id: 's1', files: [{ path: 'f', kind: 'edit', before: original, after: s1After }] },
      { id: 's2', files: [{ path: 'f', kind: 'edit', before: outside, after: s2After }] },
    ];
    const files = tree({ f: s2After });
    const plan = planSessionRevert(changes, viewOf(files));
    assert.strictEqual(plan.clean, true);
    assert.strictEqual(applyOps(files, plan.ops).get('f'), lines('1', '2', '3', '4', 'five', '6', '7', '8', '9'));
  });

  test('reports a conflict of an earlier change in the lines of the file as it is now', () => {
    const original = lines('1', '2', '3', '4', '5', '6', '7', '8', '9');
    const s1After = lines('1', 'TWO', '3', '4', '5', '6', '7', '8', '9');
    // Someone changed TWO after s1; then s2 added three lines at the top.
    const outside = lines('1', 'two!', '3', '4', '5', '6', '7', '8', '9');
    const s2After = lines('x', 'y', 'z', '1', 'two!', '3', '4', '5', '6', '7', '8', '9');
    const changes: RevertChange[] = [
      { id: 's1', files: [{ path: 'f', kind: 'edit', before: original, after: s1After }] },
      { id: 's2', files: [{ path: 'f', kind: 'edit', before: outside, after: s2After }] },
    ];
    const now = lines('x', 'y', 'z', '1', 'two!', '3', '4', '5', '6', '7', '8', 'user', '9');
    const plan = planSessionRevert(changes, viewOf(tree({ f: now })));
    assert.strictEqual(plan.clean, false);
    assert.deepStrictEqual(plan.conflicts, [{ reason: 'lines', path: 'f', changeId: 's1', lines: [{ start: 5, end: 5 }], wanted: ['2\n'] }]);
    assert.deepStrictEqual(plan.ops, [{ type: 'write', path: 'f', current: now, content: lines('1', 'two!', '3', '4', '5', '6', '7', '8', 'user', '9') }]);
  });

  test('a file the session created and then edited is deleted (its edits reverted first)', () => {
    const changes: RevertChange[] = [
      { id: 's1', files: [{ path: 'n', kind: 'create', before: null, after: lines('made') }] },
      { id: 's2', files: [{ path: 'n', kind: 'edit', before: lines('made'), after: lines('made', 'more') }] },
    ];
    const plan = planSessionRevert(changes, viewOf(tree({ n: lines('made', 'more') })));
    assert.deepStrictEqual(plan, { clean: true, conflicts: [], ops: [{ type: 'delete', path: 'n', current: lines('made', 'more') }] });
  });

  test('a file the session renamed and then edited moves back in one operation with its old content', () => {
    const changes: RevertChange[] = [
      { id: 's1', files: [{ path: 'b', from: 'a', kind: 'rename', before: lines('1', '2'), after: lines('1', '2') }] },
      { id: 's2', files: [{ path: 'b', kind: 'edit', before: lines('1', '2'), after: lines('1', 'TWO') }] },
    ];
    const plan = planSessionRevert(changes, viewOf(tree({ b: lines('1', 'TWO') })));
    assert.deepStrictEqual(plan, { clean: true, conflicts: [], ops: [{ type: 'move', from: 'b', to: 'a', current: lines('1', 'TWO'), content: lines('1', '2') }] });
  });

  test('a file the session deleted after editing it comes back as it was before the edit', () => {
    const changes: RevertChange[] = [
      { id: 's1', files: [{ path: 'g', kind: 'edit', before: lines('1', '2'), after: lines('1', 'TWO') }] },
      { id: 's2', files: [{ path: 'g', kind: 'delete', before: lines('1', 'TWO'), after: null }] },
    ];
    const plan = planSessionRevert(changes, viewOf(tree({})));
    assert.deepStrictEqual(plan, { clean: true, conflicts: [], ops: [{ type: 'write', path: 'g', current: null, content: lines('1', '2') }] });
  });

  test('a conflict in content the revert brings back (the file is gone now) names the file with no lines of it', () => {
    const changes: RevertChange[] = [
      { id: 's1', files: [{ path: 'g', kind: 'edit', before: lines('1', '2'), after: lines('1', 'TWO') }] },
      // Someone changed TWO before the session deleted the file.
      { id: 's2', files: [{ path: 'g', kind: 'delete', before: lines('1', 'two?'), after: null }] },
    ];
    const plan = planSessionRevert(changes, viewOf(tree({})));
    assert.strictEqual(plan.clean, false);
    assert.deepStrictEqual(plan.conflicts, [{ reason: 'lines', path: 'g', changeId: 's1', lines: [] }]);
    assert.deepStrictEqual(plan.ops, [{ type: 'write', path: 'g', current: null, content: lines('1', 'two?') }]);
  });
});
