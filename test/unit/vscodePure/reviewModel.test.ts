import * as assert from 'assert';
import { computeLineChanges, hunksOf, indexLines } from '../../../src/core/index';
import { approvalWith, requestView, reviewFile } from '../../../src/vscode/approval/reviewModel';

const display = (path: string): string => path.replace(/^\/w\//, '');
const changeOf = (path: string, from: string, to: string, extra: { deleted?: boolean; movedTo?: string } = {}) =>
  reviewFile({ path, created: false, before: from, after: to, diff: '', hunks: hunksOf(computeLineChanges(from, to), indexLines(from).count, indexLines(to).count), ...extra }, display);

const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const after = before.replace('line 3\n', 'THREE\n').replace('line 25\n', 'TWENTY-FIVE\n');

suite('review model', () => {
  // As the core hands them over: the planned change's hunks.
  const hunks = hunksOf(computeLineChanges(before, after), indexLines(before).count, indexLines(after).count);
  const file = reviewFile({ path: '/w/a.txt', created: false, before, after, diff: '', hunks }, display);

  test('shows each hunk with numbered context, removed and added lines', () => {
    assert.strictEqual(file.view.hunks.length, 2);
    const first = file.view.hunks[0];
    assert.deepStrictEqual(first.lines.find((l) => l.kind === 'removed'), { kind: 'removed', text: 'line 3', oldLine: 3 });
    assert.deepStrictEqual(first.lines.find((l) => l.kind === 'added'), { kind: 'added', text: 'THREE', newLine: 3 });
    assert.deepStrictEqual(first.lines[0], { kind: 'context', text: 'line 1', oldLine: 1, newLine: 1 });
    const view = requestView('r1', 'Agent', { operation: 'edit', explanation: 'why' }, [file], { notice: 'changed on disk' });
    assert.deepStrictEqual([view.id, view.explanation, view.notice, view.files[0].displayPath], ['r1', 'why', 'changed on disk', 'a.txt']);
  });

  test('approving everything returns the exact proposal; rejected hunks become final content', () => {
    assert.deepStrictEqual(approvalWith([file], {}), { approved: true });
    assert.deepStrictEqual(approvalWith([file], { '/w/a.txt': [1] }), { approved: true, files: [{ path: '/w/a.txt', content: before.replace('line 3\n', 'THREE\n') }] });
  });

  test('hunk indexes that do not exist are ignored, not trusted', () => {
    assert.deepStrictEqual(approvalWith([file], { '/w/a.txt': [7, -1, 1.5 as number] }), { approved: true });
  });

  test('a deleted file shows its whole old content as one hunk of removed lines, and says it is deleted', () => {
    const gone = changeOf('/w/gone.txt', before, '', { deleted: true });
    assert.strictEqual(gone.view.deleted, true);
    assert.strictEqual(gone.view.movedTo, undefined);
    assert.deepStrictEqual([gone.view.totalOldLines, gone.view.hunks.length], [30, 1]);
    const lines = gone.view.hunks[0].lines;
    assert.ok(lines.every((line) => line.kind === 'removed'));
    assert.deepStrictEqual([lines.length, lines[0], lines[29]], [30, { kind: 'removed', text: 'line 1', oldLine: 1 }, { kind: 'removed', text: 'line 30', oldLine: 30 }]);
  });

  test('a moved file names its destination (full and short) and shows only its content changes', () => {
    const moved = changeOf('/w/old/a.txt', before, after, { movedTo: '/w/new/a.txt' });
    assert.deepStrictEqual([moved.view.displayPath, moved.view.movedTo, moved.view.movedToDisplay, moved.view.hunks.length], ['old/a.txt', '/w/new/a.txt', 'new/a.txt', 2]);
    const unchanged = changeOf('/w/old/b.txt', before, before, { movedTo: '/w/new/b.txt' });
    assert.deepStrictEqual([unchanged.view.movedToDisplay, unchanged.view.hunks.length], ['new/b.txt', 0]);
  });

  test('a deletion is approved whole: no content is ever sent for it, whatever hunks the panel names', () => {
    // The guard ignores content for a deleted file anyway; sending some would claim the user edited a deletion.
    const gone = changeOf('/w/gone.txt', before, '', { deleted: true });
    assert.deepStrictEqual(approvalWith([gone], {}), { approved: true });
    assert.deepStrictEqual(approvalWith([gone], { '/w/gone.txt': [0] }), { approved: true });
  });

  test('a move sends content only when some of its content changes were rejected, keyed by its old path', () => {
    const moved = changeOf('/w/old/a.txt', before, after, { movedTo: '/w/new/a.txt' });
    assert.deepStrictEqual(approvalWith([moved], {}), { approved: true });
    assert.deepStrictEqual(approvalWith([moved], { '/w/old/a.txt': [0] }), { approved: true, files: [{ path: '/w/old/a.txt', content: before.replace('line 25\n', 'TWENTY-FIVE\n') }] });
    // Every content change rejected: the file still moves, with its old content.
    assert.deepStrictEqual(approvalWith([moved], { '/w/old/a.txt': [0, 1] }), { approved: true, files: [{ path: '/w/old/a.txt', content: before }] });
  });

  test('a request mixing an edit, a move and a deletion sends content exactly for the files with rejections', () => {
    const edited = changeOf('/w/main.txt', before, after);
    const moved = changeOf('/w/old/a.txt', before, after, { movedTo: '/w/new/a.txt' });
    const gone = changeOf('/w/gone.txt', before, '', { deleted: true });
    assert.deepStrictEqual(approvalWith([edited, moved, gone], { '/w/main.txt': [1], '/w/gone.txt': [0] }), {
      approved: true,
      files: [{ path: '/w/main.txt', content: before.replace('line 3\n', 'THREE\n') }],
    });
  });

  test('the request view carries the flags: one call, the user\'s own change, the revision', () => {
    const own = requestView('r2', 'Apply Patch (the clipboard)', { operation: 'multiEdit' }, [file], { own: true, revision: 3 });
    assert.deepStrictEqual([own.own, own.oneCall, own.revision, own.operation], [true, undefined, 3, 'multiEdit']);
    assert.strictEqual(requestView('r3', 'Agent', { operation: 'delete' }, [file]).own, undefined);
    // A revert is the user's own only when the user started it; an extension's revert through the API is not.
    const extensionRevert = requestView('r4', 'an extension', { operation: 'revert' }, [file]);
    assert.deepStrictEqual([extensionRevert.own, extensionRevert.revert, extensionRevert.operation], [undefined, true, 'multiEdit']);
    assert.strictEqual(requestView('r5', 'Revert', { operation: 'revert' }, [file], { own: true }).own, true);
  });
});
