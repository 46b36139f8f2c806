/**
 * `Guard.revert` through the real guard on real temp folders: a change, a session's changes, and a revert
 * itself are undone byte for byte while later changes elsewhere in the files are kept; created files go only
 * while unchanged, deleted ones come back, renames move back; a conflict is shown to the approver and written
 * only when it takes the merged parts (else REVERT_CONFLICT, nothing written); staleness between plan and
 * write is refused like any change; the revert needs no read and runs in a session of its own; and a new guard
 * on the same history folder reverts what an earlier one recorded.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createNodeFileSystem, writeConflict } from '../../../src/core/index';
import type { ApprovalDecision, ApprovalRequest, ChangeRecord, FileSystem } from '../../../src/core/index';
import { assertOk, codeOf, fixture, numbered } from '../helpers/guardFixture';
import { refused } from '../helpers/results';
import { snapshotTree } from '../helpers/treeSnapshot';
import { historyFixture, versionOf } from './guardFixture';

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

/**
 * The Node file system with editor buffers over some files, as the VS Code adapter's port is: reads see a
 * buffer's unsaved text (its stat carries the document's revision), and writes go into it, checked against it.
 */
function withBuffers(buffers: Map<string, Uint8Array>): FileSystem & { type(path: string, text: string): void } {
  const real = createNodeFileSystem();
  const revisions = new Map<string, number>();
  return {
    ...real,
    async stat(target) {
      const stat = await real.stat(target);
      const buffer = buffers.get(target);
      return stat && buffer ? { ...stat, size: buffer.length, revision: String(revisions.get(target) ?? 0) } : stat;
    },
    async readFile(target) {
      return buffers.get(target) ?? real.readFile(target);
    },
    async writeFile(target, data, options) {
      const buffer = buffers.get(target);
      if (!buffer) return real.writeFile(target, data, options);
      const expected = options?.expect?.current?.bytes;
      if (!expected || !Buffer.from(expected).equals(Buffer.from(buffer))) throw writeConflict('changed', `${target}: the document changed`);
      buffers.set(target, data);
      revisions.set(target, (revisions.get(target) ?? 0) + 1);
    },
    type(target, text) {
      buffers.set(target, new Uint8Array(Buffer.from(text)));
      revisions.set(target, (revisions.get(target) ?? 0) + 1);
    },
  };
}

suite('guard history: revert', () => {
  test('an edit is reverted byte for byte without a read, in a session of its own, recorded with revertOf', async () => {
    const review = approver();
    const f = historyFixture({ approve: review.approve });
    const original = '\uFEFFkeep\r\nline 2\r\nend';
    const file = f.file('a.txt', original);
    assertOk(await f.session.read(file));
    assertOk(await f.session.edit(file, [{ oldString: 'line 2', newString: 'line two' }], { explanation: 'rename' }));
    const change = await newest(f);
    const result = await f.guard.revert({ changeId: change.id });
    assertOk(result);
    assert.ok(fs.readFileSync(file).equals(Buffer.from(original)), 'BOM, CRLF and the missing final newline are back exactly');
    const request = review.requests[1];
    assert.strictEqual(request.operation, 'revert');
    assert.match(request.sessionId, /^revert:[0-9a-f-]{36}$/);
    assert.strictEqual(request.conflicts, undefined);
    assert.strictEqual(request.explanation, `Revert change ${change.id} (edit by test: rename)`);
    const revert = await newest(f);
    assert.deepStrictEqual([revert.sessionId, revert.surface, revert.label, revert.tool, revert.revertOf, revert.approvedBy], [request.sessionId, 'palette', `Revert of change ${change.id}`, 'revert', change.id, 'approver']);
    assert.deepStrictEqual(revert.files.map((x) => [x.kind, x.path, x.before, x.after]), [['edit', file, change.files[0].after, versionOf(original)]]);
    assert.deepStrictEqual(f.guard.sessionIds(), ['test'], 'the revert session is not one of the guard\'s live sessions');
  });

  test('a later edit elsewhere in the file is kept byte for byte', async () => {
    const f = historyFixture();
    const file = f.file('a.txt', numbered(30));
    assertOk(await f.session.read(file));
    assertOk(await f.session.edit(file, [{ oldString: 'line 5\n', newString: 'line five\nadded\n' }]));
    const change = await newest(f);
    fs.writeFileSync(file, f.text('a.txt').replace('line 20\n', 'user 20\r\n'));
    assertOk(await f.guard.revert({ changeId: change.id }));
    assert.strictEqual(f.text('a.txt'), numbered(30).replace('line 20\n', 'user 20\r\n'));
  });

  test('a later change of the same lines is a conflict: the approver sees both sides and the merged text; nothing is written unless it takes them', async () => {
    let answer: ApprovalDecision = { approved: true };
    const review = approver(() => answer);
    const f = historyFixture({ approve: review.approve });
    const file = f.file('a.txt', numbered(20));
    assertOk(await f.session.read(file));
    assertOk(await f.session.multiEdit([{ path: file, edits: [{ oldString: 'line 3\n', newString: 'agent 3\n' }, { oldString: 'line 15\n', newString: 'agent 15\n' }] }]));
    const change = await newest(f);
    const later = f.text('a.txt').replace('agent 3\n', 'user 3\n');
    fs.writeFileSync(file, later);
    const before = snapshotTree(f.root);

    const refusal = refused(await f.guard.revert({ changeId: change.id }), 'REVERT_CONFLICT', 'a.txt lines 3', 'changed since', 'takeMerged: true', 'Nothing was written');
    assert.match(refusal, new RegExp(`revert of change ${change.id}`));
    assert.deepStrictEqual(snapshotTree(f.root), before, 'nothing written');
    const request = review.requests[1];
    const merged = numbered(20).replace('line 3\n', 'user 3\n');
    assert.deepStrictEqual(JSON.parse(JSON.stringify(request.conflicts)), [
      { path: file, reason: 'lines', changeId: change.id, ranges: [{ start: 3, end: 3, current: 'user 3\n', wanted: 'line 3\n' }], merged },
    ]);
    assert.deepStrictEqual(request.files.map((x) => [x.path, x.before, x.after]), [[file, later, merged]]);

    answer = { approved: false, reason: 'not now' };
    refused(await f.guard.revert({ changeId: change.id }), 'REJECTED_BY_USER', 'not now');
    assert.deepStrictEqual(snapshotTree(f.root), before);

    answer = { approved: true, approvedBy: 'user', takeMerged: true };
    assertOk(await f.guard.revert({ changeId: change.id }));
    assert.strictEqual(f.text('a.txt'), merged, 'line 15 reverted, line 3 keeps the user\'s text');
    assert.strictEqual((await newest(f)).approvedBy, 'user');
    assert.strictEqual((await newest(f)).partial, true, 'the merged parts kept conflicting lines: the change is reverted only in part');
  });

  // What a view says of the reverted change ("reverted" or "partly reverted") rests on this, not on the files.
  test('a revert written whole has no `partial`; one with a hunk rejected in review has, like one that took the merged parts', async () => {
    let answer: (request: ApprovalRequest) => ApprovalDecision = () => ({ approved: true });
    const f = historyFixture({ approve: async (request) => answer(request) });
    const file = f.file('a.txt', numbered(20));
    assertOk(await f.session.read(file));
    assertOk(await f.session.multiEdit([{ path: file, edits: [{ oldString: 'line 3\n', newString: 'agent 3\n' }, { oldString: 'line 15\n', newString: 'agent 15\n' }] }]));
    const change = await newest(f);
    assertOk(await f.guard.revert({ changeId: change.id }));
    const whole = await newest(f);
    assert.deepStrictEqual([whole.revertOf, whole.partial], [change.id, undefined]);
    assertOk(await f.guard.revert({ changeId: whole.id }));
    const again = await newest(f);
    // Keep the revert's line 3 hunk only: line 15 stays as the agent left it.
    answer = (request) => ({ approved: true, files: [{ path: file, content: request.files[0].after.replace('line 15\n', 'agent 15\n') }] });
    assertOk(await f.guard.revert({ changeId: again.id }));
    assert.strictEqual(f.text('a.txt'), numbered(20).replace('line 15\n', 'agent 15\n'));
    assert.deepStrictEqual([(await newest(f)).revertOf, (await newest(f)).partial], [again.id, true]);
  });

  test('a multi-file change is reverted whole: edits undone, the created file deleted, the deleted file back, the moved file moved back', async () => {
    const f = historyFixture();
    const a = f.file('a.txt', numbered(5));
    const gone = f.file('gone.txt', 'precious\r\nbytes\r\n');
    const from = f.file('dir/from.txt', 'moving\n');
    for (const file of [a, gone, from]) assertOk(await f.session.read(file));
    const made = path.join(f.root, 'new/made.txt');
    const to = path.join(f.root, 'to.txt');
    const before = snapshotTree(f.root, { bytes: true });
    assertOk(
      await f.session.multiEdit([
        { path: a, edits: [{ oldString: 'line 2', newString: 'line two' }] },
        { path: gone, delete: true },
        { path: from, moveTo: to, edits: [{ oldString: 'moving', newString: 'moved' }] },
        { path: made, edits: [{ oldString: '', newString: 'made\n' }] },
      ]),
    );
    const change = await newest(f);
    assertOk(await f.guard.revert({ changeId: change.id }));
    const after = snapshotTree(f.root, { bytes: true });
    delete after['new'];
    assert.deepStrictEqual(after, before, 'every file as it was, byte for byte and mode for mode');
    assert.deepStrictEqual(fs.readdirSync(path.join(f.root, 'new')), [], 'the created file is gone (its folder may stay)');
    const revert = await newest(f);
    assert.deepStrictEqual(revert.files.map((x) => [x.kind, x.path, x.from]).sort(), [
      ['create', gone, undefined],
      ['delete', made, undefined],
      ['edit', a, undefined],
      ['rename', from, to],
    ]);
  });

  test('a created file is deleted only while unchanged since; changed, the revert is a conflict and the file stays', async () => {
    const f = historyFixture();
    const made = path.join(f.root, 'made.txt');
    assertOk(await f.session.edit(made, [{ oldString: '', newString: 'one\ntwo\n' }]));
    const create = await newest(f);
    fs.writeFileSync(made, 'one\nTWO\n');
    refused(await f.guard.revert({ changeId: create.id }), 'REVERT_CONFLICT', 'made.txt lines 2', 'created by the change and changed since', 'Nothing of change');
    assert.strictEqual(fs.readFileSync(made, 'utf8'), 'one\nTWO\n');
    fs.writeFileSync(made, 'one\ntwo\n');
    assertOk(await f.guard.revert({ changeId: create.id }));
    assert.ok(!fs.existsSync(made));
  });

  test('a deleted file comes back byte for byte, only where its path is free; a rename moves back', async () => {
    const f = historyFixture();
    const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x68, 0x69, 0x0d, 0x0a, 0xc3, 0xa9, 0x0d]);
    const doomed = f.file('doomed.txt', bytes);
    assertOk(await f.session.read(doomed));
    assertOk(await f.session.delete(doomed));
    const deletion = await newest(f);
    fs.writeFileSync(doomed, 'someone else\n');
    refused(await f.guard.revert({ changeId: deletion.id }), 'REVERT_CONFLICT', 'doomed.txt', 'another file is at this path now');
    assert.strictEqual(fs.readFileSync(doomed, 'utf8'), 'someone else\n');
    fs.rmSync(doomed);
    assertOk(await f.guard.revert({ changeId: deletion.id }));
    assert.ok(fs.readFileSync(doomed).equals(bytes));

    const from = f.file('old-name.txt', 'content\n');
    const to = path.join(f.root, 'new-name.txt');
    assertOk(await f.session.read(from));
    assertOk(await f.session.rename(from, to));
    fs.appendFileSync(to, 'added after the move\n');
    assertOk(await f.guard.revert({ changeId: (await newest(f)).id }));
    assert.ok(!fs.existsSync(to));
    assert.strictEqual(fs.readFileSync(from, 'utf8'), 'content\nadded after the move\n', 'moved back, with what was added since');
  });

  test('a revert can be reverted; reverting the same change twice is an already-reverted conflict that writes nothing', async () => {
    const f = historyFixture();
    const file = f.file('a.txt', numbered(5));
    assertOk(await f.session.read(file));
    assertOk(await f.session.edit(file, [{ oldString: 'line 4', newString: 'line four' }]));
    const change = await newest(f);
    assertOk(await f.guard.revert({ changeId: change.id }));
    const revert = await newest(f);
    assert.strictEqual(f.text('a.txt'), numbered(5));
    refused(await f.guard.revert({ changeId: change.id }), 'REVERT_CONFLICT', 'a.txt lines 4', 'already put back by a later change', 'Nothing of change');
    assertOk(await f.guard.revert({ changeId: revert.id }));
    assert.strictEqual(f.text('a.txt'), numbered(5).replace('line 4', 'line four'));
    assert.strictEqual((await newest(f)).revertOf, revert.id);
  });

  test('guard.revert({ sessionId }) undoes every change of the session, newest first, and keeps the other sessions\' changes', async () => {
    const f = historyFixture();
    const a = f.file('a.txt', numbered(10));
    const other = f.guard.session('other', { surface: 'mcp', label: 'Other agent' });
    assertOk(await f.session.read(a));
    assertOk(await f.session.edit(a, [{ oldString: 'line 2\n', newString: 'first\n' }]));
    assertOk(await f.session.edit(a, [{ oldString: 'first\n', newString: 'second\n' }]));
    const made = path.join(f.root, 'made.txt');
    assertOk(await f.session.edit(made, [{ oldString: '', newString: 'made\n' }]));
    assertOk(await other.read(a));
    assertOk(await other.edit(a, [{ oldString: 'line 9\n', newString: 'other 9\n' }]));
    const result = await f.guard.revert({ sessionId: 'test' }, { explanation: 'undo the test session', sessionId: 'undo-1', label: 'Undo', surface: 'api' });
    assertOk(result);
    assert.strictEqual(f.text('a.txt'), numbered(10).replace('line 9\n', 'other 9\n'));
    assert.ok(!fs.existsSync(made));
    const records = await f.guard.history();
    const sessionChanges = await f.guard.history({ sessionId: 'test' });
    assert.deepStrictEqual([records[0].sessionId, records[0].label, records[0].surface, records[0].explanation, records[0].revertOf], ['undo-1', 'Undo', 'api', 'undo the test session', sessionChanges[0].id]);
    assert.strictEqual(codeOf(await f.guard.revert({ sessionId: 'test' })), 'REVERT_CONFLICT', 'its changes are already put back now');
  });

  test('a file changed between the plan and the write is refused as stale; nothing is written', async () => {
    const f = historyFixture({
      approve: async (request) => {
        if (request.operation === 'revert') fs.writeFileSync(request.files[0].path, numbered(5).replace('line 4', 'line four').replace('line 1\n', 'during review\n'));
        return { approved: true };
      },
    });
    const a = f.file('a.txt', numbered(5));
    const b = f.file('b.txt', 'b\n');
    assertOk(await f.session.read(a));
    assertOk(await f.session.read(b));
    assertOk(await f.session.multiEdit([{ path: a, edits: [{ oldString: 'line 4', newString: 'line four' }] }, { path: b, edits: [{ oldString: 'b', newString: 'B' }] }]));
    const change = await newest(f);
    refused(await f.guard.revert({ changeId: change.id }), 'FILE_CHANGED_SINCE_READ', 'during review');
    assert.strictEqual(f.text('a.txt'), numbered(5).replace('line 4', 'line four').replace('line 1\n', 'during review\n'));
    assert.strictEqual(f.text('b.txt'), 'B\n', 'all or none: the other file is not reverted either');
    assert.strictEqual((await f.guard.history()).length, 1, 'nothing recorded');
  });

  test('a refresh during review plans the revert again: a conflict that appeared meanwhile is shown, and must be taken', async () => {
    let takeMerged = false;
    const seen: { before?: unknown; refreshed?: unknown; after?: unknown } = {};
    const f = historyFixture({
      approve: async (request) => {
        if (request.operation !== 'revert') return { approved: true };
        seen.before = request.conflicts;
        fs.writeFileSync(request.files[0].path, fs.readFileSync(request.files[0].path, 'utf8').replace('agent 2', 'user 2'));
        const refreshed = await request.refresh();
        seen.refreshed = refreshed.ok ? JSON.parse(JSON.stringify(refreshed.conflicts)) : refreshed;
        seen.after = JSON.parse(JSON.stringify(request.conflicts));
        return { approved: true, takeMerged };
      },
    });
    const file = f.file('a.txt', numbered(12));
    assertOk(await f.session.read(file));
    assertOk(await f.session.edit(file, [{ oldString: 'line 2\n', newString: 'agent 2\n' }, { oldString: 'line 10\n', newString: 'agent 10\n' }]));
    const change = await newest(f);
    refused(await f.guard.revert({ changeId: change.id }), 'REVERT_CONFLICT', 'a.txt lines 2');
    const merged = numbered(12).replace('line 2\n', 'user 2\n');
    const conflicts = [{ path: file, reason: 'lines', changeId: change.id, ranges: [{ start: 2, end: 2, current: 'user 2\n', wanted: 'line 2\n' }], merged }];
    assert.deepStrictEqual(seen, { before: undefined, refreshed: conflicts, after: conflicts });
    assert.strictEqual(f.text('a.txt'), numbered(12).replace('line 2\n', 'user 2\n').replace('line 10\n', 'agent 10\n'), 'nothing written');
    takeMerged = true;
    fs.writeFileSync(file, numbered(12).replace('line 10\n', 'agent 10\n').replace('line 2\n', 'agent 2\n'));
    assertOk(await f.guard.revert({ changeId: change.id }));
    assert.strictEqual(f.text('a.txt'), merged, 'the refreshed plan was written: line 10 reverted, line 2 the user\'s');
  });

  test('unsaved editor text counts: the change is recorded from the buffer, the revert planned against it and written into it', async () => {
    const buffers = new Map<string, Uint8Array>();
    const editor = withBuffers(buffers);
    const f = historyFixture({ fileSystem: editor });
    const file = f.file('a.txt', numbered(10));
    const unsaved = numbered(10).replace('line 9\n', 'unsaved 9\n');
    editor.type(file, unsaved);
    assertOk(await f.session.read(file));
    assertOk(await f.session.edit(file, [{ oldString: 'line 2\n', newString: 'agent 2\n' }]));
    const change = await newest(f);
    assert.deepStrictEqual([change.files[0].before, change.files[0].after], [versionOf(unsaved), versionOf(unsaved.replace('line 2\n', 'agent 2\n'))]);
    editor.type(file, unsaved.replace('line 2\n', 'agent 2\n').replace('line 5\n', 'typed 5\n'));
    assertOk(await f.guard.revert({ changeId: change.id }));
    assert.strictEqual(Buffer.from(buffers.get(file) as Uint8Array).toString(), unsaved.replace('line 5\n', 'typed 5\n'));
    assert.strictEqual(f.text('a.txt'), numbered(10), 'the disk was never written');

    const made = path.join(f.root, 'made.txt');
    assertOk(await f.session.edit(made, [{ oldString: '', newString: 'made\n' }]));
    const create = await newest(f);
    editor.type(made, 'made\n');
    refused(await f.guard.revert({ changeId: create.id }), 'WRITE_FAILED', 'made.txt has unsaved changes', 'Nothing was changed');
    assert.ok(fs.existsSync(made));
  });

  test('a new guard on the same history folder lists the old records and reverts them', async () => {
    const first = historyFixture();
    const file = first.file('a.txt', 'one\n');
    assertOk(await first.session.read(file));
    assertOk(await first.session.edit(file, [{ oldString: 'one', newString: 'two' }]));
    const change = await newest(first);
    await first.guard.dispose();
    const second = fixture({ history: { dir: first.historyDir }, roots: [first.root] });
    assert.deepStrictEqual(await second.guard.history(), [change]);
    assertOk(await second.guard.revert({ changeId: change.id }));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\n');
    assert.strictEqual((await second.guard.history()).length, 2);
  });

  test('what cannot be reverted is refused with a next step: no history, an unknown change or session, a bad target, a path now denied', async () => {
    const bare = fixture();
    refused(await bare.guard.revert({ changeId: 'x' }), 'INVALID_INPUT', 'no change history');
    const f = historyFixture();
    refused(await f.guard.revert({ changeId: 'nope' }), 'INVALID_INPUT', 'There is no change "nope"', 'history()');
    refused(await f.guard.revert({ sessionId: 'nobody' }), 'INVALID_INPUT', 'no change of session "nobody"');
    refused(await f.guard.revert({ changeId: 'a', sessionId: 'b' } as never), 'INVALID_INPUT', '{ changeId }, { sessionId } or { sessionId, path }');
    refused(await f.guard.revert(null as never), 'INVALID_INPUT');
    refused(await f.guard.revert({ changeId: 'a' }, { sessionId: 7 } as never), 'INVALID_INPUT', 'options.sessionId');
    const file = f.file('secret/a.txt', 'one\n');
    assertOk(await f.session.read(file));
    assertOk(await f.session.edit(file, [{ oldString: 'one', newString: 'two' }]));
    const change = await newest(f);
    f.guard.configure({ deny: ['secret/**'] });
    refused(await f.guard.revert({ changeId: change.id }), 'PATH_DENIED', 'The revert would change it');
    assert.strictEqual(f.text('secret/a.txt'), 'two\n');
    await f.guard.dispose();
    refused(await f.guard.revert({ changeId: change.id }), 'CANCELLED');
  });
});
