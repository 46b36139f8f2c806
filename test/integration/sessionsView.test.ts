/**
 * The Sessions view as a user sees it in the browser, at VS Code's default side bar width: it keeps up with the
 * user's own revert (no view switch needed, and a file equal again to what the agent saw is no longer
 * "changed"), names who changed a file first, and tells a live session from an ended one of the same client.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import * as harness from './harness';
import { api, freshFile, nextReview, numbered, REVIEW_HOOK } from './helpers';

const send = (message: unknown) => vscode.commands.executeCommand(REVIEW_HOOK, 'message', message);

interface ChangeNode {
  kind: string;
  record?: { sessionId: string };
}

/** The Agent Changes view's node of the change `sessionId` made (what its context menu hands a command). */
async function changeNode(sessionId: string): Promise<ChangeNode> {
  return harness.waitFor(`the change of ${sessionId}`, async () => {
    const nodes = (await vscode.commands.executeCommand<ChangeNode[]>('readgate._test.agentChangeNodes')) ?? [];
    return nodes.find((node) => node.kind === 'change' && node.record?.sessionId === sessionId);
  });
}

const sidebar = async (): Promise<string> => (await harness.workbenchTexts('.part.sidebar')).join('\n');

/** The Sessions view's row that holds `text` (its label, description), as drawn. */
async function rowWith(text: string): Promise<string | undefined> {
  return (await harness.workbenchTexts('.part.sidebar .monaco-list-row')).find((row) => row.includes(text));
}

async function showSessionsView(): Promise<void> {
  // Shown and expanded, whatever earlier suites left collapsed.
  await vscode.commands.executeCommand('readgate.sessions.focus');
  await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  await harness.sidebarWidth();
}

suite('sessions view', () => {
  suiteSetup(async function () {
    if (!harness.isAvailable) this.skip();
    await api();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('keeps up with your own revert: "changed by your revert" within seconds, and no longer changed once the file is as the agent saw it again (screenshot)', async () => {
    const file = freshFile(numbered(8), '.ts');
    const name = file.split('/').pop() ?? file;
    const agent = (await api()).openSession({ label: 'Keeps-up agent' });
    await agent.read(file);
    const edited = await agent.edit(file, [{ oldString: 'line 3', newString: 'agent line 3' }], { explanation: 'Rename line three' });
    assert.strictEqual(edited.ok, true, edited.message);
    const agentText = fs.readFileSync(file, 'utf8');
    await showSessionsView();
    await harness.waitFor('the file under its session', async () => ((await rowWith(name)) ? true : undefined));
    assert.doesNotMatch((await rowWith(name)) ?? '', /changed/);

    const revert = vscode.commands.executeCommand<{ ok: boolean; message?: string }>('readgate.revertChange', await changeNode(agent.id));
    const request = await nextReview();
    await send({ type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
    assert.strictEqual((await revert)?.ok, true);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(8));
    await vscode.commands.executeCommand('workbench.view.extension.readgate');
    // Within seconds and without switching views (the user's revert is ReadGate's own write: no watcher echo).
    const row = await harness.waitFor('the file marked as changed by the revert', async () => {
      const drawn = await rowWith(name);
      return drawn && /changed by your revert/.test(drawn) ? drawn : undefined;
    }, 5_000);
    // At the default width the essential words come first: who changed it, before the lines seen.
    assert.ok(row.indexOf('changed by your revert') < row.indexOf('lines'), row);
    await harness.screenshot('sessions-view-after-revert');

    // The file as the agent saw it again: nothing to mark.
    fs.writeFileSync(file, agentText);
    await harness.waitFor('the marker gone', async () => {
      const drawn = await rowWith(name);
      return drawn && !/changed/.test(drawn) ? true : undefined;
    }, 5_000);
    // Also after switching views and back.
    await vscode.commands.executeCommand('workbench.view.explorer');
    await vscode.commands.executeCommand('workbench.view.extension.readgate');
    await new Promise((resolve) => setTimeout(resolve, 800));
    assert.doesNotMatch((await rowWith(name)) ?? '', /changed/);
    agent.dispose();
  });

  test('a live and an ended session of the same client are told apart by when they started (screenshot at the default width)', async () => {
    const file = freshFile(numbered(4));
    await vscode.commands.executeCommand('readgate.clearEndedSessions');
    const first = (await api()).openSession({ label: 'Twin agent 1.0' });
    await first.read(file);
    first.dispose();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = (await api()).openSession({ label: 'Twin agent 1.0' });
    await second.read(file);
    await showSessionsView();
    await harness.waitFor('the Ended sessions group', async () => ((await sidebar()).includes('Ended sessions') ? true : undefined));
    // The list draws only the rows in sight, and the group keeps whatever state an earlier test left it in: each
    // look scrolls to the start and to the end (where the group is; expanded only when it is collapsed).
    const collapsed = '.part.sidebar .monaco-list-row[aria-expanded="false"]:has-text("Ended sessions")';
    const twins = async (): Promise<string[]> => (await harness.workbenchTexts('.part.sidebar .monaco-list-row')).filter((row) => row.includes('Twin agent 1.0'));
    let live: string | undefined;
    let ended: string | undefined;
    await harness.waitFor('both twins', async () => {
      await vscode.commands.executeCommand('readgate.sessions.focus');
      for (const end of ['list.focusFirst', 'list.focusLast']) {
        await vscode.commands.executeCommand(end);
        if ((await harness.workbenchTexts(collapsed)).length) await harness.click(collapsed);
        const rows = await twins();
        live = rows.find((row) => /since /.test(row)) ?? live;
        ended = rows.find((row) => !/since /.test(row)) ?? ended;
      }
      // The view redraws a moment after each session change: until then a row may be drawn as before.
      return live && ended && /\d{1,2}:\d{2}( [AP]M)?–\d{1,2}:\d{2}/.test(ended) ? true : undefined;
    }).catch((error: Error) => assert.fail(`${error.message}: the live twin ${live ?? 'not found'}; the ended one ${ended ?? 'not found'}`));
    assert.match(live!, /since \d{1,2}:\d{2}/, `the live twin says when it started: ${live}`);
    assert.match(ended!, /\d{1,2}:\d{2}( [AP]M)?–\d{1,2}:\d{2}/, `the ended twin says when it ran: ${ended}`);
    await harness.screenshot('sessions-view-default-width');
    second.dispose();
    await vscode.commands.executeCommand('readgate.clearEndedSessions');
  });
});
