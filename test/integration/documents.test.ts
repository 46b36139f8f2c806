import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { api, freshFile, numbered } from './helpers';

async function openEditor(file: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  return vscode.window.showTextDocument(document);
}

async function typeInto(editor: vscode.TextEditor, line: number, text: string): Promise<void> {
  const ok = await editor.edit((builder) => builder.insert(new vscode.Position(line - 1, 0), text));
  assert.ok(ok, 'the test could not type into the editor');
}

suite('open documents are the truth', () => {
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a read of a file with unsaved changes returns the unsaved text', async () => {
    const file = freshFile(numbered(5));
    const editor = await openEditor(file);
    await typeInto(editor, 3, 'UNSAVED ');
    const session = (await api()).openSession();
    const read = await session.read(file);
    assert.ok(read.text?.includes('3\tUNSAVED line 3'), read.text);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(5));
    session.dispose();
  });

  // Files over the core's 8 MiB load limit are streamed: from the buffer too, never from the disk behind it.
  test('a read of a file over 8 MiB with unsaved changes streams the unsaved text', async () => {
    const content = numbered(1_000_000);
    assert.ok(Buffer.byteLength(content) > 8 * 1024 * 1024);
    const file = freshFile(content);
    const editor = await openEditor(file);
    await typeInto(editor, 3, 'UNSAVED ');
    const session = (await api()).openSession();
    const read = await session.read(file, { offset: 1, limit: 5 });
    assert.ok(read.text?.includes('3\tUNSAVED line 3'), read.text);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), content);
    session.dispose();
  });

  test('an edit of a document with unsaved changes goes to the buffer, stays unsaved, and one undo restores it', async () => {
    const file = freshFile(numbered(5));
    const editor = await openEditor(file);
    await typeInto(editor, 1, 'mine ');
    const session = (await api()).openSession();
    await session.read(file);
    const edit = await session.edit(file, [{ oldString: 'line 4', newString: 'agent line 4' }]);
    assert.strictEqual(edit.ok, true, edit.message);
    assert.strictEqual(editor.document.getText(), 'mine ' + numbered(5).replace('line 4', 'agent line 4'));
    assert.strictEqual(editor.document.isDirty, true);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(5), 'the disk must not change while the user has unsaved work');
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), 'mine ' + numbered(5));
    session.dispose();
  });

  test('an edit of an open document without unsaved changes is saved to disk', async () => {
    const file = freshFile(numbered(3));
    const editor = await openEditor(file);
    const session = (await api()).openSession();
    await session.read(file);
    assert.strictEqual((await session.edit(file, [{ oldString: 'line 2', newString: 'two' }])).ok, true);
    assert.strictEqual(editor.document.isDirty, false);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3).replace('line 2', 'two'));
    session.dispose();
  });

  // The buffer of a UTF-8 document is encoded and decoded by the core (editorFileSystem.ts), not by a copy of
  // the BOM handling: the BOM must survive a read of the unsaved text, the edit, and the user's save.
  test('a UTF-8 document with a BOM and unsaved changes keeps its BOM through an edit and the save', async () => {
    const file = freshFile('\ufeff' + numbered(4));
    const editor = await openEditor(file);
    assert.strictEqual(editor.document.encoding, 'utf8bom', 'test premise: VS Code opened the file as UTF-8 with BOM');
    await typeInto(editor, 1, 'mine ');
    const session = (await api()).openSession();
    const read = await session.read(file);
    assert.ok(read.text?.includes('1\tmine line 1'), read.text);
    const edit = await session.edit(file, [{ oldString: 'line 3', newString: 'agent line 3 ✓' }]);
    assert.strictEqual(edit.ok, true, edit.message);
    const expected = 'mine ' + numbered(4).replace('line 3', 'agent line 3 ✓');
    assert.strictEqual(editor.document.getText(), expected);
    assert.ok(await editor.document.save());
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(expected, 'utf8')]));
    session.dispose();
  });

  test('a CRLF document keeps CRLF through an edit', async () => {
    const file = freshFile('one\r\ntwo\r\nthree\r\n');
    await openEditor(file);
    const session = (await api()).openSession();
    await session.read(file);
    assert.strictEqual((await session.edit(file, [{ oldString: 'two', newString: 'TWO\nand more' }])).ok, true);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\r\nTWO\r\nand more\r\nthree\r\n');
    session.dispose();
  });

  test('typing in the editor between read and edit of the same lines is FILE_CHANGED_SINCE_READ', async () => {
    const file = freshFile(numbered(5));
    const editor = await openEditor(file);
    const session = (await api()).openSession();
    await session.read(file);
    await typeInto(editor, 2, 'typed ');
    const edit = await session.edit(file, [{ oldString: 'line 2', newString: 'agent' }]);
    assert.strictEqual(edit.code, 'FILE_CHANGED_SINCE_READ');
    assert.match(edit.message ?? '', /\+typed line 2/);
    assert.match(edit.message ?? '', /changed since you read it \(by someone typing in the editor\)/);
    session.dispose();
  });
});

suite('open documents VS Code decoded differently from disk', () => {
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a Latin-1 file open in the editor keeps its encoding and every other byte through an edit', async () => {
    const original = Buffer.from('caf\u00e9 = 1\nna\u00efve = 2\nend\n', 'latin1');
    const file = freshFile('');
    fs.writeFileSync(file, original);
    await openEditor(file);
    const session = (await api()).openSession();
    await session.read(file);
    const edit = await session.edit(file, [{ oldString: 'end', newString: 'fin' }]);
    assert.strictEqual(edit.ok, true, edit.message);
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('caf\u00e9 = 1\nna\u00efve = 2\nfin\n', 'latin1'));
    session.dispose();
  });

  test('a file with mixed line endings open in the editor keeps each line\u2019s ending', async () => {
    const file = freshFile('a\r\nb\nc\r\n');
    await openEditor(file);
    const session = (await api()).openSession();
    await session.read(file);
    assert.strictEqual((await session.edit(file, [{ oldString: 'b', newString: 'B' }])).ok, true);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'a\r\nB\nc\r\n');
    session.dispose();
  });
});

suite('multi-file changes in the editor', () => {
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a multiEdit over two documents with unsaved changes edits both buffers at once and leaves the disk alone', async () => {
    const a = freshFile(numbered(3));
    const b = freshFile(numbered(3));
    const editorA = await openEditor(a);
    await typeInto(editorA, 1, 'a: ');
    const editorB = await openEditor(b);
    await typeInto(editorB, 1, 'b: ');
    const session = (await api()).openSession();
    await session.read(a);
    await session.read(b);
    const changes = (session as unknown as { multiEdit(c: { uri: string; edits: { oldString: string; newString: string }[] }[]): Promise<{ ok: boolean; message?: string }> }).multiEdit([
      { uri: a, edits: [{ oldString: 'line 3', newString: 'A3' }] },
      { uri: b, edits: [{ oldString: 'line 3', newString: 'B3' }] },
    ]);
    const result = await changes;
    assert.strictEqual(result.ok, true, result.message);
    assert.ok(editorA.document.getText().endsWith('A3\n') && editorB.document.getText().endsWith('B3\n'));
    assert.deepStrictEqual([fs.readFileSync(a, 'utf8'), fs.readFileSync(b, 'utf8')], [numbered(3), numbered(3)]);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.window.showTextDocument(editorA.document);
    session.dispose();
  });
});

suite('files in a configured legacy encoding', () => {
  teardown(async () => {
    await vscode.workspace.getConfiguration('files').update('encoding', undefined, vscode.ConfigurationTarget.Global);
  });

  test('a closed Windows-1252 file reads with its real characters and keeps its bytes through an edit', async () => {
    await vscode.workspace.getConfiguration('files').update('encoding', 'windows1252', vscode.ConfigurationTarget.Global);
    const file = freshFile('');
    fs.writeFileSync(file, Buffer.from('price: \x80 5\nquote: \x93hi\x94\n', 'latin1'));
    const session = (await api()).openSession();
    const read = await session.read(file);
    assert.ok(read.text?.includes('1\tprice: \u20ac 5') && read.text.includes('\u201chi\u201d'), read.text);
    assert.strictEqual((await session.edit(file, [{ oldString: '\u20ac 5', newString: '\u20ac 7' }])).ok, true);
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('price: \x80 7\nquote: \x93hi\x94\n', 'latin1'));
    session.dispose();
  });
});
