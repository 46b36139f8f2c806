import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { api, freshFile, nextReview, numbered, REVIEW_HOOK } from './helpers';

suite('extension API', () => {
  test('explicit sessions are isolated: one session\u2019s read does not let another edit', async () => {
    const readGate = await api();
    const a = readGate.openSession({ label: 'first' });
    const b = readGate.openSession({ label: 'second' });
    assert.notStrictEqual(a.id, b.id);
    const file = freshFile(numbered(5));
    const read = await a.read(vscode.Uri.file(file));
    assert.strictEqual(read.ok, true);
    assert.strictEqual((await b.edit(file, [{ oldString: 'line 1', newString: 'one' }])).code, 'EDIT_REQUIRES_PRIOR_READ');
    assert.strictEqual((await a.edit(vscode.Uri.file(file), [{ oldString: 'line 1', newString: 'one' }])).ok, true);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(5).replace('line 1', 'one'));
    a.dispose();
    b.dispose();
  });

  test('multiEdit takes an expectedVersion per file: a version read elsewhere authorizes exactly that version', async () => {
    const readGate = await api();
    const reader = readGate.openSession();
    const writer = readGate.openSession();
    const file = freshFile(numbered(3));
    const read = await reader.read(file);
    const change = (expectedVersion?: string) => writer.multiEdit([{ uri: vscode.Uri.file(file), edits: [{ oldString: 'line 2', newString: 'two' }], expectedVersion }]);
    assert.strictEqual((await change()).code, 'EDIT_REQUIRES_PRIOR_READ');
    assert.strictEqual((await change(read.version)).ok, true);
    assert.strictEqual((await change(read.version)).code, 'FILE_CHANGED_SINCE_READ');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3).replace('line 2', 'two'));
    reader.dispose();
    writer.dispose();
  });

  test('a repeated read in an explicit session returns the placeholder; check() reports fresh and stale', async () => {
    const readGate = await api();
    const session = readGate.openSession();
    const file = freshFile(numbered(5));
    await session.read(file);
    const again = await session.read(file);
    assert.strictEqual(again.kind, 'unchanged');
    assert.strictEqual(await session.check(file), 'fresh');
    fs.writeFileSync(file, 'changed\n');
    assert.strictEqual(await session.check(file), 'stale');
    session.dispose();
  });

  test('onDidChangeLedger reports the session and the file', async () => {
    const readGate = await api();
    const session = readGate.openSession({ id: 'ledger-events' });
    const file = freshFile(numbered(2));
    const seen = new Promise<{ sessionId: string; uri: vscode.Uri }>((resolve) => {
      const subscription = readGate.onDidChangeLedger((event) => {
        if (event.sessionId === 'ledger-events') {
          subscription.dispose();
          resolve(event);
        }
      });
    });
    await session.read(file);
    const event = await seen;
    assert.strictEqual(event.uri.fsPath, file);
    session.dispose();
  });

  test('persistToolResult saves an oversized result (mode 0600) behind a stub that readgate reads back', async () => {
    const readGate = await api();
    const text = Array.from({ length: 3000 }, (_, i) => `result line ${i}`).join('\n');
    const saved = await readGate.persistToolResult({ sessionId: 's', callId: '../../call-42', toolName: 'search', text });
    assert.strictEqual(saved.persisted, true);
    assert.ok(saved.uri && saved.uri.fsPath.endsWith('/tool-results/call-42.txt'), saved.uri?.fsPath);
    assert.strictEqual(fs.statSync(saved.uri.fsPath).mode & 0o777, 0o600);
    assert.ok(saved.text.startsWith('<persisted-output') && saved.text.length < 3000);
    const session = readGate.openSession();
    const back = await session.read(saved.uri, { offset: 2999, limit: 2 });
    assert.ok(back.text?.includes('2999\tresult line 2998'), back.text);
    const short = await readGate.persistToolResult({ sessionId: 's', callId: 'c2', toolName: 'search', text: 'small' });
    assert.deepStrictEqual(short, { text: 'small', persisted: false });
    session.dispose();
  });

  test('a disposed session refuses with CANCELLED', async () => {
    const session = (await api()).openSession();
    session.dispose();
    assert.strictEqual((await session.read(freshFile('x\n'))).code, 'CANCELLED');
  });

  test('a URI of another scheme outside the roots is PATH_DENIED, named as the URI', async () => {
    const session = (await api()).openSession();
    const result = await session.read(vscode.Uri.parse('untitled:Untitled-1'));
    assert.strictEqual(result.code, 'PATH_DENIED');
    assert.match(result.message ?? '', /untitled:\/?Untitled-1 is outside the allowed roots/);
    session.dispose();
  });

  test('delete and rename: a closed file on disk; an open document with unsaved text is never deleted, a saved one is deleted by the editor, which closes it', async () => {
    const readGate = await api();
    const session = readGate.openSession({ label: 'file mover' });
    const closed = freshFile(numbered(3));
    assert.strictEqual((await session.read(closed)).ok, true);
    const moved = `${closed}.moved`;
    const renamed = await session.rename(closed, vscode.Uri.file(moved));
    assert.ok(renamed.ok, JSON.stringify(renamed));
    assert.ok(!fs.existsSync(closed));
    assert.strictEqual(fs.readFileSync(moved, 'utf8'), numbered(3));
    assert.strictEqual((await session.delete(moved)).ok, true);
    assert.ok(!fs.existsSync(moved));

    // An open document with unsaved text is never deleted: that text exists nowhere else.
    const open = freshFile(numbered(2));
    const document = await vscode.workspace.openTextDocument(open);
    const editor = await vscode.window.showTextDocument(document);
    await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'unsaved\n'));
    assert.ok(document.isDirty);
    assert.strictEqual((await session.read(open)).ok, true);
    const refused = await session.multiEdit([{ uri: open, delete: true }]);
    assert.strictEqual(refused.code, 'WRITE_FAILED', JSON.stringify(refused));
    assert.match(refused.message ?? '', /unsaved changes/);
    assert.ok(fs.existsSync(open) && document.isDirty);
    // Saved, it is deleted by the editor (its editor closes) in one undo step.
    await document.save();
    assert.strictEqual((await session.read(open)).ok, true);
    const deleted = await session.delete(open);
    assert.ok(deleted.ok, JSON.stringify(deleted));
    assert.ok(!fs.existsSync(open));
    for (let i = 0; i < 30 && vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => (tab.input as { uri?: vscode.Uri })?.uri?.fsPath === open)); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.ok(!vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => (tab.input as { uri?: vscode.Uri })?.uri?.fsPath === open)), 'its editor closed');
    session.dispose();
  });

  test('history lists the changes of every session, newest first, by session or file (a Uri too)', async () => {
    const readGate = await api();
    const agent = readGate.openSession({ label: 'History API agent' });
    const file = freshFile(numbered(4));
    await agent.read(file);
    assert.strictEqual((await agent.edit(file, [{ oldString: 'line 1', newString: 'one' }], { explanation: 'first' })).ok, true);
    assert.strictEqual((await agent.edit(file, [{ oldString: 'line 3', newString: 'three' }], { explanation: 'second' })).ok, true);
    const bySession = await readGate.history({ sessionId: agent.id });
    assert.deepStrictEqual(bySession.map((record) => [record.explanation, record.label, record.surface, record.tool, record.files.map((f) => [f.path, f.kind])]), [
      ['second', 'History API agent', 'api', 'edit', [[fs.realpathSync(file), 'edit']]],
      ['first', 'History API agent', 'api', 'edit', [[fs.realpathSync(file), 'edit']]],
    ]);
    assert.deepStrictEqual((await readGate.history({ path: vscode.Uri.file(file) })).map((record) => record.id), bySession.map((record) => record.id));
    assert.ok((await readGate.history()).length >= 2);
    agent.dispose();
  });

  test('revert goes to review as an extension\'s (not the user\'s own), keeps a later edit elsewhere, and is recorded with revertOf', async () => {
    const readGate = await api();
    const agent = readGate.openSession({ label: 'Reverted agent' });
    const file = freshFile(numbered(6));
    await agent.read(file);
    assert.strictEqual((await agent.edit(file, [{ oldString: 'line 2', newString: 'agent two' }])).ok, true);
    fs.writeFileSync(file, numbered(6).replace('line 2', 'agent two').replace('line 5', 'user five'));
    const [change] = await readGate.history({ sessionId: agent.id });
    const revert = readGate.revert({ changeId: change.id }, { explanation: 'Undo the rename of line two' });
    const request = (await nextReview()) as Awaited<ReturnType<typeof nextReview>> & { revert?: boolean };
    assert.strictEqual(request.revert, true, 'a revert is always reviewed');
    assert.notStrictEqual(request.own, true, 'an extension\'s revert is not presented as the user\'s own');
    assert.strictEqual(request.sessionLabel, 'an extension');
    assert.strictEqual(request.explanation, 'Undo the rename of line two');
    await vscode.commands.executeCommand(REVIEW_HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    const result = await revert;
    assert.strictEqual(result.ok, true, result.message);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(6).replace('line 5', 'user five'));
    const [recorded] = await readGate.history({ path: file });
    assert.deepStrictEqual([recorded.revertOf, recorded.surface, recorded.sessionId.startsWith('api:'), recorded.approvedBy], [change.id, 'api', true, 'user']);
    const unknown = await readGate.revert({ changeId: 'no-such-change' });
    assert.strictEqual(unknown.code, 'INVALID_INPUT', unknown.message);
    agent.dispose();
  });
});
