/**
 * `planPatch`: every section of a parsed patch becomes file operations, with each change placed exactly in
 * the lines the file has. Table tests of the operations, the PlacedEdit contract and the placement rules.
 */
import * as assert from 'assert';
import { parsePatch, planPatch, type PatchPlan, type PlanOptions } from '../../../src/core/index';
import { blobHash } from '../../../src/core/patch/blobHash';
import { applyEdits } from './planResult';

/** Plans `patch` against files given as path → text (absent paths do not exist). */
function plan(patch: string, files: Record<string, string>, options?: PlanOptions): PatchPlan {
  const parsed = parsePatch(patch);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  return planPatch(parsed.files, (path) => (path in files ? { exists: true, text: files[path], bytes: Buffer.from(files[path]) } : { exists: false }), options);
}

function operations(patch: string, files: Record<string, string>, options?: PlanOptions) {
  const result = plan(patch, files, options);
  assert.ok(result.ok, result.ok ? '' : `${result.code}: ${result.message}`);
  return result.operations;
}

function refused(patch: string, files: Record<string, string>, options?: PlanOptions): { code: string; message: string } {
  const result = plan(patch, files, options);
  assert.ok(!result.ok, `planned: ${JSON.stringify(result)}`);
  return result;
}

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');
const git = (...parts: string[]) => parts.join('\n') + '\n';

suite('planPatch: operations for every section', () => {
  test('a git diff with a modified, a new, a deleted, a renamed-and-changed and a copied file plans each, in the patch\'s order', () => {
    const patch = git(
      'diff --git a/m.txt b/m.txt', 'index 1111111..2222222 100644', '--- a/m.txt', '+++ b/m.txt', '@@ -1,2 +1,2 @@', ' one', '-two', '+TWO',
      'diff --git a/new.txt b/new.txt', 'new file mode 100644', '--- /dev/null', '+++ b/new.txt', '@@ -0,0 +1 @@', '+fresh',
      'diff --git a/old.txt b/old.txt', 'deleted file mode 100644', '--- a/old.txt', '+++ /dev/null', '@@ -1 +0,0 @@', '-bye',
      'diff --git a/from.txt b/to.txt', 'similarity index 80%', 'rename from from.txt', 'rename to to.txt', '--- a/from.txt', '+++ b/to.txt', '@@ -1,2 +1,2 @@', ' keep', '-x', '+y',
      'diff --git a/m.txt b/copy.txt', 'similarity index 90%', 'copy from m.txt', 'copy to copy.txt',
    );
    assert.deepStrictEqual(operations(patch, { 'm.txt': 'one\ntwo\n', 'old.txt': 'bye\n', 'from.txt': 'keep\nx\n' }), [
      { op: 'modify', path: 'm.txt', edits: [{ line: 1, oldText: 'one\ntwo\n', newText: 'one\nTWO\n' }] },
      { op: 'create', path: 'new.txt', content: 'fresh\n' },
      { op: 'delete', path: 'old.txt', expected: 'bye\n' },
      { op: 'rename', from: 'from.txt', to: 'to.txt' },
      { op: 'modify', path: 'to.txt', edits: [{ line: 1, oldText: 'keep\nx\n', newText: 'keep\ny\n' }] },
      // A copy is made from the source as the patch left it.
      { op: 'create', path: 'copy.txt', content: 'one\nTWO\n' },
    ]);
  });

  test('a new empty file, a pure rename and a deletion without hunks are operations; a mode change refuses the plan', () => {
    const patch = git('diff --git a/e.txt b/e.txt', 'new file mode 100644', 'index 0000000..e69de29', 'diff --git a/a b/b', 'similarity index 100%', 'rename from a', 'rename to b', 'diff --git a/gone b/gone', 'deleted file mode 100644', 'index e69de29..0000000');
    assert.deepStrictEqual(operations(patch, { a: 'x\n', gone: '' }), [{ op: 'create', path: 'e.txt', content: '' }, { op: 'rename', from: 'a', to: 'b' }, { op: 'delete', path: 'gone', expected: '' }]);
    const mode = refused(git('diff --git a/run.sh b/run.sh', 'old mode 100644', 'new mode 100755'), { 'run.sh': 'echo\n' });
    assert.strictEqual(mode.code, 'INVALID_INPUT');
    assert.match(mode.message, /run\.sh.*chmod \+x run\.sh/s);
  });

  test('a deletion is refused when the file holds anything but the removed lines, naming the line that differs', () => {
    const patch = git('diff --git a/old.txt b/old.txt', 'deleted file mode 100644', '--- a/old.txt', '+++ /dev/null', '@@ -1,2 +0,0 @@', '-a', '-b');
    const longer = refused(patch, { 'old.txt': 'a\nb\nc\n' });
    assert.strictEqual(longer.code, 'NO_OCCURRENCE_FOUND');
    assert.match(longer.message, /old\.txt.*line 3: the patch expects the end of the file, the file has "c"/s);
    const changed = refused(patch, { 'old.txt': 'a\nB\n' });
    assert.match(changed.message, /line 2: the patch expects "b", the file has "B"/);
  });

  test('creating over an existing file, renaming onto one, and changing a missing one are refused with the patch\'s paths', () => {
    assert.strictEqual(refused(git('--- /dev/null', '+++ b/x', '@@ -0,0 +1 @@', '+y'), { x: 'x\n' }).code, 'FILE_EXISTS');
    const onto = refused(git('diff --git a/a b/b', 'rename from a', 'rename to b'), { a: '1\n', b: '2\n' });
    assert.strictEqual(onto.code, 'FILE_EXISTS');
    assert.match(onto.message, /renames a to b/);
    assert.strictEqual(refused(git('--- a/nope', '+++ b/nope', '@@ -1 +1 @@', '-a', '+b'), {}).code, 'FILE_NOT_FOUND');
  });

  test('paths with spaces, tabs and non-ASCII names, --no-prefix patches and names from the diff --git line', () => {
    const quoted = git('diff --git "a/ta\\tb.txt" "b/ta\\tb.txt"', '--- "a/ta\\tb.txt"', '+++ "b/ta\\tb.txt"', '@@ -1 +1 @@', '-y', '+y2', 'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"', '--- "a/caf\\303\\251.txt"', '+++ "b/caf\\303\\251.txt"', '@@ -1 +1 @@', '-z', '+z2');
    assert.deepStrictEqual(operations(quoted, { 'ta\tb.txt': 'y\n', 'café.txt': 'z\n' }, { unidiffZero: true }).map((o) => o.op === 'modify' && o.path), ['ta\tb.txt', 'café.txt']);
    // In refusals such a name is quoted, so it cannot break the message's lines.
    assert.match(refused(quoted, { 'café.txt': 'z\n' }).message, /"ta\\tb\.txt"/);
    const spaced = git('diff --git a/new name.txt b/new name.txt', 'new file mode 100644', '--- /dev/null', '+++ b/new name.txt\t', '@@ -0,0 +1 @@', '+x', 'diff --git a/e f.txt b/e f.txt', 'new file mode 100644', 'index 0000000..e69de29');
    assert.deepStrictEqual(operations(spaced, {}), [{ op: 'create', path: 'new name.txt', content: 'x\n' }, { op: 'create', path: 'e f.txt', content: '' }]);
    const noPrefix = git('diff --git src/x.ts src/x.ts', 'index 1111111..2222222 100644', '--- src/x.ts', '+++ src/x.ts', '@@ -1,2 +1,2 @@', '-a', '+b', ' c');
    assert.deepStrictEqual(operations(noPrefix, { 'src/x.ts': 'a\nc\n' }), [{ op: 'modify', path: 'src/x.ts', edits: [{ line: 1, oldText: 'a\nc\n', newText: 'b\nc\n' }] }]);
    const plain = git('--- old/x.c\t2024-01-01 10:00:00.000000000 +0100', '+++ new/x.c\t2024-01-02 10:00:00.000000000 +0100', '@@ -1,2 +1,2 @@', '-a', '+b', ' c');
    assert.deepStrictEqual(operations(plain, { 'x.c': 'a\nc\n' }).map((o) => o.op === 'modify' && o.path), ['x.c']);
  });
});

suite('planPatch: the PlacedEdit contract', () => {
  test('one edit per hunk, in file order, numbered in the file before the patch; an insertion at the end is line count + 1', () => {
    const patch = git('--- a/f', '+++ b/f', '@@ -2,2 +2,3 @@', ' line 2', '+inserted', ' line 3', '@@ -9,2 +10,3 @@', ' line 9', ' line 10', '+appended');
    const [modify] = operations(patch, { f: lines(10) });
    assert.ok(modify.op === 'modify');
    assert.deepStrictEqual(modify.edits, [
      { line: 2, oldText: 'line 2\nline 3\n', newText: 'line 2\ninserted\nline 3\n' },
      { line: 9, oldText: 'line 9\nline 10\n', newText: 'line 9\nline 10\nappended\n' },
    ]);
    assert.strictEqual(applyEdits(lines(10), modify.edits), lines(10).replace('line 2\n', 'line 2\ninserted\n') + 'appended\n');
    const [append] = operations(['f', '<<<<<<< SEARCH', '=======', 'tail', '>>>>>>> REPLACE'].join('\n'), { f: lines(3) });
    assert.deepStrictEqual(append.op === 'modify' && append.edits, [{ line: 4, oldText: '', newText: 'tail\n' }]);
  });

  test('a block that matches text an earlier block wrote becomes one edit with it', () => {
    const blocks = ['f', '<<<<<<< SEARCH', 'b', '=======', 'B1', 'B2', '>>>>>>> REPLACE', '<<<<<<< SEARCH', 'B2', 'c', '=======', 'C', '>>>>>>> REPLACE'].join('\n');
    const [modify] = operations(blocks, { f: 'a\nb\nc\nd\n' });
    assert.deepStrictEqual(modify.op === 'modify' && modify.edits, [{ line: 2, oldText: 'b\nc\n', newText: 'B1\nC\n' }]);
  });

  test('a last line without a line break: kept by hunks that say so, by blocks that replace it, given one when text is appended', () => {
    const [hunk] = operations(git('--- a/f', '+++ b/f', '@@ -1,2 +1,2 @@', ' a', '-b', '\\ No newline at end of file', '+B', '\\ No newline at end of file'), { f: 'a\nb' });
    assert.deepStrictEqual(hunk.op === 'modify' && hunk.edits, [{ line: 1, oldText: 'a\nb', newText: 'a\nB' }]);
    const [block] = operations(['f', '<<<<<<< SEARCH', 'b', '=======', 'B', '>>>>>>> REPLACE'].join('\n'), { f: 'a\nb' });
    assert.deepStrictEqual(block.op === 'modify' && block.edits, [{ line: 2, oldText: 'b', newText: 'B' }]);
    const [append] = operations(['f', '<<<<<<< SEARCH', '=======', 'c', '>>>>>>> REPLACE'].join('\n'), { f: 'a\nb' });
    assert.deepStrictEqual(append.op === 'modify' && append.edits, [{ line: 2, oldText: 'b', newText: 'b\nc\n' }]);
  });
});

suite('planPatch: hunks placed by git apply\'s rules', () => {
  test('among equal places the nearest to the named line wins, the later one on a tie', () => {
    const file = 'x\nA\nx\nB\nx\n';
    const [modify] = operations(git('--- a/f', '+++ b/f', '@@ -4,1 +4,1 @@', '-x', '+y'), { f: file }, { unidiffZero: true });
    assert.deepStrictEqual(modify.op === 'modify' && modify.edits.map((edit) => edit.line), [5]);
  });

  test('a hunk never matches lines an earlier hunk wrote, but may match before it', () => {
    const [modify] = operations(git('--- a/f', '+++ b/f', '@@ -5,2 +5,2 @@', ' p', '-q', '+Q', '@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c'), { f: 'a\nb\nc\nd\np\nq\n' });
    assert.deepStrictEqual(modify.op === 'modify' && modify.edits.map((edit) => edit.line), [1, 5]);
  });

  test('a -U0 hunk is placed by its line numbers when the file is the blob its index line names, or with unidiffZero', () => {
    const base = 'a\nb\nc\n';
    const hash = blobHash(Buffer.from(base)).slice(0, 7);
    const patch = git('diff --git a/f b/f', `index ${hash}..1234567 100644`, '--- a/f', '+++ b/f', '@@ -1,0 +2 @@', '+new');
    assert.deepStrictEqual(operations(patch, { f: base }), [{ op: 'modify', path: 'f', edits: [{ line: 2, oldText: '', newText: 'new\n' }] }]);
    const drifted = refused(patch, { f: 'z\na\nb\nc\n' });
    assert.strictEqual(drifted.code, 'INVALID_INPUT');
    assert.match(drifted.message, new RegExp(`not the blob ${hash}`));
    assert.deepStrictEqual(operations(patch, { f: 'z\na\nb\nc\n' }, { unidiffZero: true }), [{ op: 'modify', path: 'f', edits: [{ line: 2, oldText: '', newText: 'new\n' }] }]);
  });

  test('a hunk without context at line 1 is placed when it is the whole file (a small file all of whose lines changed), refused as -U0 otherwise', () => {
    const patch = git('--- a/f', '+++ b/f', '@@ -1 +1 @@', '-a', '+b');
    assert.deepStrictEqual(operations(patch, { f: 'a\n' }), [{ op: 'modify', path: 'f', edits: [{ line: 1, oldText: 'a\n', newText: 'b\n' }] }]);
    const longer = refused(patch, { f: 'a\nmore\n' });
    assert.strictEqual(longer.code, 'INVALID_INPUT');
    assert.match(longer.message, /no context lines \(a diff made with -U0\)/);
  });

  test('a stale hunk names the file, the hunk, and the first lines that really differ', () => {
    const stale = refused(git('--- a/src/x.ts', '+++ b/src/x.ts', '@@ -2,3 +2,3 @@', ' two', '-three', '+3', ' four'), { 'src/x.ts': 'one\ntwo\nTHREE\nfour\nfive\n' });
    assert.strictEqual(stale.code, 'NO_OCCURRENCE_FOUND');
    assert.match(stale.message, /src\/x\.ts: hunk 1 .*line 3: the patch expects "three", the file has "THREE"/s);
  });
});
