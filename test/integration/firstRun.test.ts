import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as harness from './harness';
import { api, EXTENSION_ID, workspaceRoot } from './helpers';

type Outcome = { ok: true; files: number } | { ok: false; code: string; message: string } | undefined;

interface Step {
  id: string;
  description: string;
}

/** The `command:` links of a walkthrough step, with their arguments. */
function commandLinks(description: string): { command: string; args: unknown[] }[] {
  return [...description.matchAll(/\]\(command:([\w.]+)(?:\?([^)]*))?\)/g)].map((match) => ({ command: match[1], args: match[2] ? (JSON.parse(decodeURIComponent(match[2])) as unknown[]) : [] }));
}

const NO_SESSIONS = 'No agent has used ReadGate in this window yet.';

suite('first run: no model, a new window', () => {
  suiteSetup(async () => {
    await api();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the Sessions view, the statistics and the ledger say what to do next, also without a model (screenshot)', async () => {
    await vscode.commands.executeCommand('readgate.sessions.focus');
    const statistics = await vscode.commands.executeCommand<string>('readgate.showStatistics');
    assert.match(statistics, /No agent has used ReadGate in this window yet/);
    assert.match(statistics, /Apply Patch/);
    assert.match(statistics, /needs a language model/);
    // Shown rendered: the active tab is the Markdown preview, not a text editor.
    await harness.waitFor('the statistics preview', () => (vscode.window.tabGroups.activeTabGroup.activeTab?.label.startsWith('Preview') ? true : undefined));
    assert.strictEqual(vscode.window.activeTextEditor, undefined);
    if (!harness.isAvailable) return;
    await harness.waitFor('the preview\'s text', async () => ((await harness.workbenchTexts('iframe.webview.ready >> internal:control=enter-frame >> #active-frame >> internal:control=enter-frame >> body')).some((text) => text.includes('needs a language model')) ? true : undefined));
    const welcome = await harness.workbenchTexts('.welcome-view-content');
    assert.ok(welcome.some((text) => text.includes(NO_SESSIONS) && text.includes('Apply Patch') && text.includes('language model')), welcome.join('\n'));
    await harness.screenshot('first-run-empty-states');
    await vscode.commands.executeCommand('readgate.showLedger');
    await vscode.commands.executeCommand('notifications.showList');
    await harness.waitFor('the ledger\'s empty state', async () => ((await harness.workbenchTexts('.notifications-center')).some((text) => text.includes(NO_SESSIONS)) ? true : undefined));
    await vscode.commands.executeCommand('notifications.hideList');
  });

  test('Get Started opens the walkthrough (screenshot)', async function () {
    if (!harness.isAvailable) this.skip();
    await vscode.commands.executeCommand('readgate.getStarted');
    await harness.waitFor('the walkthrough', async () => ((await harness.workbenchTexts('.gettingStartedContainer')).some((text) => text.includes('Get Started with ReadGate') && text.includes('Apply a change from anywhere')) ? true : undefined));
    await harness.screenshot('walkthrough');
  });

  test('every command the walkthrough\'s steps link to runs; the sample patch applies and the stale one is refused', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    const steps: Step[] = extension.packageJSON.contributes.walkthroughs[0].steps;
    // The samples are for the demo workspace's src/inventory.ts.
    fs.mkdirSync(path.join(workspaceRoot(), 'src'), { recursive: true });
    const demo = fs.readFileSync(path.join(extension.extensionPath, 'demo/src/inventory.ts'), 'utf8');
    fs.writeFileSync(path.join(workspaceRoot(), 'src/inventory.ts'), demo);
    const known = new Set(await vscode.commands.getCommands(true));
    const ran: string[] = [];
    for (const step of steps) {
      for (const { command, args } of commandLinks(step.description)) {
        assert.ok(known.has(command), `step ${step.id} links to ${command}, which no one registered`);
        // Those two ask modal questions of a person; that they are registered is what the link needs.
        if (command === 'readgate.connectExternalAgent' || command === 'readgate.createGuardedAgent') continue;
        const result = await vscode.commands.executeCommand<unknown>(command, ...args);
        ran.push(`${command} ${JSON.stringify(args)}`);
        if (command === 'readgate.openSamplePatch') assert.match(String(result), /^--- a\/src\/inventory\.ts/);
        if (command === 'readgate.applyPatch') {
          const outcome = result as Outcome;
          if ((args[0] as { sample: string }).sample === 'fresh') assert.deepStrictEqual(outcome, { ok: true, files: 1 });
          else {
            assert.ok(outcome && !outcome.ok && outcome.code === 'NO_OCCURRENCE_FOUND', JSON.stringify(outcome));
            assert.match(outcome.message, /line 22: the patch expects "    if \(count >= item\.quantity\) \{", the file has "    if \(count > item\.quantity\) \{"/);
          }
        }
      }
    }
    assert.ok(ran.length >= 7, ran.join('\n'));
    const patched = fs.readFileSync(path.join(workspaceRoot(), 'src/inventory.ts'), 'utf8');
    assert.strictEqual(patched, demo.replace('  restock(sku: string, count: number): void {\n', '  restock(sku: string, count: number): void {\n    if (count <= 0) {\n      throw new Error(`restock count must be positive, got ${count}`);\n    }\n'));
  });
});
