import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, autoApprove, numbered } from './helpers';
import { MemoryFileSystem } from './memoryFileSystem';

const SCHEME = 'rgmem';

suite('files of virtual workspaces (other URI schemes)', () => {
  let registration: vscode.Disposable;
  // Files under an extra root are outside the workspace folders: their changes are always reviewed.
  let approvals: ReturnType<typeof autoApprove>;

  suiteSetup(async () => {
    approvals = autoApprove();
    registration = vscode.workspace.registerFileSystemProvider(SCHEME, new MemoryFileSystem(), { isCaseSensitive: true });
    await vscode.workspace.getConfiguration('readgate').update('paths.extraRoots', [`${SCHEME}:/`], vscode.ConfigurationTarget.Global);
  });

  suiteTeardown(async () => {
    approvals.dispose();
    await vscode.workspace.getConfiguration('readgate').update('paths.extraRoots', undefined, vscode.ConfigurationTarget.Global);
    registration.dispose();
  });

  test('are read and edited through workspace.fs, guarded the same way, and named by their URIs', async () => {
    const uri = vscode.Uri.from({ scheme: SCHEME, path: '/notes.txt' });
    await vscode.workspace.fs.writeFile(uri, Buffer.from(numbered(5)));
    const session = (await api()).openSession();
    assert.strictEqual((await session.edit(uri, [{ oldString: 'line 2', newString: 'two' }])).code, 'EDIT_REQUIRES_PRIOR_READ');
    const read = await session.read(uri);
    assert.strictEqual(read.ok, true, read.message);
    assert.ok(read.text?.startsWith(`${SCHEME}:/notes.txt · lines 1-5 of 5`), read.text);
    const reviewed = approvals.approved;
    const edit = await session.edit(uri, [{ oldString: 'line 2', newString: 'two' }]);
    assert.strictEqual(edit.ok, true, edit.message);
    assert.strictEqual(approvals.approved, reviewed + 1, 'a change outside the workspace folders was not reviewed');
    assert.ok(!edit.text?.includes('.readgate-uri'), edit.text);
    assert.strictEqual(Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'), numbered(5).replace('line 2', 'two'));
    // A change by someone else in the lines the session saw is caught by content, as for local files.
    await vscode.workspace.fs.writeFile(uri, Buffer.from(numbered(5).replace('line 2', 'TWO')));
    assert.strictEqual(await session.check(uri), 'stale');
    assert.strictEqual((await session.edit(uri, [{ oldString: 'two', newString: '2' }])).code, 'FILE_CHANGED_SINCE_READ');
    session.dispose();
  });

  test('a string URI works the same way, and creates new files', async () => {
    const session = (await api()).openSession();
    const created = await session.write(`${SCHEME}:/new/created.txt`, 'hello\n');
    assert.strictEqual(created.ok, true, created.message);
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.parse(`${SCHEME}:/new/created.txt`));
    assert.strictEqual(Buffer.from(bytes).toString('utf8'), 'hello\n');
    session.dispose();
  });
});
