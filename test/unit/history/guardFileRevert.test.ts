/**
 * `Guard.revert({ sessionId, path })` through the real guard on real temp folders: one file put back to before
 * a session (the session's changes of it only, through its moves), its other files and other sessions' changes
 * kept; conflicts shown to the approver and written only when it takes the merged parts; staleness between plan
 * and write refused; recorded with `revertOf` so it can be reverted itself. And the target's shape: exactly
 * `{ changeId }`, `{ sessionId }` or `{ sessionId, path }`: anything else is INVALID_INPUT, nothing written.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { ApprovalDecision, ApprovalRequest, ChangeRecord } from '../../../src/core/index';
import { assertOk, codeOf, numbered } from '../helpers/guardFixture';
import { refused } from '../helpers/results';
import { snapshotTree } from '../helpers/treeSnapshot';
import { historyFixture } from './guardFixture';

/** Records the requests, answering each with `answer` (default: approve). */
function approver(answer: (request: ApprovalRequest) => ApprovalDecision = () => ({ approved: true })) {
  const requests: ApprovalRequest[] = [];
  return { requests, approve: async (request: ApprovalRequest) => (requests.push(request), answer(request)) };
}

async function newest(f: { guard: { history(): Promise<ChangeRecord[]> } }): Promise<ChangeRecord> {
  const [record] = await f.guard.history();
  assert.ok(record, 'no record');
  return record;
}

suite('guard history: revert a file to before a session', () => {
  test('undoes the session’s changes to that file only; its other file and other sessions’ changes stay', async () => {
    const review = approver();
    const f = historyFixture({ approve: review.approve });
    const a = f.file('a.txt', numbered(6));
    const b = f.file('b.txt', numbered(4));
    assertOk(await f.session.read(a));
    assertOk(await f.session.read(b));
    assertOk(await f.session.edit(a, [{ oldString: 'line 1\n', newString: 'one\n' }]));
    assertOk(await f.session.multiEdit([{ path: a, edits: [{ oldString: 'line 5\n', newString: 'five\n' }] }, { path: b, edits: [{ oldString: 'line 2\n', newString: 'two\n' }] }]));
    const other = f.guard.session('other');
    assertOk(await other.read(a));
    assertOk(await other.edit(a, [{ oldString: 'line 3\n', newString: 'THREE\n' }]));
    const asked = review.requests.length;

    assertOk(await f.guard.revert({ sessionId: 'test', path: 'a.txt' }));
    assert.strictEqual(f.text('a.txt'), numbered(6).replace('line 3\n', 'THREE\n'), 'a relative path is taken from the first root');
    assert.strictEqual(f.text('b.txt'), numbered(4).replace('line 2\n', 'two\n'), 'the session’s other file is kept');
    const request = review.requests[asked];
    assert.strictEqual(request.operation, 'revert');
    assert.match(request.sessionId, /^revert:[0-9a-f-]{36}$/);
    assert.deepStrictEqual(request.files.map((x) => x.path), [a]);
    assert.strictEqual(request.conflicts, undefined);
    assert.deepStrictEqual(f.guard.sessionIds().sort(), ['other', 'test'], 'the revert session is not one of the guard’s live sessions');
  });

  test('the file revert is recorded with revertOf (the newest change reverted) and a default explanation naming the file; it can be reverted itself', async () => {
    const f = historyFixture();
    const a = f.file('a.txt', numbered(6));
    const b = f.file('b.txt', numbered(3));
    assertOk(await f.session.read(a));
    assertOk(await f.session.read(b));
    assertOk(await f.session.edit(a, [{ oldString: 'line 2\n', newString: 'two\n' }]));
    assertOk(await f.session.multiEdit([{ path: a, edits: [{ oldString: 'line 4\n', newString: 'four\n' }] }, { path: b, edits: [{ oldString: 'line 1\n', newString: 'one\n' }] }]));
    assertOk(await f.session.edit(b, [{ oldString: 'line 3\n', newString: 'three\n' }]));
    const [lastOfB, lastOfA] = await f.guard.history({ sessionId: 'test' });
    assert.deepStrictEqual(lastOfA.files.map((x) => x.path), [a, b], 'the multiEdit is the newest change of a.txt');

    assertOk(await f.guard.revert({ sessionId: 'test', path: a }));
    const revert = await newest(f);
    assert.deepStrictEqual(
      [revert.tool, revert.revertOf, revert.surface, revert.label, revert.explanation],
      ['revert', lastOfA.id, 'palette', `Revert of the changes of session test to ${a}`, `Revert the 2 changes of test (session test) to ${a}`],
    );
    assert.notStrictEqual(revert.revertOf, lastOfB.id);
    assert.deepStrictEqual(revert.files.map((x) => [x.kind, x.path]), [['edit', a]]);
    assert.strictEqual(f.text('a.txt'), numbered(6));

    assertOk(await f.guard.revert({ changeId: revert.id }));
    assert.strictEqual(f.text('a.txt'), numbered(6).replace('line 2\n', 'two\n').replace('line 4\n', 'four\n'));
    assert.strictEqual((await newest(f)).revertOf, revert.id);
    assert.strictEqual(f.text('b.txt'), 'one\nline 2\nthree\n', 'b.txt was never touched');
  });

  test('lines changed since are a conflict shown to the approver with both sides; the merged parts are written only with takeMerged', async () => {
    let answer: ApprovalDecision = { approved: true };
    const review = approver(() => answer);
    const f = historyFixture({ approve: review.approve });
    const a = f.file('a.txt', numbered(10));
    assertOk(await f.session.read(a));
    assertOk(await f.session.edit(a, [{ oldString: 'line 2\n', newString: 'agent two\n' }, { oldString: 'line 9\n', newString: 'agent nine\n' }]));
    const change = await newest(f);
    const other = f.guard.session('other');
    assertOk(await other.read(a));
    assertOk(await other.edit(a, [{ oldString: 'agent two\n', newString: 'other two\n' }]));
    const now = f.text('a.txt');
    const asked = review.requests.length;

    refused(await f.guard.revert({ sessionId: 'test', path: a }), 'REVERT_CONFLICT', 'a.txt lines 2', 'changed since', `the changes of session test to ${a}`, 'Nothing was written');
    assert.strictEqual(f.text('a.txt'), now, 'nothing written');
    const merged = numbered(10).replace('line 2\n', 'other two\n');
    assert.deepStrictEqual(JSON.parse(JSON.stringify(review.requests[asked].conflicts)), [
      { path: a, reason: 'lines', changeId: change.id, ranges: [{ start: 2, end: 2, current: 'other two\n', wanted: 'line 2\n' }], merged },
    ]);

    answer = { approved: true, approvedBy: 'user', takeMerged: true };
    assertOk(await f.guard.revert({ sessionId: 'test', path: a }));
    assert.strictEqual(f.text('a.txt'), merged, 'line 9 reverted, line 2 keeps the other session’s text');
    assert.strictEqual((await newest(f)).approvedBy, 'user');
  });

  test('a file changed between the plan and the write is refused as stale; nothing is written', async () => {
    const f = historyFixture({
      approve: async (request) => {
        if (request.operation === 'revert') fs.writeFileSync(request.files[0].path, 'changed during review\n');
        return { approved: true };
      },
    });
    const a = f.file('a.txt', numbered(3));
    assertOk(await f.session.read(a));
    assertOk(await f.session.edit(a, [{ oldString: 'line 1\n', newString: 'one\n' }]));
    const records = (await f.guard.history()).length;
    refused(await f.guard.revert({ sessionId: 'test', path: a }), 'FILE_CHANGED_SINCE_READ', 'during review');
    assert.strictEqual(f.text('a.txt'), 'changed during review\n');
    assert.strictEqual((await f.guard.history()).length, records, 'nothing recorded');
  });

  test('a file the session created is deleted again; the session’s other file stays', async () => {
    const f = historyFixture();
    const kept = f.file('kept.txt', numbered(2));
    const made = path.join(f.root, 'made.txt');
    assertOk(await f.session.write(made, 'fresh\n'));
    assertOk(await f.session.read(kept));
    assertOk(await f.session.edit(kept, [{ oldString: 'line 2\n', newString: 'two\n' }]));
    assertOk(await f.guard.revert({ sessionId: 'test', path: made }));
    assert.ok(!fs.existsSync(made));
    assert.strictEqual(f.text('kept.txt'), 'line 1\ntwo\n');
    assert.deepStrictEqual((await newest(f)).files.map((x) => [x.kind, x.path]), [['delete', made]]);
  });

  test('a file the session has no change of on record is INVALID_INPUT, and nothing is written', async () => {
    const review = approver();
    const f = historyFixture({ approve: review.approve });
    const a = f.file('a.txt', numbered(3));
    const b = f.file('b.txt', numbered(3));
    assertOk(await f.session.read(a));
    assertOk(await f.session.edit(a, [{ oldString: 'line 1\n', newString: 'one\n' }]));
    const other = f.guard.session('other');
    assertOk(await other.read(b));
    assertOk(await other.edit(b, [{ oldString: 'line 1\n', newString: 'one\n' }]));
    const before = snapshotTree(f.root);
    const asked = review.requests.length;
    refused(await f.guard.revert({ sessionId: 'test', path: b }), 'INVALID_INPUT', 'Session "test" has no change of', 'b.txt on record', 'Nothing was changed');
    refused(await f.guard.revert({ sessionId: 'nobody', path: a }), 'INVALID_INPUT', 'Session "nobody" has no change of');
    assert.deepStrictEqual(snapshotTree(f.root), before);
    assert.strictEqual(review.requests.length, asked, 'the approver was never asked');
  });

  test('follows the file back through its move: moved back to its old name with its content, the session’s other file kept', async () => {
    const f = historyFixture();
    const from = f.file('old.txt', numbered(4));
    const to = path.join(f.root, 'new.txt');
    const c = f.file('c.txt', numbered(2));
    assertOk(await f.session.read(from));
    assertOk(await f.session.read(c));
    assertOk(await f.session.edit(from, [{ oldString: 'line 1\n', newString: 'one\n' }]));
    assertOk(await f.session.rename(from, to));
    assertOk(await f.session.multiEdit([{ path: to, edits: [{ oldString: 'line 4\n', newString: 'four\n' }] }, { path: c, edits: [{ oldString: 'line 1\n', newString: 'c one\n' }] }]));
    assertOk(await f.guard.revert({ sessionId: 'test', path: to }));
    assert.ok(!fs.existsSync(to));
    assert.strictEqual(f.text('old.txt'), numbered(4), 'moved back, both edits undone');
    assert.strictEqual(f.text('c.txt'), 'c one\nline 2\n');
    const revert = await newest(f);
    assert.deepStrictEqual(revert.files.map((x) => [x.kind, x.path, x.from]), [['rename', from, to]]);
    assert.match(revert.explanation ?? '', /^Revert the 3 changes of test \(session test\) to .*new\.txt$/);
  });

  test('a target with an unknown field or a field of the wrong type is INVALID_INPUT, and nothing is written', async () => {
    const review = approver();
    const f = historyFixture({ approve: review.approve });
    const a = f.file('a.txt', numbered(3));
    assertOk(await f.session.read(a));
    assertOk(await f.session.edit(a, [{ oldString: 'line 1\n', newString: 'one\n' }]));
    const change = await newest(f);
    const before = snapshotTree(f.root);
    const asked = review.requests.length;
    const revert = (target: unknown) => f.guard.revert(target as never);

    refused(await revert({ sessionId: 'test', file: a }), 'INVALID_INPUT', 'target has a field "file"', '{ sessionId, path }');
    refused(await revert({ sessionId: 'test', path: a, recursive: true }), 'INVALID_INPUT', 'field "recursive"');
    refused(await revert({ changeId: change.id, sessionId: undefined }), 'INVALID_INPUT', 'target.sessionId must be a non-empty string, not nothing');
    refused(await revert({ sessionId: 'test', path: undefined }), 'INVALID_INPUT', 'target.path must be a non-empty string, not nothing');
    refused(await revert({ sessionId: 'test', path: 7 }), 'INVALID_INPUT', 'target.path must be a non-empty string, not 7');
    refused(await revert({ sessionId: 'test', path: '' }), 'INVALID_INPUT', 'target.path');
    refused(await revert({ changeId: 5 }), 'INVALID_INPUT', 'target.changeId');
    refused(await revert({ sessionId: ['test'] }), 'INVALID_INPUT', 'target.sessionId', 'a list');
    refused(await revert({ changeId: change.id, path: a }), 'INVALID_INPUT', 'target must be { changeId }, { sessionId } or { sessionId, path }');
    refused(await revert({ changeId: change.id, sessionId: 'test' }), 'INVALID_INPUT', 'target must be');
    refused(await revert({ path: a }), 'INVALID_INPUT', 'target must be');
    refused(await revert({}), 'INVALID_INPUT', 'target must be');
    refused(await revert([change.id]), 'INVALID_INPUT', 'field "0"');
    refused(await revert('test'), 'INVALID_INPUT', 'target must be');
    const hostile = new Proxy({ sessionId: 'test' }, { ownKeys: () => { throw new Error('no'); } });
    refused(await revert(hostile), 'INVALID_INPUT', 'target must be plain data');

    assert.deepStrictEqual(snapshotTree(f.root), before, 'nothing written');
    assert.strictEqual(review.requests.length, asked, 'the approver was never asked');
    assert.strictEqual((await f.guard.history()).length, 1, 'nothing recorded');
    assert.strictEqual(codeOf(await revert({ sessionId: 'test', path: a })), 'ok', 'the well-formed target still works');
  });
});
