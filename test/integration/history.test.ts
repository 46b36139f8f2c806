/**
 * The change history in a real VS Code: the Agent Changes view lists an agent's change (sessions → change →
 * file), a file opens the diff editor on its past versions, reverts go through the review panel (into an unsaved
 * buffer, with conflicts, a whole session, one file), the log exports, the statistics count lines per agent,
 * and the records outlive the guard that wrote them. "reverted" stays true (undo in an unsaved buffer, a buffer
 * closed without saving, a revert reverted); the view reads at the default side bar width, and a revert's review
 * opens beside the editor at a usable width.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import * as harness from './harness';
import { api, freshFile, nextReview, numbered, pendingReviews, REVIEW_HOOK } from './helpers';
import { activeDiff, agentEdit, type ChangeNode, drawn, namedFile, nodeOf, nodes } from './agentChanges';
import type { DrawnItem } from '../../src/vscode/testing/testHooks';

const repoRoot = path.resolve(__dirname, '../../..');

const send = (message: unknown) => vscode.commands.executeCommand(REVIEW_HOOK, 'message', message);

async function openEditor(file: string): Promise<vscode.TextEditor> {
  return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.file(file)));
}

/** The view's item of a change, found among every session's changes by its label. */
async function changeItem(label: string, options?: { refresh: boolean }): Promise<DrawnItem | undefined> {
  return (await drawn(options)).flatMap((session) => session.children).find((change) => change.label === label);
}

/** Waits until the change labelled `label` is drawn with a description `test` accepts (the view redrawing by itself). */
async function waitForChange(what: string, label: string, test: (description: string) => boolean): Promise<DrawnItem> {
  return harness.waitFor(what, async () => {
    const item = await changeItem(label, { refresh: false });
    return item && test(item.description) ? item : undefined;
  });
}

/** Reverts the change (or revert) of `node` through the view's command and approves its review; the review's explanation. */
async function revertApproved(node: ChangeNode): Promise<string> {
  const revert = vscode.commands.executeCommand<{ ok: boolean; message?: string }>('readgate.revertChange', node);
  const request = await nextReview();
  await send({ type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
  const result = await revert;
  assert.strictEqual(result?.ok, true, result?.message);
  return request.explanation ?? '';
}

const agentChangesRow = (text: string): string => `.pane:has(.pane-header:has-text("Agent Changes")) .monaco-list-row:has-text("${text}")`;
/** The row whose label is exactly `label` (another row's label may contain it). */
const labelledRow = (label: string): string => `.pane:has(.pane-header:has-text("Agent Changes")) .monaco-list-row:has(.label-name :text-is("${label}"))`;

suite('agent changes', () => {
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the tree lists a change made through the extension API: its session, the change with +N −M and time, the file', async () => {
    // Text no language service checks: no problems mark (problemMarks.test.ts has those).
    const file = freshFile(numbered(6), '.txt');
    const agent = await agentEdit('Tree test agent', file, [{ oldString: 'line 4', newString: 'four\nfour and a half' }], 'Spell out line four');
    const session = await harness.waitFor('the session in the tree', async () => (await drawn()).find((item) => item.label === 'Tree test agent'));
    assert.match(session.description, /^API · 1 change · \+2 −1 · \d\d:\d\d$/);
    assert.strictEqual(session.contextValue, 'readgate.historySession');
    const [change] = session.children;
    assert.strictEqual(change.label, 'Spell out line four');
    // Its one file, when, then its lines: a narrow side bar cuts the description from the end.
    assert.match(change.description, new RegExp(`^${path.basename(file).replace(/\./g, '\\.')} · \\d\\d:\\d\\d · \\+2 −1$`));
    assert.deepStrictEqual(change.command, { id: 'readgate.openAgentChange', file: fs.realpathSync(file) }, 'a change of one file opens it in one click');
    // Review is off in these suites: the approval setting let it through, and the tooltip says so.
    assert.match(change.tooltip, /Approved by the approval setting/);
    assert.match(change.tooltip, /readgate_edit|edit/);
    assert.deepStrictEqual(change.children.map((item) => [item.label, item.contextValue]), [[path.basename(file), 'readgate.historyFile']]);
    assert.match(change.children[0].description, /\+2 −1$/);
    if (harness.isAvailable) {
      await vscode.commands.executeCommand('readgate.agentChanges.focus');
      await harness.sidebarWidth();
      await new Promise((resolve) => setTimeout(resolve, 800));
      await harness.screenshot('agent-changes-tree');
    }
    agent.dispose();
  });

  // A tool call without a chat session teaches no ledger anyone hears: the view hears the write instead.
  test('the view hears of a change by itself, also of a tool call without a chat session, gathered with the other such calls', async () => {
    const file = freshFile(numbered(3));
    const read = await vscode.lm.invokeTool('readgate_read', { input: { filePath: file }, toolInvocationToken: undefined });
    const version = /· version ([0-9a-f]{16})/.exec(read.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join(''))?.[1];
    assert.ok(version, 'the read names its version');
    await vscode.lm.invokeTool('readgate_edit', { input: { filePath: file, oldString: 'line 3', newString: 'three', expectedVersion: version, explanation: 'A call of its own' }, toolInvocationToken: undefined });
    const calls = await harness.waitFor('the call in the view, without a refresh', async () =>
      (await drawn({ refresh: false })).find((item) => item.label === 'Tool calls without a chat session' && item.children.some((change) => change.label === 'A call of its own')),
    );
    assert.strictEqual(calls.contextValue, 'readgate.historyCollection');
    assert.match(calls.description, /^chat tools · /);
  });

  test('a file item opens the diff editor on its versions before and after, served read-only from the history', async () => {
    const file = freshFile(numbered(5), '.ts');
    const agent = await agentEdit('Diff test agent', file, [{ oldString: 'line 2', newString: 'two' }], 'Name line two');
    const node = await nodeOf('file', agent.id, file);
    await vscode.commands.executeCommand('readgate.openAgentChange', node);
    const diff = await activeDiff();
    assert.strictEqual(diff.original.scheme, 'readgate-history');
    assert.strictEqual(diff.modified.scheme, 'readgate-history');
    assert.ok(diff.original.path.endsWith(path.basename(file)), 'the tab is named after the file and has its language');
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.original)).getText(), numbered(5));
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.modified)).getText(), numbered(5).replace('line 2', 'two'));
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.original)).languageId, 'typescript');
    if (harness.isAvailable) {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await harness.screenshot('agent-change-diff');
    }
    // A created file is compared with nothing.
    const created = path.join(path.dirname(file), `created-${path.basename(file)}`);
    const creation = await agent.write(created, 'fresh\n', { explanation: 'Create a file' });
    assert.strictEqual(creation.ok, true, creation.message);
    await vscode.commands.executeCommand('readgate.openAgentChange', await nodeOf('file', agent.id, created));
    const createdDiff = await harness.waitFor('the diff of the created file', async () => {
      const input = await activeDiff();
      return input.modified.path.endsWith(path.basename(created)) ? input : undefined;
    });
    assert.strictEqual((await vscode.workspace.openTextDocument(createdDiff.original)).getText(), '');
    assert.strictEqual((await vscode.workspace.openTextDocument(createdDiff.modified)).getText(), 'fresh\n');
    agent.dispose();
  });

  test('a revert into a document with unsaved changes edits the buffer, leaves it unsaved, and one undo restores it', async () => {
    const file = freshFile(numbered(5));
    const agent = await agentEdit('Dirty buffer agent', file, [{ oldString: 'line 4', newString: 'agent line 4' }], 'Change line four');
    const afterAgent = numbered(5).replace('line 4', 'agent line 4');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), afterAgent);
    const editor = await openEditor(file);
    assert.ok(await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), 'mine ')));
    const revert = vscode.commands.executeCommand<{ ok: boolean; message?: string }>('readgate.revertChange', await nodeOf('change', agent.id));
    const request = await nextReview();
    assert.strictEqual(request.own, true, 'a revert is the user’s own change');
    await send({ type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    const result = await revert;
    assert.strictEqual(result?.ok, true, result?.message);
    assert.strictEqual(editor.document.getText(), 'mine ' + numbered(5));
    assert.strictEqual(editor.document.isDirty, true, 'the buffer stays unsaved');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), afterAgent, 'the disk must not change while the user has unsaved work');
    const reverted = (description: string): boolean => /^reverted · /.test(description);
    await waitForChange('"reverted" on the change', 'Change line four', reverted);
    // The review panel had focus (the revert is the user's own); back in the editor, one undo takes the revert back.
    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    await vscode.commands.executeCommand('undo');
    assert.strictEqual(editor.document.getText(), 'mine ' + afterAgent);
    // The view hears the undo by itself: the change is not reverted any more, and the revert says it was undone.
    await waitForChange('no "reverted" after the undo', 'Change line four', (description) => !description.includes('reverted'));
    await waitForChange('the revert undone', 'Revert “Change line four”', (description) => description.startsWith('undone · '));
    await vscode.commands.executeCommand('redo');
    await waitForChange('"reverted" again after the redo', 'Change line four', reverted);
    // Closed without saving, the revert never reached the disk: the disk holds the agent's change.
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), afterAgent);
    await waitForChange('no "reverted" once the buffer is closed unsaved', 'Change line four', (description) => !description.includes('reverted'));
    assert.match((await changeItem('Revert “Change line four”'))?.description ?? '', /^undone · /);
    agent.dispose();
  });

  test('a revert of a revert is named by the change it restores; the change is no longer "reverted", the revert is', async () => {
    // The panel's page is found as the first webview: no other (a Markdown preview an earlier suite opened) before it.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const file = namedFile('pricing.txt', numbered(4));
    const agent = await agentEdit('Restore agent', file, [{ oldString: 'line 2', newString: 'price 2' }], 'Raise the price');
    const first = await revertApproved(await nodeOf('change', agent.id));
    assert.match(first, /^Revert “Raise the price”\nThe change Restore agent made at \d\d:\d\d to pricing\.txt$/);
    await waitForChange('"reverted" on the change', 'Raise the price', (description) => description.startsWith('reverted · '));
    const [change] = (await nodes()).filter((node) => node.kind === 'change' && node.record?.sessionId === agent.id);
    const revertNode = await harness.waitFor('the revert in the view', async () => (await nodes()).find((node) => node.kind === 'change' && node.record?.revertOf === change.record?.id));
    const second = vscode.commands.executeCommand<{ ok: boolean; message?: string }>('readgate.revertChange', revertNode);
    const request = await nextReview();
    assert.match(request.explanation ?? '', /^Restore “Raise the price”\nUndoes the revert of \d\d:\d\d: brings back the change Restore agent made at \d\d:\d\d to pricing\.txt$/);
    if (harness.isAvailable) {
      await harness.waitFor('the panel\'s title', async () => (await harness.workbenchTexts(harness.inWebview('#request-title'))).find((text) => text === 'Your revert'));
      await new Promise((resolve) => setTimeout(resolve, 500));
      await harness.screenshot('revert-of-revert-review');
    }
    await send({ type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.strictEqual((await second)?.ok, true);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(4).replace('line 2', 'price 2'));
    await waitForChange('no "reverted" on the restored change', 'Raise the price', (description) => !description.includes('reverted'));
    await waitForChange('"reverted" on the revert', 'Revert “Raise the price”', (description) => description.startsWith('reverted · '));
    assert.ok(await changeItem('Restore “Raise the price”'), 'the restore is named by what it restores');
    agent.dispose();
  });

  test('a revert over lines changed since: the panel shows the conflict with both sides; only "Take the Merged Parts" applies the rest', async () => {
    const file = namedFile('stock.txt', numbered(12));
    const agent = await agentEdit('Conflict agent', file, [
      { oldString: 'line 2\n', newString: 'agent two\n' },
      { oldString: 'line 10\n', newString: 'agent ten\n' },
    ], 'Rename lines two and ten');
    const change = await nodeOf('change', agent.id);
    // Someone else changes line 2 again.
    const other = (await api()).openSession({ label: 'Another agent' });
    await other.read(file);
    assert.strictEqual((await other.edit(file, [{ oldString: 'agent two\n', newString: 'other two\n' }])).ok, true);
    const revert = vscode.commands.executeCommand<{ ok: boolean; message?: string }>('readgate.revertChange', change);
    const request = (await nextReview()) as Awaited<ReturnType<typeof nextReview>> & { conflicts?: { displayPath: string; reason: string; ranges: { where: string; now: string[]; wanted?: string[] }[] }[]; revert?: boolean };
    assert.strictEqual(request.revert, true);
    assert.deepStrictEqual(request.conflicts?.map((c) => [c.displayPath, c.reason, c.ranges.map((r) => [r.where, r.now, r.wanted])]), [
      [vscode.workspace.asRelativePath(file), 'lines', [['Line 2', ['other two'], ['line 2']]]],
    ]);
    if (harness.isAvailable) {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await harness.screenshot('revert-conflict-review');
    }
    // A plain approval does not take the merged parts: nothing is written, the request still waits.
    await send({ type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.strictEqual((await pendingReviews()).some((pending) => pending.id === request.id), true);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(12).replace('line 2\n', 'other two\n').replace('line 10\n', 'agent ten\n'));
    await send({ type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {}, takeMerged: true });
    const result = await revert;
    assert.strictEqual(result?.ok, true, result?.message);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(12).replace('line 2\n', 'other two\n'), 'line 10 reverted, line 2 kept as it is now');
    // Line 2 was kept as it was: the change is reverted only in part, and says so.
    await waitForChange('"partly reverted"', 'Rename lines two and ten', (description) => description.startsWith('partly reverted · '));
    other.dispose();
    agent.dispose();
  });

  test('Revert Everything This Session Did undoes all its changes, newest first, as one reviewed change', async () => {
    const first = freshFile(numbered(4));
    const second = freshFile(numbered(4));
    const agent = await agentEdit('Session revert agent', first, [{ oldString: 'line 1', newString: 'one' }], 'First change');
    await agentEdit('', first, [{ oldString: 'line 3', newString: 'three' }], 'Second change', agent);
    await agentEdit('', second, [{ oldString: 'line 2', newString: 'two' }], 'Third change', agent);
    const revert = vscode.commands.executeCommand<{ ok: boolean; message?: string }>('readgate.revertSession', await nodeOf('session', agent.id));
    const request = await nextReview();
    assert.deepStrictEqual(request.files.map((f) => f.path).sort(), [first, second].sort());
    await send({ type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.strictEqual((await revert)?.ok, true);
    assert.strictEqual(fs.readFileSync(first, 'utf8'), numbered(4));
    assert.strictEqual(fs.readFileSync(second, 'utf8'), numbered(4));
    // The revert is on record too, as the user's own.
    const tree = await harness.waitFor('the revert in the tree', async () => (await drawn()).find((item) => item.label === 'Your reverts' && item.children.some((c) => c.label === 'Revert Session revert agent’s session')));
    assert.match(tree.description, /^you · \d+ changes? · /);
    assert.strictEqual(tree.contextValue, 'readgate.historyCollection', 'no session revert for the gathered reverts');
    agent.dispose();
  });

  test('Revert This File to Before the Session undoes the session’s changes to that file only', async () => {
    const kept = freshFile(numbered(4));
    const reverted = freshFile(numbered(4));
    const agent = await agentEdit('File revert agent', reverted, [{ oldString: 'line 1', newString: 'one' }], 'First');
    await agent.read(kept);
    assert.strictEqual((await agent.multiEdit([
      { uri: reverted, edits: [{ oldString: 'line 4', newString: 'four' }] },
      { uri: kept, edits: [{ oldString: 'line 2', newString: 'two' }] },
    ], { explanation: 'Both files' })).ok, true);
    const revert = vscode.commands.executeCommand<{ ok: boolean; message?: string }>('readgate.revertFileToSessionStart', await nodeOf('file', agent.id, reverted));
    const request = await nextReview();
    assert.deepStrictEqual(request.files.map((f) => f.path), [reverted]);
    await send({ type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.strictEqual((await revert)?.ok, true);
    assert.strictEqual(fs.readFileSync(reverted, 'utf8'), numbered(4));
    assert.strictEqual(fs.readFileSync(kept, 'utf8'), numbered(4).replace('line 2', 'two'));
    agent.dispose();
  });

  test('Export Agent Change Log writes JSON Lines, mode 0600, with the files’ contents when asked', async () => {
    const file = freshFile('alpha\n');
    const agent = await agentEdit('Export agent', file, [{ oldString: 'alpha', newString: 'beta' }], 'Export me');
    const target = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'rg-export-')), 'changes.jsonl');
    const count = await vscode.commands.executeCommand<number>('readgate.exportChangeLog', { uri: vscode.Uri.file(target), contents: true });
    const lines = fs.readFileSync(target, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { sessionId: string; files: { before: string; after: string }[]; contents: Record<string, string> });
    assert.strictEqual(lines.length, count);
    const mine = lines.find((line) => line.sessionId === agent.id);
    assert.ok(mine, 'the change is in the log');
    assert.strictEqual(Buffer.from(mine.contents[mine.files[0].before], 'base64').toString(), 'alpha\n');
    assert.strictEqual(Buffer.from(mine.contents[mine.files[0].after], 'base64').toString(), 'beta\n');
    assert.strictEqual(fs.statSync(target).mode & 0o777, 0o600);
    agent.dispose();
  });

  test('Show Agent Changes of This File picks among the file’s changes and opens the one picked', async () => {
    const file = freshFile(numbered(3));
    const agent = await agentEdit('Picker agent', file, [{ oldString: 'line 1', newString: 'one' }], 'Older');
    await agentEdit('', file, [{ oldString: 'line 3', newString: 'three' }], 'Newer', agent);
    const shown = vscode.commands.executeCommand<string>('readgate.showFileChanges', vscode.Uri.file(file));
    await new Promise((resolve) => setTimeout(resolve, 600));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.ok(await shown, 'a change was picked');
    const diff = await activeDiff();
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.modified)).getText(), numbered(3).replace('line 1', 'one').replace('line 3', 'three'), 'the newest change comes first');
    // From a file of the Agent Changes view, the same pick: every change on record of that file.
    const node = await nodeOf('file', agent.id, fs.realpathSync(file));
    const fromView = vscode.commands.executeCommand<string>('readgate.showFileChanges', node);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    assert.strictEqual(await fromView, await shown, 'the newest change of the file, picked from the view\'s item');
    agent.dispose();
  });

  test('the statistics count lines added and removed per agent from the history', async () => {
    const file = freshFile(numbered(3));
    const agent = await agentEdit('Statistics agent', file, [{ oldString: 'line 2', newString: 'two\nmore' }], 'Count me');
    const statistics = (await vscode.commands.executeCommand<string>('readgate.showStatistics')) ?? '';
    assert.match(statistics, /## Lines changed per agent/);
    // A text file: no language service reports on it, so no problems either way.
    assert.match(statistics, /\| Statistics agent \| API \| 1 \| 2 \| 1 \| 0 \| 0 \| \d\d:\d\d \|/);
    agent.dispose();
  });

  // A real window reload would end this test run (the extension host restarts), so a second guard of the
  // headless library opens the same storage, as the extension does after a reload.
  // The second window runIntegration.mjs opens on this workspace (reload.history.test.ts) finds this change.
  test('before a reload: an agent changes a file, and the test notes which change and file for the next window', async () => {
    const file = namedFile('reloaded.txt', 'before the reload\nkept line\n');
    const agent = await agentEdit('Agent before the reload', file, [{ oldString: 'before the reload', newString: 'changed before the reload' }], 'Change it before the reload');
    const [record] = await (await api()).history({ sessionId: agent.id });
    assert.ok(record, 'the change is on record');
    fs.writeFileSync(path.join(process.env.READGATE_TEST_OUT ?? os.tmpdir(), 'before-reload.json'), JSON.stringify({ changeId: record.id, sessionId: agent.id, file }));
    agent.dispose();
  });

  test('the records outlive the guard that wrote them: a second guard on the same storage lists them; files are 0600', async () => {
    const file = freshFile('kept\n');
    const agent = await agentEdit('Persistent agent', file, [{ oldString: 'kept', newString: 'changed' }], 'Remember me');
    const folder = await vscode.commands.executeCommand<string>('readgate._test.historyFolder');
    assert.ok(folder, 'the extension keeps a history');
    const [record] = await harness.waitFor('the record in the tree', async () => {
      const found = (await nodes()).filter((node) => node.kind === 'change' && node.record?.sessionId === agent.id);
      return found.length ? found : undefined;
    });
    const core = require(path.join(repoRoot, 'dist/core.js')) as typeof import('../../src/core/index');
    const second = core.createGuard({ roots: [path.dirname(file)], history: { dir: folder } });
    try {
      const listed = await second.history({ sessionId: agent.id });
      assert.deepStrictEqual(listed.map((r) => [r.id, r.label, r.surface, r.explanation]), [[record.record?.id, 'Persistent agent', 'api', 'Remember me']]);
    } finally {
      await second.dispose();
    }
    const modes = fs.readdirSync(path.join(folder, 'records')).map((name) => fs.statSync(path.join(folder, 'records', name)).mode & 0o777);
    assert.ok(modes.length > 0 && modes.every((mode) => mode === 0o600), `record modes: ${modes.map((m) => m.toString(8)).join(', ')}`);
    agent.dispose();
  });

  test('at the default side bar width a revert reads by what it reverts (whose and when in its tooltip), and a change of one file opens in one click', async function () {
    if (!harness.isAvailable) this.skip();
    const file = namedFile('orders.txt', numbered(6));
    const agent = await agentEdit('Narrow agent', file, [{ oldString: 'line 3', newString: 'three' }], 'Spell three');
    await revertApproved(await nodeOf('change', agent.id));
    const revert = await harness.waitFor('the revert in the view', () => changeItem('Revert “Spell three”'));
    // The tooltip is Markdown: its punctuation comes escaped.
    assert.match(revert.tooltip, /The change Narrow agent made at \d\d\\?:\d\d to orders\\?\.txt/);
    assert.match(revert.description, /^orders\.txt · \d\d:\d\d · \+1 −1$/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('readgate.agentChanges.focus');
    await harness.sidebarWidth();
    await vscode.commands.executeCommand('workbench.actions.treeView.readgate.agentChanges.collapseAll');
    await harness.click(agentChangesRow('Your reverts'));
    await harness.click(agentChangesRow('Narrow agent'));
    // The whole label is drawn: its right end is inside the row, not cut off by an ellipsis.
    const label = await harness.waitFor('the revert\'s row', () => harness.boxOf(`${labelledRow('Revert “Spell three”')} .label-name`));
    const row = await harness.boxOf(labelledRow('Revert “Spell three”'));
    assert.ok(row && label.x + label.width <= row.x + row.width, `the label ends at ${label.x + label.width}, the row at ${row && row.x + row.width}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await harness.screenshot('agent-changes-default-width');
    await harness.click(labelledRow('Spell three'));
    const diff = await activeDiff();
    assert.ok(diff.modified.path.endsWith('orders.txt'), diff.modified.toString());
    // The agent's change, not the revert's: its after is the agent's text.
    assert.strictEqual((await vscode.workspace.openTextDocument(diff.modified)).getText(), numbered(6).replace('line 3', 'three'));
    await new Promise((resolve) => setTimeout(resolve, 800));
    await harness.screenshot('agent-changes-default-width-opened');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    agent.dispose();
  });

  test('a revert from Agent Changes opens its review beside the editor at a usable width, where its diff lines do not wrap', async () => {
    // 60 columns: more than half the editor area leaves room for, well inside a usable width.
    const long = (n: number): string => `line ${n}: const limit = computeLimit(items, warehouse, season);\n`;
    const file = namedFile('restock.txt', Array.from({ length: 8 }, (_, i) => long(i + 1)).join(''));
    const agent = await agentEdit('Wide review agent', file, [{ oldString: 'line 4: const', newString: 'line 4: let' }], 'Make line four mutable');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // The window a new user has: the default side bar and no secondary side bar (earlier suites widen it).
    if (harness.isAvailable) {
      await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
      await harness.sidebarWidth();
    }
    await openEditor(file);
    const revert = vscode.commands.executeCommand<{ ok: boolean; message?: string }>('readgate.revertChange', await nodeOf('change', agent.id));
    const request = await nextReview();
    try {
      // Side by side with the editor: the panel's group has a usable width (VS Code alone splits the group in half).
      const sizes = await harness.waitFor('the panel beside the editor at a usable width', async () => {
        const layout = await vscode.commands.executeCommand<{ groups: { size?: number }[] }>('vscode.getEditorLayout');
        const widths = layout.groups.map((group) => group.size ?? 0);
        return widths.length === 2 && widths[1] >= 700 ? widths : undefined;
      });
      assert.ok(sizes[0] >= 250, `the editor keeps ${sizes[0]} px`);
      if (harness.isAvailable) {
        const cell = await harness.waitFor('a diff line in the panel', () => harness.boxOf(harness.inWebview('.code:has-text("line 4: const limit")')));
        assert.ok(cell.height < 30, `the line is drawn ${cell.height} px high: it wraps`);
        await new Promise((resolve) => setTimeout(resolve, 800));
        await harness.screenshot('revert-review-beside');
      }
    } finally {
      // Decided whatever happened above: a review left waiting would hold up every later suite.
      await send({ type: 'reject', id: request.id });
    }
    assert.strictEqual((await revert)?.ok, false);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    agent.dispose();
  });
});
