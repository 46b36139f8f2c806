import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { api, freshFile, numbered } from './helpers';

suite('invalidation from outside the editor', () => {
  test('an external write makes check() stale before any edit, and the refusal names another process', async () => {
    const session = (await api()).openSession();
    const file = freshFile(numbered(6));
    // A watcher of our own tells when VS Code has delivered the change event (to ReadGate's watcher too). Watchers
    // start asynchronously: give it a moment before the write it must see.
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
    const delivered = new Promise<boolean>((resolve) => watcher.onDidChange(() => resolve(true)));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await session.read(file);
    fs.writeFileSync(file, numbered(6).replace('line 3', 'line three'));
    assert.strictEqual(await session.check(file), 'stale');
    const seen = await Promise.race([delivered, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
    watcher.dispose();
    assert.ok(seen, 'VS Code never reported the external write');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const edit = await session.edit(file, [{ oldString: 'line 3', newString: 'x' }]);
    assert.strictEqual(edit.code, 'FILE_CHANGED_SINCE_READ');
    assert.match(edit.message ?? '', /changed since you read it \(outside ReadGate\)/);
    session.dispose();
  });

  test('an external write to a file open in the editor (VS Code reloads it) names outside ReadGate, not typing', async () => {
    const session = (await api()).openSession();
    const file = freshFile(numbered(6));
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
    await vscode.window.showTextDocument(document);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // watchers start asynchronously
    await session.read(file);
    fs.writeFileSync(file, numbered(6).replace('line 4', 'line four'));
    for (let i = 0; i < 200 && !document.getText().includes('line four'); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.ok(document.getText().includes('line four'), 'VS Code never reloaded the document');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const edit = await session.edit(file, [{ oldString: 'line 4', newString: 'x' }]);
    assert.strictEqual(edit.code, 'FILE_CHANGED_SINCE_READ');
    assert.match(edit.message ?? '', /changed since you read it \(outside ReadGate\)/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    session.dispose();
  });

  test('a read file that is deleted is refused, not re-created', async () => {
    const session = (await api()).openSession();
    const file = freshFile(numbered(3));
    await session.read(file);
    await vscode.workspace.fs.delete(vscode.Uri.file(file));
    const edit = await session.edit(file, [{ oldString: 'line 1', newString: 'x' }]);
    assert.strictEqual(edit.code, 'FILE_CHANGED_SINCE_READ');
    assert.strictEqual(fs.existsSync(file), false);
    session.dispose();
  });

  test('a read file renamed in the workbench: the old name is refused and the source is the rename', async () => {
    const session = (await api()).openSession();
    const file = freshFile(numbered(3));
    await session.read(file);
    const renamed = path.join(path.dirname(file), `renamed-${path.basename(file)}`);
    const rename = new vscode.WorkspaceEdit();
    rename.renameFile(vscode.Uri.file(file), vscode.Uri.file(renamed));
    assert.ok(await vscode.workspace.applyEdit(rename));
    const edit = await session.edit(file, [{ oldString: 'line 1', newString: 'x' }]);
    assert.strictEqual(edit.code, 'FILE_CHANGED_SINCE_READ');
    assert.match(edit.message ?? '', /renamed to/);
    // Same file under its new name (same inode): what the session saw still counts.
    assert.strictEqual((await session.edit(renamed, [{ oldString: 'line 1', newString: 'one' }])).ok, true);
    session.dispose();
  });
});
