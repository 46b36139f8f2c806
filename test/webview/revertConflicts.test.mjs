// Browser tests of a revert from the change history in the approval panel's page (`RequestView.revert`, and
// `conflicts` when later changes touch what it would restore): it reads as "Your revert", each conflict shows
// its file, its lines and both sides, its decision is "Take the Merged Parts" or Cancel and the keyboard help
// says so too; screenshots.
// Run: node esbuild.mjs && READGATE_TEST_LABEL=webview npx mocha --config test/webview/.mocharc.json
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { contrastOf, launchBrowser, openPanel, resultsDir } from './panelHarness.mjs';
import { INVENTORY_PATH, cleanRevertRequest, readmeRequest, revertConflictRequest } from './requestFixtures.mjs';

const cells = (page, selector) => page.$$eval(`${selector} tbody tr`, (rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));

suite('approval page: a revert with conflicts (webview in Chromium)', function () {
  this.timeout(60000);
  let browser;
  let panel;

  suiteSetup(async () => {
    fs.mkdirSync(resultsDir, { recursive: true });
    browser = await launchBrowser();
  });
  suiteTeardown(async () => {
    await browser?.close();
  });
  teardown(async () => {
    await panel?.close();
    panel = undefined;
  });

  async function assertClean() {
    assert.deepEqual(await panel.allProblems(), []);
  }

  async function openWith(requests, options) {
    panel = await openPanel(browser, options);
    await panel.send({ type: 'requests', requests });
    await panel.waitForRendered();
    return panel.page;
  }

  test('each conflict shows its file, its lines and both sides: what is there now (numbered) and what the revert wanted', async () => {
    const page = await openWith([revertConflictRequest()]);
    // What it does to which files is what it reverts, said right below: the title is only whose it is.
    assert.equal(await page.textContent('#request-title'), 'Your revert');
    assert.equal(await page.textContent('#explanation-title'), 'What it reverts');
    assert.equal(await page.textContent('#conflicts-title'), '1 conflict');
    assert.match(await page.textContent('.conflicts-intro'), /Take the merged parts to revert everything else; the lines below stay as they are now\. Cancel to write nothing\./);
    assert.equal(await page.textContent('.conflict-title'), 'src/inventory.ts');
    assert.equal(await page.getAttribute('.conflict-title', 'title'), INVENTORY_PATH);
    assert.equal(await page.textContent('.conflict-where'), 'Lines 14–15');
    assert.equal(await page.textContent('.conflict-now caption'), 'Now: stays as it is');
    assert.deepEqual(await cells(page, '.conflict-now'), [
      ['14', '  for (let i = 0; i < items.length; i++) {'],
      ['15', '    if (items[i].stock <= threshold) restock(items[i], batchSize);'],
    ]);
    assert.equal(await page.textContent('.conflict-wanted caption'), 'The revert wanted');
    assert.deepEqual(await cells(page, '.conflict-wanted'), [
      ['', '  for (let i = 0; i <= items.length; i++) {'],
      ['', '    if (items[i].stock < threshold) restock(items[i]);'],
    ]);
    // A screen reader meets the conflict as a group named by its file, and each place as a group named by its lines.
    const snapshot = await page.locator('.conflict').ariaSnapshot();
    assert.match(snapshot, /^- group "src\/inventory\.ts":/);
    assert.match(snapshot, /group "Lines 14–15"/);
    // The conflicts come before the decision, so they are read first.
    assert.ok(await page.$eval('.conflicts', (section) => Boolean(section.compareDocumentPosition(document.querySelector('.actions')) & Node.DOCUMENT_POSITION_FOLLOWING)));
    await assertClean();
  });

  test('"Take the Merged Parts" approves with takeMerged; Cancel rejects at once and writes nothing', async () => {
    const page = await openWith([revertConflictRequest(), revertConflictRequest('req-revert-2')]);
    assert.deepEqual(await page.$eval('[data-action="approve"]', (b) => [b.textContent, b.getAttribute('aria-label')]), [
      'Take the Merged Parts',
      'Take the merged parts: revert everything that does not conflict, and keep the conflicting lines as they are now',
    ]);
    assert.deepEqual(await page.$eval('[data-action="reject"]', (b) => [b.textContent, b.getAttribute('aria-label')]), ['Cancel', 'Cancel the revert: nothing is written']);
    assert.equal(await page.locator('#reject-form').count(), 0, 'no reason to give');
    // The keys are documented in the words of the buttons they press.
    assert.match(await page.textContent('.help'), /Ctrl\+Enter take the merged parts · Ctrl\+Backspace cancel · /);
    assert.equal(await page.locator('#allow-further').count(), 0, 'no grant for the user\u2019s own change');
    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-revert', revision: 0, rejectedHunks: {}, takeMerged: true }]);
    assert.equal(await panel.announcement(), 'Took the merged parts.');
    await page.click('[data-request="req-revert-2"]');
    await panel.waitForRendered();
    await page.click('[data-action="reject"]');
    assert.deepEqual(await panel.postedOfType('reject'), [{ type: 'reject', id: 'req-revert-2' }]);
    assert.equal(await panel.announcement(), 'Cancelled: nothing is written.');
    await assertClean();
  });

  test('a clean revert has no conflict section and approves without takeMerged', async () => {
    const page = await openWith([cleanRevertRequest()]);
    assert.equal(await page.locator('.conflicts').count(), 0);
    assert.equal(await page.textContent('[data-action="approve"]'), 'Approve');
    assert.match(await page.textContent('.help'), /Ctrl\+Enter approve · Ctrl\+Backspace cancel · /);
    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-revert-clean', revision: 0, rejectedHunks: {} }]);
    await assertClean();
  });

  test('a revert an extension asked for through the API is worded as its, never as the user\'s own', async () => {
    const request = { ...cleanRevertRequest('req-revert-api'), sessionLabel: 'an extension' };
    delete request.own;
    const page = await openWith([request]);
    assert.equal(await page.textContent('#request-title'), 'Revert from an extension');
    assert.doesNotMatch(await page.textContent('body'), /Your revert/);
    await assertClean();
  });

  test('an insertion the revert wanted reads "Before line N" with no lines now; malformed conflicts are ignored', async () => {
    const insertion = revertConflictRequest('req-insert');
    insertion.conflicts[0].ranges = [{ start: 9, end: 8, where: 'Before line 9', now: [], wanted: ['// restock in batches'] }];
    insertion.conflicts.push({ path: '/work/project/src/gone.ts', displayPath: 'src/gone.ts', reason: 'missing', summary: 'The file this change edited is gone.', ranges: [] });
    const page = await openWith([readmeRequest()]);
    const bad = [
      { ...revertConflictRequest('bad-1'), conflicts: [{ ...revertConflictRequest().conflicts[0], reason: 'other' }] },
      { ...revertConflictRequest('bad-2'), conflicts: [{ ...revertConflictRequest().conflicts[0], ranges: [{ start: 1, end: 1, now: ['x'] }] }] },
      { ...revertConflictRequest('bad-3'), conflicts: 'none' },
      { ...revertConflictRequest('bad-4'), revert: 'yes' },
    ];
    for (const request of bad) await panel.send({ type: 'requests', requests: [request] });
    assert.equal(await page.textContent('#request-title'), 'Edit a file by Chat: docs');
    await panel.send({ type: 'requests', requests: [insertion] });
    await panel.waitForRendered();
    assert.equal(await page.textContent('#conflicts-title'), '2 conflicts in 2 files');
    assert.deepEqual(await page.$$eval('.conflict-title', (titles) => titles.map((t) => t.textContent)), ['src/inventory.ts', 'src/gone.ts']);
    assert.equal(await page.textContent('.conflict-where'), 'Before line 9');
    assert.deepEqual(await cells(page, '.conflict-now'), [['No lines here now']]);
    assert.deepEqual(await cells(page, '.conflict-wanted'), [['', '// restock in batches']]);
    await assertClean();
  });

  test('where the revert wanted the lines gone, its side says "To remove these lines", not "No lines"', async () => {
    const removal = revertConflictRequest('req-remove');
    removal.conflicts[0].ranges = [{ start: 8, end: 9, where: 'Lines 8–9', now: ['// restock in batches', 'const batchSize = 12;'], wanted: [] }];
    const page = await openWith([removal]);
    assert.deepEqual(await cells(page, '.conflict-now'), [['8', '// restock in batches'], ['9', 'const batchSize = 12;']]);
    assert.deepEqual(await cells(page, '.conflict-wanted'), [['To remove these lines']]);
    assert.doesNotMatch(await page.textContent('.conflicts'), /No lines/);
    await assertClean();
  });

  for (const theme of ['light', 'dark', 'highContrast']) {
    test(`${theme} theme: the conflict reads well (contrast) and a screenshot`, async () => {
      const page = await openWith([revertConflictRequest()], { theme, width: 1000, height: 760 });
      const low = [];
      for (const selector of ['.conflicts-title', '.conflicts-intro', '.conflict-title', '.conflict-summary', '.conflict-where', '.conflict-now caption', '.conflict-now .code', '.conflict-wanted .code', '.conflict-now .num']) {
        const ratio = await contrastOf(page, selector);
        if (ratio < 4.5) low.push(`${selector}: ${ratio.toFixed(2)}`);
      }
      assert.deepEqual(low, [], 'text contrast');
      await page.screenshot({ path: path.join(resultsDir, `revert-conflict-${theme}.png`), fullPage: true });
      await assertClean();
    });
  }
});
