// Browser tests of the user's own change in the approval panel's page (Apply Patch: `RequestView.own`): it reads
// as "Your patch", never as an agent's, its explanation is its source, rejecting it is a plain cancel, and it is
// the one request the page gives keyboard focus to; screenshots in the three themes.
// Run: node esbuild.mjs && READGATE_TEST_LABEL=webview npx mocha --config test/webview/.mocharc.json
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, openPanel, resultsDir } from './panelHarness.mjs';
import { ownPatchRequest, readmeRequest, twoFileRequest } from './requestFixtures.mjs';

const focusKey = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-focus') ?? document.activeElement?.tagName);

suite('approval page: the user\u2019s own patch (webview in Chromium)', function () {
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

  test('reads as "Your patch": no agent, its source instead of a reason, no "don\u2019t ask again"', async () => {
    const page = await openWith([twoFileRequest(), ownPatchRequest()]);
    await page.click('[data-request="req-own"]');
    await panel.waitForRendered();
    assert.equal(await page.textContent('#request-title'), 'Your patch · Edit a file');
    assert.equal(await page.textContent('#explanation-title'), 'Patch source');
    assert.equal(await page.textContent('.explanation-text'), 'Apply the patch from the clipboard (unified diff): README.md');
    assert.deepEqual(await page.$$eval('.queue-item', (items) => items.map((i) => i.getAttribute('aria-label'))), ['Chat: server setup: Change 2 files', 'Your patch: Edit a file']);
    const text = await page.textContent('main');
    for (const agentWording of [/agent/i, / by Apply Patch/, /Reason for/]) assert.doesNotMatch(text, agentWording);
    assert.equal(await page.locator('#allow-further').count(), 0);
    assert.equal(await page.locator('#reject-form').count(), 0, 'no reason to give');
    assert.deepEqual(await page.$eval('[data-action="reject"]', (b) => [b.textContent, b.getAttribute('aria-label'), b.hasAttribute('aria-expanded')]), ['Reject', 'Reject your patch: nothing is applied', false]);
    await assertClean();
  });

  test('Reject is a plain cancel: one click (or Ctrl+Backspace) posts a reject with no reason', async () => {
    const page = await openWith([ownPatchRequest(), readmeRequest()]);
    // The help names the keys by their buttons: Approve and Reject.
    assert.equal(await page.textContent('[data-action="reject"]'), 'Reject');
    assert.match(await page.textContent('.help'), /Ctrl\+Enter approve · Ctrl\+Backspace reject · /);
    await page.click('[data-action="reject"]');
    assert.deepEqual(await panel.postedOfType('reject'), [{ type: 'reject', id: 'req-own' }]);
    assert.equal(await panel.announcement(), 'Rejected: your patch is not applied.');
    await panel.send({ type: 'requests', requests: [ownPatchRequest('req-own-2')] });
    await panel.waitForRendered();
    await page.keyboard.press('Control+Backspace');
    assert.deepEqual((await panel.postedOfType('reject')).at(-1), { type: 'reject', id: 'req-own-2' });
    await assertClean();
  });

  test('focusRequest with moveFocus selects the user\u2019s patch and focuses its title, with a visible ring; an agent\u2019s focusRequest never moves focus', async () => {
    const page = await openWith([twoFileRequest()]);
    await panel.send({ type: 'focusRequest', id: 'req-multi' });
    assert.equal(await focusKey(page), 'BODY', 'an agent\u2019s request does not take focus');
    // As the extension sends it for a new patch: the queue, then the request to focus.
    await panel.send({ type: 'requests', requests: [twoFileRequest(), ownPatchRequest()] });
    await panel.send({ type: 'focusRequest', id: 'req-own', moveFocus: true });
    await panel.waitForRendered();
    assert.equal(await page.textContent('#request-title'), 'Your patch · Edit a file');
    assert.equal(await focusKey(page), 'title');
    const ring = await page.$eval('#request-title', (title) => [getComputedStyle(title).outlineStyle, parseFloat(getComputedStyle(title).outlineWidth)]);
    assert.equal(ring[0], 'solid');
    assert.ok(ring[1] >= 2, `outline ${ring[1]} px`);
    assert.match(await panel.announcement(), /Showing request 2 of 2, your patch, Edit a file\./);
    // Tab goes on to the decision.
    await page.keyboard.press('Tab');
    assert.equal(await focusKey(page), 'approve');
    await assertClean();
  });

  test('a focusRequest that arrives before its request is kept until the request comes', async () => {
    // The extension posts both at once; a reloaded page may get them in either order.
    panel = await openPanel(browser);
    await panel.send({ type: 'focusRequest', id: 'req-own', moveFocus: true });
    await panel.send({ type: 'requests', requests: [readmeRequest(), ownPatchRequest()] });
    await panel.waitForRendered();
    assert.equal(await panel.page.textContent('#request-title'), 'Your patch · Edit a file');
    assert.equal(await focusKey(panel.page), 'title');
    await assertClean();
  });

  for (const theme of ['light', 'dark', 'highContrast']) {
    test(`${theme} theme: "Your patch" under review, focused (screenshot)`, async () => {
      const page = await openWith([ownPatchRequest()], { theme, width: 1000, height: 620 });
      await panel.send({ type: 'focusRequest', id: 'req-own', moveFocus: true });
      assert.equal(await focusKey(page), 'title');
      await page.screenshot({ path: path.join(resultsDir, `your-patch-${theme}.png`) });
      await assertClean();
    });
  }
});
