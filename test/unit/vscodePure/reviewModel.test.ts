import * as assert from 'assert';
import { computeLineChanges, hunksOf, indexLines } from '../../../src/core/index';
import { approvalWith, requestView, reviewFile } from '../../../src/vscode/approval/reviewModel';

const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
const after = before.replace('line 3\n', 'THREE\n').replace('line 25\n', 'TWENTY-FIVE\n');

suite('review model', () => {
  // As the core hands them over: the planned change's hunks.
  const hunks = hunksOf(computeLineChanges(before, after), indexLines(before).count, indexLines(after).count);
  const file = reviewFile({ path: '/w/a.txt', created: false, before, after, diff: '', hunks }, 'a.txt');

  test('shows each hunk with numbered context, removed and added lines', () => {
    assert.strictEqual(file.view.hunks.length, 2);
    const first = file.view.hunks[0];
    assert.deepStrictEqual(first.lines.find((l) => l.kind === 'removed'), { kind: 'removed', text: 'line 3', oldLine: 3 });
    assert.deepStrictEqual(first.lines.find((l) => l.kind === 'added'), { kind: 'added', text: 'THREE', newLine: 3 });
    assert.deepStrictEqual(first.lines[0], { kind: 'context', text: 'line 1', oldLine: 1, newLine: 1 });
    const view = requestView('r1', 'Agent', { operation: 'edit', explanation: 'why' }, [file], 'changed on disk');
    assert.deepStrictEqual([view.id, view.explanation, view.notice, view.files[0].displayPath], ['r1', 'why', 'changed on disk', 'a.txt']);
  });

  test('approving everything returns the exact proposal; rejected hunks become final content', () => {
    assert.deepStrictEqual(approvalWith([file], {}), { approved: true });
    assert.deepStrictEqual(approvalWith([file], { '/w/a.txt': [1] }), { approved: true, files: [{ path: '/w/a.txt', content: before.replace('line 3\n', 'THREE\n') }] });
  });

  test('hunk indexes that do not exist are ignored, not trusted', () => {
    assert.deepStrictEqual(approvalWith([file], { '/w/a.txt': [7, -1, 1.5 as number] }), { approved: true });
  });
});
