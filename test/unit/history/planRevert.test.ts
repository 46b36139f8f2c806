import * as assert from 'assert';
import { planRevert } from '../../../src/core/index';
import type { RevertChange, RevertContent } from '../../../src/core/index';
import { applyOps, tree, viewOf } from './memoryTree';

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));
const lines = (...values: string[]): string => values.map((value) => `${value}\n`).join('');

function edit(path: string, before: RevertContent, after: RevertContent, id = 'c1'): RevertChange {
  return { id, files: [{ path, kind: 'edit', before, after }] };
}

suite('history: planRevert', () => {
  suite('an edit', () => {
    test('restores the content from before the change when nothing changed since', () => {
      const before = lines('a', 'b', 'c');
      const after = lines('a', 'B', 'c');
      const plan = planRevert(edit('f', before, after), viewOf(tree({ f: after })));
      assert.deepStrictEqual(plan, { clean: true, conflicts: [], ops: [{ type: 'write', path: 'f', current: after, content: before }] });
    });

    test('keeps a later edit elsewhere in the file byte for byte (CRLF, BOM, no final newline, a Latin-1 byte)', () => {
      const before = bytes('\xef\xbb\xbfone\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix');
      const after = bytes('\xef\xbb\xbfone\r\nTWO\r\nthree\r\nfour\r\nfive\r\nsix');
      const now = bytes('\xef\xbb\xbfone\r\nTWO\r\nthree\r\nfour\r\nf\xefve!\nsix');
      const plan = planRevert(edit('f', before, after), viewOf(tree({ f: now })));
      assert.strictEqual(plan.clean, true);
      assert.deepStrictEqual(plan.ops, [{ type: 'write', path: 'f', current: now, content: bytes('\xef\xbb\xbfone\r\ntwo\r\nthree\r\nfour\r\nf\xefve!\nsix') }]);
    });

    test('a later change of the lines it restores is a conflict naming those lines; the merged parts keep them', () => {
      const before = lines('a', 'b', 'c', 'd', 'e', 'f', 'g');
      const after = lines('A', 'b', 'c', 'd', 'e', 'F', 'g');
      const now = lines('A', 'b', 'c', 'd', 'e', 'user', 'g');
      const plan = planRevert(edit('f', before, after), viewOf(tree({ f: now })));
      assert.strictEqual(plan.clean, false);
      assert.deepStrictEqual(plan.conflicts, [{ reason: 'lines', path: 'f', changeId: 'c1', lines: [{ start: 6, end: 6 }], wanted: ['f\n'] }]);
      assert.deepStrictEqual(plan.ops, [{ type: 'write', path: 'f', current: now, content: lines('a', 'b', 'c', 'd', 'e', 'user', 'g') }]);
    });

    test('a change of the line right next to a restored one is a conflict too (the documented touching rule)', () => {
      const before = lines('a', 'b', 'c', 'd');
      const after = lines('a', 'B', 'c', 'd');
      const plan = planRevert(edit('f', before, after), viewOf(tree({ f: lines('a', 'B', 'C', 'd') })));
      assert.strictEqual(plan.clean, false);
      assert.deepStrictEqual(plan.conflicts[0].lines, [{ start: 2, end: 3 }]);
    });

    test('lines the user removed where the revert would restore others are a conflict at the place between lines', () => {
      const before = lines('a', 'b', 'c', 'd');
      const after = lines('a', 'B', 'c', 'd');
      const plan = planRevert(edit('f', before, after), viewOf(tree({ f: lines('a', 'c', 'd') })));
      assert.deepStrictEqual(plan.conflicts.map((c) => c.lines), [[{ start: 2, end: 1 }]]);
    });

    test('a file gone since is a conflict and nothing is written', () => {
      const plan = planRevert(edit('f', 'a\n', 'b\n'), viewOf(tree({})));
      assert.deepStrictEqual(plan, { clean: false, ops: [], conflicts: [{ reason: 'missing', path: 'f', changeId: 'c1', lines: [] }] });
    });

    test('lines a later change already put back are an alreadyReverted conflict, not skipped silently', () => {
      const plan = planRevert(edit('f', lines('a', 'b', 'c'), lines('a', 'B', 'c')), viewOf(tree({ f: lines('a', 'b', 'c') })));
      assert.deepStrictEqual(plan, { clean: false, ops: [], conflicts: [{ reason: 'alreadyReverted', path: 'f', changeId: 'c1', lines: [{ start: 2, end: 2 }], wanted: ['b\n'] }] });
    });

    test('gives text for text and bytes for bytes', () => {
      assert.strictEqual(typeof (planRevert(edit('f', 'a\n', 'b\n'), viewOf(tree({ f: 'b\n' }))).ops[0] as { content: unknown }).content, 'string');
      assert.ok((planRevert(edit('f', bytes('a\n'), bytes('b\n')), viewOf(tree({ f: bytes('b\n') }))).ops[0] as { content: unknown }).content instanceof Uint8Array);
    });
  });

  suite('a multi-file change', () => {
    const change: RevertChange = {
      id: 'm',
      files: [
        { path: 'x', kind: 'edit', before: lines('x1', 'x2', 'x3'), after: lines('x1', 'X2', 'x3') },
        { path: 'y', kind: 'edit', before: lines('y1', 'y2', 'y3'), after: lines('Y1', 'y2', 'y3') },
        { path: 'new', kind: 'create', before: null, after: 'created\n' },
      ],
    };

    test('reverts every file as one plan', () => {
      const files = tree({ x: lines('x1', 'X2', 'x3'), y: lines('Y1', 'y2', 'y3', 'user'), new: 'created\n' });
      const plan = planRevert(change, viewOf(files));
      assert.strictEqual(plan.clean, true);
      assert.deepStrictEqual(Object.fromEntries(applyOps(files, plan.ops)), { x: lines('x1', 'x2', 'x3'), y: lines('y1', 'y2', 'y3', 'user') });
    });

    test('a conflict in one file makes the whole plan a conflict; its merged parts still revert the others', () => {
      const files = tree({ x: lines('x1', 'user', 'x3'), y: lines('Y1', 'y2', 'y3'), new: 'created\n' });
      const plan = planRevert(change, viewOf(files));
      assert.strictEqual(plan.clean, false);
      assert.deepStrictEqual(plan.conflicts.map((c) => [c.path, c.reason]), [['x', 'lines']]);
      assert.deepStrictEqual(Object.fromEntries(applyOps(files, plan.ops)), { x: lines('x1', 'user', 'x3'), y: lines('y1', 'y2', 'y3') });
    });
  });

  suite('a create', () => {
    const change: RevertChange = { id: 'c', files: [{ path: 'n', kind: 'create', before: null, after: 'made\n' }] };

    test('deletes the file while it holds exactly what was created', () => {
      assert.deepStrictEqual(planRevert(change, viewOf(tree({ n: 'made\n' }))), { clean: true, conflicts: [], ops: [{ type: 'delete', path: 'n', current: 'made\n' }] });
    });

    test('an empty created file is deleted too', () => {
      const empty: RevertChange = { files: [{ path: 'n', kind: 'create', before: null, after: bytes('') }] };
      assert.deepStrictEqual(planRevert(empty, viewOf(tree({ n: bytes('') }))).ops, [{ type: 'delete', path: 'n', current: bytes('') }]);
    });

    test('a file changed since it was created is a conflict naming the changed lines, and is kept', () => {
      const plan = planRevert(change, viewOf(tree({ n: 'made\nmore\n' })));
      assert.deepStrictEqual(plan, { clean: false, ops: [], conflicts: [{ reason: 'changedSinceCreated', path: 'n', changeId: 'c', lines: [{ start: 2, end: 2 }] }] });
    });

    test('a file already gone is an alreadyReverted conflict', () => {
      assert.deepStrictEqual(planRevert(change, viewOf(tree({}))), { clean: false, ops: [], conflicts: [{ reason: 'alreadyReverted', path: 'n', changeId: 'c', lines: [] }] });
    });
  });

  suite('a delete', () => {
    const gone = bytes('old\r\ncontent\xff');
    const change: RevertChange = { id: 'd', files: [{ path: 'g', kind: 'delete', before: gone, after: null }] };

    test('writes the file back with its exact bytes where the path is free', () => {
      assert.deepStrictEqual(planRevert(change, viewOf(tree({}))), { clean: true, conflicts: [], ops: [{ type: 'write', path: 'g', current: null, content: gone }] });
    });

    test('another file at the path now is a conflict, never merged into', () => {
      const plan = planRevert(change, viewOf(tree({ g: bytes('someone\nelse\n') })));
      assert.deepStrictEqual(plan, { clean: false, ops: [], conflicts: [{ reason: 'pathTaken', path: 'g', changeId: 'd', lines: [{ start: 1, end: 2 }] }] });
    });

    test('the same bytes back at the path already are an alreadyReverted conflict', () => {
      assert.deepStrictEqual(planRevert(change, viewOf(tree({ g: gone }))), { clean: false, ops: [], conflicts: [{ reason: 'alreadyReverted', path: 'g', changeId: 'd', lines: [{ start: 1, end: 2 }] }] });
    });
  });

  suite('a rename', () => {
    const change: RevertChange = { id: 'r', files: [{ path: 'new.ts', from: 'old.ts', kind: 'rename', before: lines('a', 'b', 'c', 'd'), after: lines('a', 'B', 'c', 'd') }] };

    test('moves the file back with the content from before', () => {
      const plan = planRevert(change, viewOf(tree({ 'new.ts': lines('a', 'B', 'c', 'd') })));
      assert.deepStrictEqual(plan, { clean: true, conflicts: [], ops: [{ type: 'move', from: 'new.ts', to: 'old.ts', current: lines('a', 'B', 'c', 'd'), content: lines('a', 'b', 'c', 'd') }] });
    });

    test('merges a later change under the new name into what it moves back', () => {
      const files = tree({ 'new.ts': lines('a', 'B', 'c', 'd', 'user') });
      const plan = planRevert(change, viewOf(files));
      assert.strictEqual(plan.clean, true);
      assert.deepStrictEqual(Object.fromEntries(applyOps(files, plan.ops)), { 'old.ts': lines('a', 'b', 'c', 'd', 'user') });
    });

    test('the old name taken by another file now is a conflict and nothing moves', () => {
      const plan = planRevert(change, viewOf(tree({ 'new.ts': lines('a', 'B', 'c', 'd'), 'old.ts': 'other\n' })));
      assert.deepStrictEqual(plan, { clean: false, ops: [], conflicts: [{ reason: 'pathTaken', path: 'old.ts', changeId: 'r', lines: [{ start: 1, end: 1 }] }] });
    });

    test('the renamed file gone since is a conflict', () => {
      assert.deepStrictEqual(planRevert(change, viewOf(tree({}))).conflicts.map((c) => c.reason), ['missing']);
    });

    test('a rename and a new file at the old name (one change) revert together: the new file goes, the old one comes back', () => {
      const both: RevertChange = {
        files: [
          { path: 'b', from: 'a', kind: 'rename', before: 'A\n', after: 'A\n' },
          { path: 'a', kind: 'create', before: null, after: 'fresh\n' },
        ],
      };
      const files = tree({ a: 'fresh\n', b: 'A\n' });
      const plan = planRevert(both, viewOf(files));
      assert.strictEqual(plan.clean, true);
      assert.deepStrictEqual(Object.fromEntries(applyOps(files, plan.ops)), { a: 'A\n' });
    });

    test('a chain of renames in one change (a → b, b → c) is undone whole', () => {
      const chain: RevertChange = {
        files: [
          { path: 'c', from: 'b', kind: 'rename', before: 'was b\n', after: 'was b\n' },
          { path: 'b', from: 'a', kind: 'rename', before: 'was a\n', after: 'was a\n' },
        ],
      };
      const files = tree({ b: 'was a\n', c: 'was b\n' });
      const plan = planRevert(chain, viewOf(files));
      assert.strictEqual(plan.clean, true);
      assert.deepStrictEqual(Object.fromEntries(applyOps(files, plan.ops)), { a: 'was a\n', b: 'was b\n' });
    });
  });

  suite('a revert of a revert', () => {
    test('restores the change the first revert undid, keeping what changed in between', () => {
      const before = lines('a', 'b', 'c', 'd', 'e');
      const after = lines('a', 'B', 'c', 'd', 'e');
      let files = tree({ f: lines('a', 'B', 'c', 'd', 'e', 'later') });
      const first = planRevert(edit('f', before, after, 'change'), viewOf(files));
      assert.strictEqual(first.clean, true);
      const revertedFrom = files.get('f')!;
      files = applyOps(files, first.ops);
      const revertedTo = files.get('f')!;
      assert.strictEqual(revertedTo, lines('a', 'b', 'c', 'd', 'e', 'later'));
      files.set('f', `start\n${revertedTo as string}`);
      // The revert was recorded like any change: its before is what it replaced, its after what it wrote.
      const second = planRevert(edit('f', revertedFrom, revertedTo, 'revert'), viewOf(files));
      assert.strictEqual(second.clean, true);
      assert.strictEqual(applyOps(files, second.ops).get('f'), lines('start', 'a', 'B', 'c', 'd', 'e', 'later'));
    });
  });
});
