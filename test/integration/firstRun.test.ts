import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import * as harness from './harness';
import { api, EXTENSION_ID, nextReview, REVIEW_HOOK as HOOK, workspaceRoot } from './helpers';

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

/** The demo workspace's src/inventory.ts, fresh in the test workspace (the samples are for it); its text. */
function freshDemoFile(): string {
  const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
  const demo = fs.readFileSync(path.join(extension.extensionPath, 'demo/src/inventory.ts'), 'utf8');
  fs.mkdirSync(path.join(workspaceRoot(), 'src'), { recursive: true });
  fs.writeFileSync(path.join(workspaceRoot(), 'src/inventory.ts'), demo);
  return demo;
}

const demoFile = () => fs.readFileSync(path.join(workspaceRoot(), 'src/inventory.ts'), 'utf8');
const steps = (): Step[] => vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON.contributes.walkthroughs[0].steps;

/** The walkthrough's ticked steps, by title, as the Get Started page shows them. */
const tickedSteps = () => harness.workbenchTexts('button.getting-started-step[aria-checked="true"] .step-title');

/** The demo file after the sample patch. */
const withSamplePatch = (demo: string) => demo.replace('  restock(sku: string, count: number): void {\n', '  restock(sku: string, count: number): void {\n    if (count <= 0) {\n      throw new Error(`restock count must be positive, got ${count}`);\n    }\n');
/** The demo file after the sample agent's change (its hunk in `add`, its hunk in `needsReorder`). */
const ADD_HUNK = ['    }\n    this.items.set(item.sku, { ...item });', '    }\n    if (item.quantity < 0) {\n      throw new Error(`negative quantity for ${item.sku}`);\n    }\n    this.items.set(item.sku, { ...item });'];
const SORT_HUNK = ['      .sort((a, b) => a.quantity - b.quantity);', '      .sort((a, b) => a.quantity - b.quantity || a.sku.localeCompare(b.sku));'];

suite('first run: no model, a new window', () => {
  suiteSetup(async () => {
    await api();
  });
  suiteTeardown(async () => {
    // The walkthrough's sample agent is not the later suites' business (their Sessions view and statistics).
    await vscode.commands.executeCommand('readgate.forgetSession', { kind: 'session', id: 'walkthrough:sample-agent' });
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
    // The Agent Changes view says what it will hold, once it has looked and found nothing.
    await harness.waitFor('the Agent Changes view\'s welcome', async () => ((await harness.workbenchTexts('.welcome-view-content')).some((text) => text.includes('No agent has changed a file through ReadGate')) ? true : undefined));
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

  test('each step is done by its own action: no step completes when another step\'s button runs, and the sample steps complete on what happened', () => {
    // A step without completion events completes when any command its buttons name runs, whatever the arguments:
    // "Show the Sample Patch" (readgate.openSamplePatch) ticked "See a stale change refused".
    const completedBy = (step: Step & { completionEvents?: string[] }) => (step.completionEvents?.length ? step.completionEvents : commandLinks(step.description).map(({ command }) => `onCommand:${command}`));
    const all = steps() as (Step & { completionEvents?: string[] })[];
    for (const step of all) {
      for (const { command } of commandLinks(step.description)) {
        const others = all.filter((other) => other !== step && completedBy(other).includes(`onCommand:${command}`)).map((other) => other.id);
        assert.deepStrictEqual(others, [], `${step.id}'s button ${command} completes ${others.join(', ')}`);
      }
    }
    const events = Object.fromEntries(all.map((step) => [step.id, completedBy(step)]));
    assert.deepStrictEqual(events.applyPatch, ['onContext:readgate.walkthrough.samplePatchApplied']);
    assert.deepStrictEqual(events.stalePatch, ['onContext:readgate.walkthrough.stalePatchRefused']);
    assert.deepStrictEqual(events.review, ['onContext:readgate.walkthrough.sampleChangeReviewed']);
  });

  test('"Review every change" gives the review panel a sample agent\'s change; the step is ticked once you decided, not before (screenshot)', async () => {
    // Its button was Review Pending Changes, which opened an empty panel: "No change is waiting".
    const demo = freshDemoFile();
    const review = steps().find((step) => step.id === 'review')!;
    const links = commandLinks(review.description);
    assert.deepStrictEqual(links.map((link) => link.command), ['readgate.proposeSampleChange']);
    await vscode.workspace.getConfiguration('readgate').update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
    try {
      if (harness.isAvailable) await vscode.commands.executeCommand('readgate.getStarted');
      const proposed = vscode.commands.executeCommand<{ ok: boolean; code?: string }>(links[0].command, ...links[0].args);
      const request = await nextReview();
      assert.strictEqual(request.sessionLabel, 'Sample agent (Get Started)');
      assert.strictEqual(request.files.length, 1);
      assert.strictEqual(request.files[0].hunks.length, 2, 'two hunks: one to reject, one to approve');
      assert.strictEqual(demoFile(), demo, 'nothing is written while it waits');
      if (harness.isAvailable) {
        await harness.waitFor('the walkthrough', async () => ((await harness.workbenchTexts('.gettingStartedContainer')).some((text) => text.includes('Review every change')) ? true : undefined));
        assert.ok(!(await tickedSteps()).includes('Review every change'), 'ticked before the change was decided');
        await harness.screenshot('walkthrough-review-waiting');
      }
      await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: { [request.files[0].path]: [1] } });
      const outcome = await proposed;
      assert.ok(outcome?.ok, JSON.stringify(outcome));
      assert.strictEqual(demoFile(), demo.replace(ADD_HUNK[0], ADD_HUNK[1]), 'the approved hunk only');
      if (harness.isAvailable) await harness.waitFor('the review step ticked', async () => ((await tickedSteps()).includes('Review every change') ? true : undefined));
      // The sample agent stays listed with what it read, for the next step.
      assert.ok((await vscode.commands.executeCommand<string[]>('readgate._test.sessionIds')).includes('walkthrough:sample-agent'));
    } finally {
      await vscode.workspace.getConfiguration('readgate').update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    }
  });

  test('every command the walkthrough\'s steps link to runs; the sample patch applies, the stale one is refused, the sample change applies; each ticks its own step', async () => {
    const demo = freshDemoFile();
    const known = new Set(await vscode.commands.getCommands(true));
    const ran: string[] = [];
    for (const step of steps()) {
      for (const { command, args } of commandLinks(step.description)) {
        assert.ok(known.has(command), `step ${step.id} links to ${command}, which no one registered`);
        // Those two ask modal questions of a person; that they are registered is what the link needs.
        if (command === 'readgate.connectExternalAgent' || command === 'readgate.createGuardedAgent') continue;
        const ticked = harness.isAvailable ? await tickedSteps() : [];
        const result = await vscode.commands.executeCommand<unknown>(command, ...args);
        ran.push(`${command} ${JSON.stringify(args)}`);
        // Showing a sample ticks nothing (the steps with samples tick on what happened).
        if (harness.isAvailable && command === 'readgate.openSamplePatch') assert.deepStrictEqual(await tickedSteps(), ticked, `${command} ${JSON.stringify(args)} ticked a step`);
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
    assert.strictEqual(demoFile(), withSamplePatch(demo).replace(ADD_HUNK[0], ADD_HUNK[1]).replace(SORT_HUNK[0], SORT_HUNK[1]));
    if (harness.isAvailable) {
      await vscode.commands.executeCommand('readgate.getStarted');
      await harness.waitFor('the sample steps ticked', async () => {
        const titles = await tickedSteps();
        return ['Apply a change from anywhere', 'See a stale change refused', 'Review every change'].every((title) => titles.includes(title)) ? titles : undefined;
      });
    }
  });
});
