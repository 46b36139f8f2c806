import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as harness from './harness';
import { api, freshFile, nextReview as nextRequest, numbered, pendingReviews as pending, REVIEW_HOOK as HOOK, workspaceRoot } from './helpers';

type Outcome = { ok: true; files: number } | { ok: false; code: string; message: string } | undefined;

const settings = () => vscode.workspace.getConfiguration('readgate');
const applyPatch = (args: object) => vscode.commands.executeCommand<Outcome>('readgate.applyPatch', args) as Thenable<Outcome>;

const diffOf = (file: string, ...hunk: string[]) => [`--- a/${path.basename(file)}`, `+++ b/${path.basename(file)}`, ...hunk, ''].join('\n');

suite('apply patch (a palette action through the guard)', () => {
  suiteSetup(async () => {
    await api();
    await settings().update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('from the clipboard into a closed file: reviewed in the panel, applied byte-exactly on approval (screenshot)', async () => {
    const file = freshFile('alpha\r\nbeta\r\ngamma\r\n');
    await vscode.env.clipboard.writeText(diffOf(file, '@@ -1,3 +1,3 @@', ' alpha', '-beta', '+BETA', ' gamma'));
    const outcome = applyPatch({ source: 'clipboard' });
    const request = await nextRequest();
    assert.match(request.sessionLabel, /Apply Patch \(the clipboard\)/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'alpha\r\nbeta\r\ngamma\r\n', 'written before approval');
    if (harness.isAvailable) {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await harness.screenshot('apply-patch-review');
    }
    await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.deepStrictEqual(await outcome, { ok: true, files: 1 });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'alpha\r\nBETA\r\ngamma\r\n');
  });

  test('from an untitled editor holding search/replace blocks, across two files, all together', async () => {
    const first = freshFile(numbered(3));
    const second = freshFile(numbered(3));
    const blocks = [path.basename(first), '<<<<<<< SEARCH', 'line 1', '=======', 'one', '>>>>>>> REPLACE', '', path.basename(second), '<<<<<<< SEARCH', 'line 3', '=======', 'three', '>>>>>>> REPLACE'].join('\n');
    const untitled = await vscode.workspace.openTextDocument({ content: blocks });
    await vscode.window.showTextDocument(untitled);
    const outcome = applyPatch({ source: 'editor' });
    const request = await nextRequest();
    assert.deepStrictEqual(request.files.map((file) => path.basename(file.path)), [path.basename(first), path.basename(second)]);
    await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.deepStrictEqual(await outcome, { ok: true, files: 2 });
    assert.strictEqual(fs.readFileSync(first, 'utf8'), numbered(3).replace('line 1', 'one'));
    assert.strictEqual(fs.readFileSync(second, 'utf8'), numbered(3).replace('line 3', 'three'));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('into a dirty open document: applied to the buffer, undoably, the typing kept and the disk untouched', async () => {
    const file = freshFile(numbered(6));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    await editor.edit((builder) => builder.replace(new vscode.Range(0, 0, 0, 6), 'typed'));
    const outcome = applyPatch({ text: diffOf(file, '@@ -4,3 +4,3 @@', ' line 4', '-line 5', '+five', ' line 6') });
    const request = await nextRequest();
    await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.deepStrictEqual(await outcome, { ok: true, files: 1 });
    assert.strictEqual(editor.document.getText(), numbered(6).replace('line 1', 'typed').replace('line 5', 'five'));
    assert.ok(editor.document.isDirty, 'the document was saved');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(6));
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), numbered(6).replace('line 1', 'typed'), 'undo did not take back the patch alone');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('into a closed Latin-1 file: placed in the text the guard reads, written back in Latin-1 byte for byte', async () => {
    const file = freshFile('');
    fs.writeFileSync(file, Buffer.from('caf\xe9 = 1\nna\xefve = 2\n', 'latin1'));
    const outcome = applyPatch({ text: diffOf(file, '@@ -1,2 +1,2 @@', ' caf\u00e9 = 1', '-na\u00efve = 2', '+na\u00efve = 3') });
    const request = await nextRequest();
    await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.deepStrictEqual(await outcome, { ok: true, files: 1 });
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('caf\xe9 = 1\nna\xefve = 3\n', 'latin1'));
  });

  test('into a clean open document whose editor normalized mixed line endings: placed in the file\'s own lines, each ending kept', async () => {
    const file = freshFile('a\r\nb\nc\r\n');
    const document = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(document);
    assert.notStrictEqual(document.getText(), 'a\r\nb\nc\r\n', 'VS Code kept the mixed line endings; the case this test is about does not arise');
    const outcome = applyPatch({ text: diffOf(file, '@@ -2,2 +2,2 @@', ' b', '-c', '+C') });
    const request = await nextRequest();
    await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.deepStrictEqual(await outcome, { ok: true, files: 1 });
    assert.strictEqual(fs.readFileSync(file, 'latin1'), 'a\r\nb\nC\r\n');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('a stale patch is refused with the lines that differ; nothing is reviewed or written (screenshot)', async () => {
    const file = freshFile(numbered(4).replace('line 3', 'LINE THREE'));
    const outcome = await applyPatch({ text: diffOf(file, '@@ -2,3 +2,3 @@', ' line 2', '-line 3', '+3', ' line 4') });
    assert.ok(outcome && !outcome.ok);
    assert.strictEqual(outcome.code, 'NO_OCCURRENCE_FOUND');
    assert.match(outcome.message, /line 3: the patch expects "line 3", the file has "LINE THREE"/);
    assert.deepStrictEqual(await pending(), []);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(4).replace('line 3', 'LINE THREE'));
    if (harness.isAvailable) {
      // In the notification centre (a toast may already have gone).
      await vscode.commands.executeCommand('notifications.showList');
      await harness.waitFor('the refusal notification', async () => ((await harness.workbenchTexts('.notifications-center')).some((text) => text.includes('did not apply the patch')) ? true : undefined));
      await harness.screenshot('apply-patch-stale');
      await vscode.commands.executeCommand('notifications.hideList');
    }
  });

  // "Show Details" opened an untitled Markdown document: unsaved (closing it asked to save), and untitled
  // documents are named after their first line, so the sample patch's was "a/src/inventory.ts", which Quick Open
  // offered before the real file.
  test('Show Details of a refusal opens a read-only document named for the refusal; nothing untitled is created (screenshot)', async function () {
    if (!harness.isAvailable) this.skip();
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('notifications.clearAll');
    const untitledBefore = vscode.workspace.textDocuments.filter((document) => document.isUntitled).map((document) => document.uri.toString());
    const file = freshFile(numbered(4).replace('line 3', 'LINE THREE'));
    const outcome = await applyPatch({ text: diffOf(file, '@@ -2,3 +2,3 @@', ' line 2', '-line 3', '+3', ' line 4') });
    assert.strictEqual(outcome?.ok === false && outcome.code, 'NO_OCCURRENCE_FOUND');
    await vscode.commands.executeCommand('notifications.showList');
    await harness.click('.notifications-center .notification-list-item:has-text("did not apply the patch") .monaco-button:has-text("Show Details")');
    const { document } = await harness.waitFor('the details', () => (vscode.window.activeTextEditor?.document.uri.scheme === 'readgate-details' ? vscode.window.activeTextEditor : undefined));
    assert.strictEqual(vscode.window.tabGroups.activeTabGroup.activeTab?.label, `ReadGate — patch refused (${path.basename(file)}).md`);
    assert.strictEqual(document.languageId, 'markdown');
    assert.ok(!document.isUntitled && !document.isDirty);
    assert.match(document.getText(), /^# The patch was not applied\n\n\*\*NO_OCCURRENCE_FOUND\*\*/);
    assert.match(document.getText(), /the file has "LINE THREE"/);
    // Read-only: typing into it changes nothing (an untitled document took the keys and became dirty).
    const before = document.getText();
    await vscode.window.showTextDocument(document, { preview: true, preserveFocus: false });
    await vscode.commands.executeCommand('type', { text: 'typed ' });
    assert.strictEqual(document.getText(), before);
    assert.ok(!document.isDirty);
    const untitledNow = vscode.workspace.textDocuments.filter((document) => document.isUntitled).map((document) => document.uri.toString());
    assert.deepStrictEqual(untitledNow.filter((uri) => !untitledBefore.includes(uri)), [], 'an untitled document was created');
    // The same keys do reach an editor that takes them.
    const control = await vscode.workspace.openTextDocument({ content: '' });
    await vscode.window.showTextDocument(control);
    await vscode.commands.executeCommand('type', { text: 'typed ' });
    assert.strictEqual(control.getText(), 'typed ');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.window.showTextDocument(document, { preview: true });
    await vscode.commands.executeCommand('notifications.hideList');
    await harness.screenshot('apply-patch-details');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the walkthrough\'s sample patch opens read-only, named as a sample, and Apply Patch takes it from that editor', async () => {
    const text = await vscode.commands.executeCommand<string>('readgate.openSamplePatch', 'stale');
    assert.match(String(text), /^--- a\/src\/inventory\.ts/);
    const editor = vscode.window.activeTextEditor!;
    assert.strictEqual(editor.document.uri.scheme, 'readgate-details');
    assert.strictEqual(path.posix.basename(editor.document.uri.path), 'ReadGate — sample patch (stale).diff');
    assert.strictEqual(editor.document.languageId, 'diff');
    assert.ok(!editor.document.isUntitled && !editor.document.isDirty);
    // Any details document is a source Apply Patch takes, as an untitled one was.
    const file = freshFile(numbered(3));
    const shown = await vscode.commands.executeCommand<vscode.TextDocument>('readgate.showDetails', { name: 'a patch.diff', content: diffOf(file, '@@ -1,3 +1,3 @@', ' line 1', '-line 2', '+two', ' line 3') });
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.toString(), shown.uri.toString());
    const outcome = applyPatch({ source: 'editor' });
    const request = await nextRequest();
    assert.match(request.sessionLabel, /Apply Patch \(the editor a patch\.diff\)/);
    await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.deepStrictEqual(await outcome, { ok: true, files: 1 });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3).replace('line 2', 'two'));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('your own patch under review says "Your patch" and has focus; rejecting it is a plain cancel: an information message, no file changed (screenshot)', async function () {
    if (!harness.isAvailable) this.skip();
    const typing = freshFile('notes\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(typing)));
    const file = freshFile(numbered(5));
    const outcome = applyPatch({ text: diffOf(file, '@@ -2,3 +2,3 @@', ' line 2', '-line 3', '+three', ' line 4') });
    const request = await nextRequest();
    assert.strictEqual(request.own, true);
    const title = await harness.waitFor('the panel\'s title', async () => (await harness.workbenchTexts(harness.inWebview('#request-title'))).find((text) => text.length > 0));
    assert.strictEqual(title, 'Your patch · Edit a file');
    // The user started this change: the panel takes focus from the editor, and the page puts it on the title.
    const focused = await harness.waitFor('focus on the title', async () => (await harness.workbenchTexts(harness.inWebview('#request-title:focus')))[0]);
    assert.strictEqual(focused, 'Your patch · Edit a file');
    assert.notStrictEqual(vscode.window.activeTextEditor?.document.uri.toString(), editor.document.uri.toString(), 'the editor kept focus');
    assert.match(vscode.window.tabGroups.activeTabGroup.activeTab?.label ?? '', /^ReadGate: Review/);
    const page = (await harness.workbenchTexts(harness.inWebview('main'))).join('\n');
    assert.match(page, /Patch source\s+Apply the patch from the given text \(unified diff\)/i);
    assert.doesNotMatch(page, /agent/i);
    await harness.screenshot('apply-patch-your-patch');

    await harness.click(harness.inWebview('button[data-action="reject"]'));
    const result = await outcome;
    assert.strictEqual(result?.ok === false && result.code, 'REJECTED_BY_USER');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(5), 'the file changed');
    await vscode.commands.executeCommand('notifications.showList');
    const notices = await harness.waitFor('the information message', async () => {
      const texts = await harness.workbenchTexts('.notifications-center');
      return texts.some((text) => text.includes('The patch was not applied: you rejected it in review.')) ? texts.join('\n') : undefined;
    });
    assert.doesNotMatch(notices, /did not apply the patch \(REJECTED_BY_USER\)/, 'shown as an error with a code');
    assert.doesNotMatch(notices, /an agent wants to change/, 'announced as an agent\'s change');
    await vscode.commands.executeCommand('notifications.clearAll');
    await vscode.commands.executeCommand('notifications.hideList');
    // Cancelled: the editor the user came from has focus again, and the panel with nothing left to review is gone.
    await harness.waitFor('focus back in the editor', () => (vscode.window.activeTextEditor?.document.uri.toString() === editor.document.uri.toString() ? true : undefined), 5_000);
    assert.ok(vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputText, 'a text editor is the active tab');
    assert.ok(!vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => /^ReadGate: Review/.test(tab.label))), 'the empty panel stayed open');
  });

  test('after you approve your own patch, the editor it came from has focus again and one undo takes the patch back', async () => {
    const file = freshFile(numbered(5));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
    const outcome = applyPatch({ text: diffOf(file, '@@ -1,3 +1,3 @@', ' line 1', '-line 2', '+two', ' line 3') });
    const request = await nextRequest();
    await harness.waitFor('the panel with focus', () => (vscode.window.activeTextEditor === undefined ? true : undefined), 5_000);
    await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.deepStrictEqual(await outcome, { ok: true, files: 1 });
    await harness.waitFor('focus back in the editor', () => (vscode.window.activeTextEditor?.document.uri.toString() === editor.document.uri.toString() ? true : undefined), 5_000);
    // Ctrl+Z at once, with no click first: the patch is taken back in the buffer.
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), numbered(5));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('text that is not a patch is refused with what a patch looks like', async () => {
    const outcome = await applyPatch({ text: 'hello world' });
    assert.ok(outcome && !outcome.ok && outcome.code === 'INVALID_INPUT');
    assert.match(outcome.message, /neither a unified diff/);
    assert.ok(fs.existsSync(workspaceRoot()));
  });

  test('a patch that renames a module and changes its importer applies whole after one review; the old name is gone', async () => {
    const root = workspaceRoot();
    const folder = path.join(root, `rename-${Date.now()}`);
    fs.mkdirSync(path.join(folder, 'old'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'old', 'mod.py'), 'def f():\n    return 1\n');
    fs.writeFileSync(path.join(folder, 'main.py'), 'from old.mod import f\n');
    const rel = (file: string) => path.relative(root, path.join(folder, file)).split(path.sep).join('/');
    const patch = [
      `diff --git a/${rel('old/mod.py')} b/${rel('new/mod.py')}`, 'similarity index 80%', `rename from ${rel('old/mod.py')}`, `rename to ${rel('new/mod.py')}`, `--- a/${rel('old/mod.py')}`, `+++ b/${rel('new/mod.py')}`, '@@ -1,2 +1,2 @@', ' def f():', '-    return 1', '+    return 2',
      `diff --git a/${rel('main.py')} b/${rel('main.py')}`, `--- a/${rel('main.py')}`, `+++ b/${rel('main.py')}`, '@@ -1 +1 @@', '-from old.mod import f', '+from new.mod import f', '',
    ].join('\n');
    const outcome = applyPatch({ text: patch });
    const request = await nextRequest();
    await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.deepStrictEqual(await outcome, { ok: true, files: 2 });
    assert.ok(!fs.existsSync(path.join(folder, 'old', 'mod.py')));
    assert.strictEqual(fs.readFileSync(path.join(folder, 'new', 'mod.py'), 'utf8'), 'def f():\n    return 2\n');
    assert.strictEqual(fs.readFileSync(path.join(folder, 'main.py'), 'utf8'), 'from new.mod import f\n');
    assert.deepStrictEqual(await pending(), []);
  });
});
