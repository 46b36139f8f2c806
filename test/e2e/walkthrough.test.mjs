// A newcomer's first hour, in the browser: runs what `npm start` serves (scripts/start.mjs, hermetically: its
// own state folder, a free port, a private READGATE_HOME) and drives the real workbench in Chromium. It checks
// what npm start prints, that unsaved text stays unsaved (Auto Save off), then walks Get Started step by step:
// each button does what its step says, and a step is ticked only after its own action. An agent in "another
// terminal" (a child process with another HOME) reaches the window through the bridge. Screenshots of every
// step, the Sessions view with ended sessions and the Connect guide go to test-results/e2e/screenshots.
//   npm run test:walkthrough   (about 2 minutes; not part of npm test)
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { freePort } from '../harness/driver.mjs';
import { clickStepButton, notifications, openFile, openWorkbench, runCommand, tickedSteps, until, webviewFrame } from './workbench.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.join(root, 'test-results/e2e');
const shots = path.join(outDir, 'screenshots');
const readgateHome = path.join(outDir, 'readgate-home');
const STEPS = ['Apply a change from anywhere', 'See a stale change refused', 'Review every change', 'See what each agent has seen', 'Connect your agents', "Guard Copilot's own tools", 'Pick your settings'];

let start; // the npm start process
let output = '';
let demo; // { url, workspace, bridge }
let browser;
let page;

const shot = (name) => page.screenshot({ path: path.join(shots, `${name}.png`) });
/** The remote (machine) settings of npm start's VS Code, wherever code-server keeps them. */
const remoteSettings = () => {
  const found = spawnSync('find', [path.join(outDir, 'state'), '-path', '*/Machine/settings.json'], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
  return found.map((file) => fs.readFileSync(file, 'utf8')).join('\n');
};
const inventory = () => fs.readFileSync(path.join(demo.workspace, 'src/inventory.ts'), 'utf8');
/** Ticked steps must be exactly the first `count` steps. */
const expectTicked = async (count, why) => assert.deepEqual(await until(`${count} steps ticked`, async () => {
  const ticked = await tickedSteps(page);
  return ticked.length === count ? ticked : undefined;
}, 10_000).catch(async () => tickedSteps(page)), STEPS.slice(0, count), why);

async function startDemo() {
  const port = await freePort();
  start = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
    cwd: root,
    env: { ...process.env, READGATE_START_DIR: path.join(outDir, 'state'), READGATE_PORT: String(port), READGATE_HOME: readgateHome },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  start.stdout.on('data', (chunk) => (output += chunk));
  start.stderr.on('data', (chunk) => (output += chunk));
  await until('npm start to be ready', () => (start.exitCode !== null ? Promise.reject(new Error(output)) : output.includes('Press Ctrl+C to stop.')), 300_000);
  const url = /^ {4}(http:\/\/127\.0\.0\.1:\d+\/\?folder=\S+)$/m.exec(output)?.[1];
  const workspace = /^ {4}cd (\S+)$/m.exec(output)?.[1];
  const bridge = /^ {4}node (\S+) --list/m.exec(output)?.[1];
  assert.ok(url && workspace && bridge, output);
  return { url, workspace, bridge };
}

suite('the walkthrough in the browser, on what npm start serves', function () {
  this.timeout(120_000);

  suiteSetup(async function () {
    this.timeout(420_000);
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.mkdirSync(shots, { recursive: true });
    demo = await startDemo();
    ({ context: browser, page } = await openWorkbench(demo.url, outDir, { ...process.env, HOME: path.join(outDir, 'state/home') }));
  });

  suiteTeardown(async function () {
    this.timeout(60_000);
    await browser?.close().catch(() => undefined);
    if (start && start.exitCode === null) {
      const exited = new Promise((resolve) => start.once('exit', resolve));
      start.kill('SIGINT'); // start.mjs stops its VS Code's process group
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 20_000))]);
    }
  });

  teardown(async function () {
    // A failed step leaves its picture and the workbench's DOM behind, to look at.
    if (this.currentTest?.state !== 'failed' || !page) return;
    const name = `failed-${this.currentTest.title.slice(0, 40).replace(/[^\w]+/g, '-')}`;
    await shot(name).catch(() => undefined);
    fs.writeFileSync(path.join(outDir, `${name}.html`), await page.content().catch(() => ''));
  });

  test('npm start prints a few lines, ending with how to begin and how an agent in another terminal reaches the window', () => {
    const lines = output.trimEnd().split('\n');
    assert.ok(lines.length <= 25, `${lines.length} lines:\n${output}`);
    assert.match(output, /Begin with "ReadGate: Get Started"/);
    assert.equal(demo.bridge, path.join(readgateHome, 'mcp-bridge.js'));
    assert.match(lines.at(-1), /Press Ctrl\+C to stop\.$/);
  });

  test('Auto Save is off: text typed in the demo README stays unsaved', async () => {
    const readme = path.join(demo.workspace, 'README.md');
    const before = fs.readFileSync(readme, 'utf8');
    await openFile(page, 'README.md');
    await page.locator('.editor-group-container.active .monaco-editor .view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nTyped in the editor, not saved.');
    await new Promise((resolve) => setTimeout(resolve, 2500)); // VS Code for the Web's Auto Save waits 1 s
    await shot('00-unsaved-readme');
    assert.equal(fs.readFileSync(readme, 'utf8'), before, 'the typed text was saved');
    assert.equal(await page.locator('.tab.dirty', { hasText: 'README.md' }).count(), 1, 'the README tab is not dirty');
    await runCommand(page, 'File: Revert File');
    await until('the README clean again', async () => (await page.locator('.tab.dirty').count()) === 0);
    await runCommand(page, 'View: Close All Editors');
  });

  test('Get Started opens the walkthrough with no step ticked', async () => {
    await runCommand(page, 'ReadGate: Get Started');
    await page.locator('.gettingStartedContainer', { hasText: 'Get Started with ReadGate' }).waitFor();
    await shot('01-walkthrough');
    assert.deepEqual(await tickedSteps(page), []);
  });

  test('1. Show the Sample Patch shows it and ticks nothing; Apply, approved in review, patches the demo file and ticks step 1', async () => {
    const original = inventory();
    await clickStepButton(page, STEPS[0], 'Show the Sample Patch');
    await page.locator('.monaco-editor .view-lines', { hasText: '--- a/src/inventory.ts' }).first().waitFor();
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.deepEqual(await tickedSteps(page), [], 'showing the sample ticked a step');
    await clickStepButton(page, STEPS[0], 'Apply the Sample Patch');
    const review = await webviewFrame(page, 'button[data-action="approve"]');
    await review.locator('.file', { hasText: 'inventory.ts' }).first().waitFor();
    await shot('02-sample-patch-in-review');
    assert.equal(inventory(), original, 'written before approval');
    assert.deepEqual(await tickedSteps(page), [], 'ticked before the patch was applied');
    await review.locator('button[data-action="approve"]').click();
    await until('the sample patch applied', () => inventory().includes('restock count must be positive'));
    await expectTicked(1, 'step 1 after its patch applied');
    await shot('03-sample-patch-applied');
  });

  test('2. Apply the Stale Patch is refused with the line that differs, writes nothing, and ticks step 2', async () => {
    const before = inventory();
    await clickStepButton(page, STEPS[1], 'Apply the Stale Patch');
    const toast = await until('the refusal', async () => (await notifications(page)).find((text) => text.includes('NO_OCCURRENCE_FOUND')));
    assert.match(toast, /ReadGate did not apply the patch \(NO_OCCURRENCE_FOUND\)/);
    await shot('04-stale-patch-refused');
    assert.equal(inventory(), before);
    await expectTicked(2, 'step 2 after its refusal');
  });

  test('3. Propose a Change to Review puts a sample agent\'s two hunks in the panel; one rejected, one approved; step 3 ticks after the decision', async () => {
    const before = inventory();
    await clickStepButton(page, STEPS[2], 'Propose a Change to Review');
    const review = await webviewFrame(page, '.hunk[data-hunk-index="1"] .hunk-toggle');
    await until('the sample agent\'s request', async () => (await review.locator('body').innerText()).includes('Sample agent (Get Started)'));
    assert.equal(await review.locator('.hunk-toggle').count(), 2);
    assert.deepEqual(await tickedSteps(page), STEPS.slice(0, 2), 'ticked before the change was decided');
    await review.locator('.hunk[data-hunk-index="1"] .hunk-toggle').click();
    await shot('05-sample-change-in-review');
    await review.locator('button[data-action="approve"]').click();
    await until('the approved hunk written', () => inventory().includes('negative quantity'));
    assert.ok(!inventory().includes('localeCompare'), 'the rejected hunk was written');
    assert.notEqual(inventory(), before);
    await expectTicked(3, 'step 3 after the decision');
  });

  test('4. Open the Sessions View lists the sample agent and the ended Apply Patch runs; step 4 ticks', async () => {
    await clickStepButton(page, STEPS[3], 'Open the Sessions View');
    const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Sessions' }) });
    const rows = () => view.locator('.monaco-list-row').allInnerTexts();
    await until('the sessions listed', async () => {
      const texts = (await rows()).join('\n');
      return texts.includes('Sample agent (Get Started)') && texts.includes('Ended sessions') ? texts : undefined;
    });
    await expectTicked(4, 'step 4 once the view is shown');
    await shot('06-sessions-view');
  });

  test('5. Connect an External Agent shows the guide with the bridge in ReadGate\'s home; an agent in another terminal (another HOME) reaches the window; step 5 ticks', async () => {
    await clickStepButton(page, STEPS[4], 'Connect an External Agent');
    const guide = await webviewFrame(page, 'h1:text("Connect an External Agent")');
    const text = await guide.locator('body').innerText();
    assert.ok(text.includes(`node ${demo.bridge}`), 'the guide names the bridge npm start printed');
    assert.match(text, /from any terminal of this user/);
    assert.match(text, /MCP server runs in this window/);
    await shot('07-connect-guide');
    await guide.locator('#any').scrollIntoViewIfNeeded();
    await shot('07b-connect-guide-any-client');
    await runCommand(page, 'ReadGate: Get Started'); // the guide took the walkthrough's place
    await expectTicked(5, 'step 5 after Connect');
    // "Another terminal": this user's, with another HOME; only READGATE_HOME is shared, as npm start's was.
    const terminal = { PATH: process.env.PATH, HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'rg-terminal-')), READGATE_HOME: readgateHome };
    const list = spawnSync(process.execPath, [demo.bridge, '--list'], { cwd: demo.workspace, env: terminal, encoding: 'utf8' });
    assert.equal(list.status, 0, list.stderr);
    assert.match(list.stdout, /→ "demo" \(pid \d+, http:\/\/127\.0\.0\.1:\d+\/mcp\)/);
    const client = new Client({ name: 'claude-code', version: '2.0.14' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [demo.bridge], cwd: demo.workspace, env: terminal, stderr: 'ignore' }));
    const read = await client.callTool({ name: 'readgate_read', arguments: { filePath: 'README.md' } });
    assert.match(read.content[0].text, /Inventory service/);
    await client.close(); // its session ends: it moves to "Ended sessions"
    fs.rmSync(terminal.HOME, { recursive: true, force: true });
  });

  test('the Sessions view shows the ended sessions with what they did (screenshot)', async () => {
    await runCommand(page, 'ReadGate: Focus on Sessions View');
    const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Sessions' }) });
    const ended = view.locator('.monaco-list-row', { hasText: 'Ended sessions' });
    await until('three ended sessions', async () => (await ended.innerText()).includes('3'));
    if ((await ended.getAttribute('aria-expanded')) !== 'true') await ended.click();
    const texts = await until('the ended sessions listed', async () => {
      const all = (await view.locator('.monaco-list-row').allInnerTexts()).join('\n');
      return all.includes('Claude Code 2.0.14') ? all : undefined;
    });
    assert.match(texts, /Apply Patch \(the fresh sample patch\)/);
    assert.match(texts, /Apply Patch \(the stale sample patch\)/);
    await shot('08-sessions-view-ended');
  });

  test("6. Guard Copilot's Own Tools turns the agent hooks on and says what they guard; step 6 ticks", async () => {
    await runCommand(page, 'ReadGate: Get Started');
    await clickStepButton(page, STEPS[5], "Guard Copilot's Own Tools");
    const said = await until('the confirmation', async () => (await notifications(page)).find((text) => text.includes('ReadGate now judges the file tools')));
    assert.match(said, /Terminal commands stay unguarded/);
    await shot('09a-copilot-own-tools');
    await page.locator('.notification-toast').first().hover();
    await page.keyboard.press('Escape');
    await runCommand(page, 'Notifications: Clear All Notifications');
    await runCommand(page, 'ReadGate: Get Started');
    await expectTicked(6, 'step 6 once the setting is on');
  });

  test('7. Open ReadGate Settings, pick what waits for approval: step 7 ticks, and every step is ticked in order', async () => {
    await runCommand(page, 'ReadGate: Get Started');
    await clickStepButton(page, STEPS[6], 'Open ReadGate Settings');
    // npm start's VS Code is a remote window: the approval settings (machine-scoped) are on its Remote tab only,
    // which the button opens. The settings list renders only what is in view: narrow it to the one setting.
    const search = page.locator('.settings-editor .settings-header .suggest-input-container');
    await search.waitFor();
    await search.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('readgate.approval.mode');
    const select = page.locator('.settings-editor .setting-item-enum select').first();
    await select.waitFor();
    await shot('09-settings');
    await select.click(); // VS Code draws the drop-down itself
    await page.locator('.monaco-select-box-dropdown-container .monaco-list-row', { hasText: 'sensitive' }).click();
    await until('the setting written', () => remoteSettings().includes('"readgate.approval.mode": "sensitive"'));
    await page.keyboard.press('Escape'); // closes the settings (a modal editor)
    await page.locator('.settings-editor').waitFor({ state: 'hidden' });
    await runCommand(page, 'ReadGate: Get Started');
    await expectTicked(7, 'every step, in order');
    await shot('10-walkthrough-done');
  });
});
