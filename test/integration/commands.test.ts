import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as harness from './harness';
import { api, freshFile, numbered } from './helpers';

suite('commands and the sessions view', () => {
  test('every command is contributed with the ReadGate category and registered', async () => {
    await api();
    const registered = await vscode.commands.getCommands(true);
    const contributed = vscode.extensions.getExtension('readgate.readgate')!.packageJSON.contributes.commands as { command: string; category: string }[];
    for (const { command, category } of contributed) {
      assert.ok(registered.includes(command), `${command} is not registered`);
      assert.strictEqual(category, 'ReadGate', command);
    }
  });

  test('Show Session Ledger and Show Statistics open read-only reports of the current state', async () => {
    const session = (await api()).openSession({ id: 'report-session', label: 'Report test' });
    const file = freshFile(numbered(30));
    await session.read(file, { offset: 5, limit: 10 });
    await session.read(file, { offset: 5, limit: 10 });
    assert.strictEqual((await session.edit(freshFile(numbered(3)), [{ oldString: 'line 1', newString: 'x' }])).code, 'EDIT_REQUIRES_PRIOR_READ');
    await vscode.commands.executeCommand('readgate.showLedger', { kind: 'session', id: 'report-session' });
    const ledger = vscode.window.activeTextEditor?.document;
    assert.strictEqual(ledger?.uri.scheme, 'readgate-report');
    assert.match(ledger.getText(), /# ReadGate ledger: Report test/);
    assert.ok(ledger.getText().includes(`| ${path.basename(file)} | 5–14 | 30 |`), ledger.getText());
    // Shown as a rendered preview; the command answers the report's Markdown.
    const statistics = (await vscode.commands.executeCommand<string>('readgate.showStatistics')) ?? '';
    assert.match(statistics, /\| Report test \| 2 \| 1 \| \d+ \| 0 \| EDIT_REQUIRES_PRIOR_READ 1 \|/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    session.dispose();
  });

  test('a session label from outside reads as itself in the ledger and the statistics: no link, no extra cell', async () => {
    const label = '[Approve](command:readgate.approveAll) | <b>x</b>';
    const session = (await api()).openSession({ id: 'hostile`label', label });
    await session.read(freshFile(numbered(2)));
    await vscode.commands.executeCommand('readgate.showLedger', { kind: 'session', id: 'hostile`label' });
    const ledger = vscode.window.activeTextEditor?.document.getText() ?? '';
    assert.ok(ledger.includes('# ReadGate ledger: \\[Approve\\](command\\:readgate.approveAll) \\| \\<b\\>x\\</b\\>'), ledger);
    assert.ok(ledger.includes('Session id: ``hostile`label``'), ledger);
    const statistics = (await vscode.commands.executeCommand<string>('readgate.showStatistics')) ?? '';
    const row = statistics.split('\n').find((line) => line.includes('Approve')) ?? '';
    assert.strictEqual(row.split(/(?<!\\)\|/).length, 8, `the label added table cells: ${row}`);
    assert.ok(!statistics.includes('](command:'), statistics);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    session.dispose();
  });

  test('Forget Session and Forget All Sessions make agents read again', async () => {
    const readGate = await api();
    const session = readGate.openSession({ id: 'forget-me' });
    const file = freshFile(numbered(3));
    await session.read(file);
    await vscode.commands.executeCommand('readgate.forgetSession', { kind: 'session', id: 'forget-me' });
    assert.strictEqual((await session.edit(file, [{ oldString: 'line 1', newString: 'x' }])).code, 'EDIT_REQUIRES_PRIOR_READ');
    await session.read(file);
    await vscode.commands.executeCommand('readgate.forgetAllSessions');
    assert.strictEqual((await session.edit(file, [{ oldString: 'line 1', newString: 'x' }])).code, 'EDIT_REQUIRES_PRIOR_READ');
    session.dispose();
  });

  test('looking at a dropped session (its ledger, statistics, Reveal Seen Lines, Forget) does not bring it back', async () => {
    // Views and reports looked through session(id), which creates a missing session: a dropped one came back empty.
    const session = (await api()).openSession({ id: 'dropped-session' });
    const file = freshFile(numbered(5));
    await session.read(file);
    session.dispose();
    const node = { kind: 'session', id: 'dropped-session' };
    await vscode.commands.executeCommand('readgate.showLedger', node);
    assert.match(vscode.window.activeTextEditor?.document.getText() ?? '', /has not seen any file yet/);
    const entry = { path: file, version: 'x', totalLines: 5, seen: [1, 5], seenText: '1–5', recordedAt: 0 };
    await vscode.commands.executeCommand('readgate.revealSeenRange', { kind: 'file', sessionId: 'dropped-session', entry });
    await vscode.commands.executeCommand('readgate.forgetSession', node);
    // Shown as a rendered preview; the command answers the report's Markdown.
    const statistics = (await vscode.commands.executeCommand<string>('readgate.showStatistics')) ?? '';
    assert.ok(!statistics.includes('dropped-session'), `the dropped session is live again:\n${statistics}`);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Toggle Dedup flips the setting both ways', async () => {
    const configuration = () => vscode.workspace.getConfiguration('readgate');
    assert.strictEqual(await vscode.commands.executeCommand('readgate.toggleDedup'), false);
    assert.strictEqual(configuration().get('read.dedup'), false);
    assert.strictEqual(await vscode.commands.executeCommand('readgate.toggleDedup'), true);
    await configuration().update('read.dedup', undefined, vscode.ConfigurationTarget.Global);
  });

  test('Open File opens the file of a view item', async () => {
    const file = freshFile(numbered(3));
    await vscode.commands.executeCommand('readgate.openFile', { kind: 'file', sessionId: 'none', entry: { path: file, version: 'x', totalLines: 3, seen: [1, 3], seenText: '1–3', recordedAt: 0 } });
    assert.strictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, file);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Reveal Seen Lines selects exactly the lines the session saw', async () => {
    const session = (await api()).openSession({ id: 'reveal' });
    const file = freshFile(numbered(40));
    await session.read(file, { offset: 3, limit: 2 });
    await session.read(file, { offset: 20, limit: 3 });
    // The view item may have been drawn before later reads: the command asks the guard, not the item.
    const entry = { path: file, version: 'x', totalLines: 40, seen: [1, 40], seenText: '1–40', recordedAt: 0 };
    await vscode.commands.executeCommand('readgate.revealSeenRange', { kind: 'file', sessionId: 'reveal', entry });
    const selections = vscode.window.activeTextEditor?.selections.map((s) => [s.start.line + 1, s.end.line + 1]);
    assert.deepStrictEqual(selections, [[3, 4], [20, 22]]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    session.dispose();
  });

  test('the Sessions view lists sessions and the files they have seen, marking only files whose content changed (screenshot)', async function () {
    const session = (await api()).openSession({ id: 'view-session', label: 'Refactoring agent' });
    const file = freshFile(numbered(120), '.ts');
    const other = freshFile(numbered(10));
    // Reading right after creating: the watcher's "created" echo arrives after the read and must not mark it.
    await session.read(file, { offset: 1, limit: 40 });
    await session.read(other);
    await vscode.commands.executeCommand('workbench.view.extension.readgate');
    if (!harness.isAvailable) this.skip();
    // Room for the ranges and markers: no chat beside it, a wider side bar.
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await harness.drag('.part.sidebar', 420, 0, 'rightEdge');
    const sidebar = async () => (await harness.workbenchTexts('.part.sidebar')).join('\n');
    await harness.waitFor('the file under its session', async () => {
      const text = await sidebar();
      return text.includes('Refactoring agent') && text.includes(path.basename(file)) && text.includes('lines 1–40 of 120') ? text : undefined;
    });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // let the watcher's echoes arrive
    // The files' rows only: the Agent Changes view below may say "changed" of anything.
    const fileRows = async () => (await harness.workbenchTexts('.part.sidebar .monaco-list-row')).filter((row) => row.includes(path.basename(file)) || row.includes(path.basename(other))).join('\n');
    assert.ok(!/changed/.test(await fileRows()), `an unchanged file is marked as changed:\n${await fileRows()}`);
    fs.writeFileSync(other, numbered(10).replace('line 5', 'line five'));
    const marked = await harness.waitFor('the stale marker on the changed file', async () => {
      const text = await sidebar();
      return /changed outside ReadGate/.test(text) ? text : undefined;
    });
    assert.strictEqual(marked.match(/changed (outside|by|in) /g)?.length, 1, 'only the changed file is marked');
    await harness.screenshot('sessions-view');
    session.dispose();
  });

  test('sessions that ended (an API session disposed, an Apply Patch run) stay under Ended sessions and in the statistics until cleared (screenshot)', async function () {
    const settings = vscode.workspace.getConfiguration('readgate');
    await settings.update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    const session = (await api()).openSession({ label: 'Ended agent' });
    const read = freshFile(numbered(12));
    await session.read(read, { offset: 1, limit: 5 });
    session.dispose();
    const patched = freshFile('alpha\nbeta\n');
    const patch = [`--- a/${path.basename(patched)}`, `+++ b/${path.basename(patched)}`, '@@ -1,2 +1,2 @@', ' alpha', '-beta', '+BETA', ''].join('\n');
    assert.deepStrictEqual(await vscode.commands.executeCommand('readgate.applyPatch', { text: patch }), { ok: true, files: 1 });
    const statistics = (await vscode.commands.executeCommand<string>('readgate.showStatistics')) ?? '';
    assert.match(statistics, /\| Ended agent \(ended\) \| 1 \|/);
    assert.match(statistics, /\| Apply Patch \(the given text\) \(ended\) \| \d+ \| 0 \| 0 \| 1 \|/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('workbench.view.extension.readgate');
    if (!harness.isAvailable) this.skip();
    const sidebar = async () => (await harness.workbenchTexts('.part.sidebar')).join('\n');
    await harness.waitFor('the Ended sessions group', async () => ((await sidebar()).includes('Ended sessions') ? true : undefined));
    await harness.click('.part.sidebar .monaco-list-row:has-text("Ended sessions")');
    const text = await harness.waitFor('the ended sessions', async () => {
      const now = await sidebar();
      return now.includes('Ended agent') && now.includes('Apply Patch (the given text)') ? now : undefined;
    });
    assert.match(text, /your patch · 1 file/);
    await harness.screenshot('sessions-view-ended');
    await vscode.commands.executeCommand('readgate.clearEndedSessions');
    await harness.waitFor('the group gone', async () => (!(await sidebar()).includes('Ended sessions') ? true : undefined));
    assert.doesNotMatch((await vscode.commands.executeCommand<string>('readgate.showStatistics')) ?? '', /\(ended\)/);
  });
});
