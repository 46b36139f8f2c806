// Browser tests of deletions and moves in the approval panel's page: how a deleted file, a moved file and a
// request mixing them with edits read (to the eye and to a screen reader), that they are approved or rejected
// whole while a moved file's content edits keep their hunk toggles, and screenshots in the three themes.
// Run: node esbuild.mjs && READGATE_TEST_LABEL=webview npx mocha --config test/webview/.mocharc.json
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { contrastOf, launchBrowser, openPanel, resultsDir } from './panelHarness.mjs';
import { LEGACY_PATH, MAIN_PATH, OLD_MOD_PATH, deleteRequest, mixedRequest, moveRequest, readmeRequest } from './requestFixtures.mjs';

const rowsOf = (page, fileIndex) =>
  page.$$eval(`.file[data-file-index="${fileIndex}"] .ln`, (rows) => rows.filter((row) => !row.closest('[hidden]')).map((row) => [...row.children].map((cell) => cell.textContent)));

/** How a screen reader meets a file's region: its role and accessible name (the first line of its ARIA snapshot). */
const regionName = async (page, fileIndex) => (await page.locator(`.file[data-file-index="${fileIndex}"]`).ariaSnapshot()).split('\n')[0];

suite('approval page: deletions and moves (webview in Chromium)', function () {
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

  test('a deletion says so with its line count, shows the old content as removed lines, collapsed beyond 20 until shown', async () => {
    const page = await openWith([deleteRequest(45)]);
    assert.equal(await page.textContent('#request-title'), 'Delete a file by Chat: cleanup');
    assert.equal(await page.textContent('.badge-deleted'), 'Deleted · 45 lines');
    assert.equal(await regionName(page, 0), '- region "app/legacy.py Deleted · 45 lines":');
    assert.equal(await page.getAttribute('[role="table"]', 'aria-label'), 'Content of app/legacy.py, deleted');
    assert.match(await page.textContent('.file-note'), /approved or rejected whole: to keep this file, reject the request/);
    assert.equal(await page.$('.hunk-toggle'), null, 'no hunk of a deletion can be rejected on its own');

    const first = await rowsOf(page, 0);
    assert.equal(first.length, 20);
    assert.deepEqual(first[0], ['1', '', '"""Helpers kept for the old importer; nothing calls them any more."""']);
    assert.ok((await page.$$eval('.file .ln', (rows) => rows.every((row) => row.classList.contains('k-removed')))), 'every line is a removed line');
    assert.equal(await page.textContent('.file .gap .gap-text'), '⋯ 25 more lines of the deleted file');
    const show = '[data-action="toggle-collapsed"]';
    assert.deepEqual(await page.$eval(show, (b) => [b.textContent, b.getAttribute('aria-expanded'), b.getAttribute('aria-label')]), ['Show', 'false', 'Show lines 21–45 of the deleted file']);

    await page.focus(show);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.file .ln').length === 45 && !document.querySelector('.chunk.pending'));
    assert.deepEqual((await rowsOf(page, 0)).at(-1).slice(0, 2), ['45', '']);
    assert.deepEqual(await page.$eval(show, (b) => [b.textContent, b.getAttribute('aria-expanded'), b.getAttribute('aria-label')]), ['Hide', 'true', 'Hide lines 21–45 of the deleted file']);
    assert.equal(await page.evaluate(() => document.activeElement.dataset.focus), 'collapsed:0', 'focus stays on the toggle');
    // Shown lines stay shown when the layout changes.
    await page.click('[data-layout="sideBySide"]');
    await panel.waitForRendered();
    assert.equal((await rowsOf(page, 0)).length, 45);
    await page.click(show);
    assert.equal((await rowsOf(page, 0)).length, 20);

    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-delete', revision: 0, rejectedHunks: {} }]);
    await assertClean();
  });

  test('a short deleted file is shown whole; an empty one says so', async () => {
    const empty = deleteRequest(0, 'req-empty');
    empty.files[0].hunks = [];
    const page = await openWith([deleteRequest(12), empty]);
    assert.equal((await rowsOf(page, 0)).length, 12);
    assert.equal(await page.$('[data-action="toggle-collapsed"]'), null);
    await page.click('[data-request="req-empty"]');
    await panel.waitForRendered();
    assert.equal(await page.textContent('.badge-deleted'), 'Deleted · 0 lines');
    assert.equal(await page.textContent('.file .gap-cell'), 'Empty file, deleted');
    await assertClean();
  });

  test('a move shows "old path → new path", read as "moved to", and "moved, content unchanged" when nothing else changes', async () => {
    const page = await openWith([moveRequest()]);
    assert.equal(await page.textContent('#request-title'), 'Move a file by Chat: cleanup');
    // What the eye sees (the screen-reader text is clipped away) and what a screen reader hears (the arrow is hidden).
    const seen = await page.$eval('.file-title', (title) => {
      const copy = title.cloneNode(true);
      copy.querySelectorAll('.sr-only').forEach((node) => node.remove());
      return copy.textContent;
    });
    assert.equal(seen, 'app/old/mod.py → app/core/mod.py');
    assert.equal(await page.$eval('.move-arrow', (a) => a.getAttribute('aria-hidden')), 'true');
    assert.equal(await page.textContent('.file-title .sr-only'), ' moved to ');
    assert.equal(await regionName(page, 0), '- region "app/old/mod.py moved to app/core/mod.py Moved":');
    assert.equal(await page.textContent('.file .gap-cell'), 'Moved, content unchanged');
    assert.match(await page.textContent('.file-note'), /The move is approved or rejected with the whole request/);
    assert.equal(await page.locator('#allow-further').count(), 0, 'a grant would cover edits only: nothing to offer');
    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-move', revision: 0, rejectedHunks: {} }]);
    await assertClean();
  });

  test('a request mixing an edit, a move with an edit, a creation and a deletion: "Change 4 files", each file says what happens to it', async () => {
    const page = await openWith([mixedRequest(), readmeRequest()]);
    assert.equal(await page.textContent('#request-title'), 'Change 4 files by Chat: restructure');
    assert.match(await page.textContent('.request-meta'), /^4 files: 1 edited, 1 created, 1 moved, 1 deleted · /);
    assert.deepEqual(await page.$$eval('.queue-item', (items) => items.map((i) => i.getAttribute('aria-label'))), ['Chat: restructure: Change 4 files', 'Chat: docs: Edit a file']);
    assert.deepEqual(await page.$$eval('.file .badge', (badges) => badges.map((b) => b.textContent)), ['Moved and edited', 'New file', 'Deleted · 45 lines']);
    // The deletion has no toggle; the move's content edit has one, as an edit does.
    assert.deepEqual(await page.$$eval('.hunk-toggle', (buttons) => buttons.map((b) => b.getAttribute('aria-label'))), [
      'Reject hunk 1 of 1 in app/main.py',
      'Reject hunk 1 of 1 in app/old/mod.py',
      'Reject hunk 1 of 1 in app/core/__init__.py',
    ]);
    const reached = [];
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      const key = await page.evaluate(() => document.activeElement?.dataset.focus ?? document.activeElement?.tagName);
      if (reached.includes(key)) break;
      reached.push(key);
    }
    assert.deepEqual(reached, ['queue:req-mixed', 'queue:req-readme', 'approve', 'reject', 'allow-further', 'layout:inline', 'layout:sideBySide', 'open:0', 'hunk:0:0', 'open:1', 'hunk:1:0', 'open:2', 'hunk:2:0', 'open:3', 'collapsed:3', 'BODY']);

    await page.click('.file[data-file-index="1"] .hunk-toggle');
    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-mixed', revision: 1, rejectedHunks: { [OLD_MOD_PATH]: [0] } }]);
    await assertClean();
  });

  test('rejecting every content hunk still approves the move and the deletion, and the hint says so', async () => {
    const page = await openWith([mixedRequest()]);
    for (const toggle of await page.$$('.hunk-toggle')) await toggle.click();
    assert.equal(await page.getAttribute('[data-action="approve"]', 'aria-disabled'), 'false');
    assert.equal(await page.textContent('#approve-hint'), 'Every hunk is rejected: only the move and the deletion will be applied.');
    await page.click('[data-action="approve"]');
    const [approve] = await panel.postedOfType('approve');
    assert.deepEqual(Object.keys(approve.rejectedHunks).sort(), ['/work/project/app/core/__init__.py', MAIN_PATH, OLD_MOD_PATH].sort());
    assert.equal(approve.rejectedHunks[LEGACY_PATH], undefined, 'nothing is ever named for the deleted file');
    await assertClean();
  });

  test('malformed deletions and moves are ignored; well-formed ones are shown', async () => {
    const page = await openWith([readmeRequest()]);
    const bad = [
      { ...deleteRequest(), operation: 'format' },
      { ...deleteRequest(), files: [{ ...deleteRequest().files[0], deleted: 'yes' }] },
      { ...moveRequest(), files: [{ ...moveRequest().files[0], movedToDisplay: undefined }] },
      { ...moveRequest(), files: [{ ...moveRequest().files[0], movedTo: 7 }] },
      { ...moveRequest(), files: [{ ...moveRequest().files[0], deleted: true }] },
      { ...readmeRequest(), own: 'yes' },
    ];
    for (const request of bad) await panel.send({ type: 'requests', requests: [request] });
    await panel.send({ type: 'focusRequest', id: 'req-readme', moveFocus: 'yes' });
    assert.equal(await page.textContent('#request-title'), 'Edit a file by Chat: docs');
    await panel.send({ type: 'requests', requests: [deleteRequest(), moveRequest()] });
    await panel.waitForRendered();
    assert.equal(await page.textContent('#request-title'), 'Delete a file by Chat: cleanup');
    await assertClean();
  });

  for (const theme of ['light', 'dark', 'highContrast']) {
    test(`${theme} theme: a move with an edit and a deletion read well; focus shows as a 2 px focusBorder outline; screenshots`, async () => {
      const page = await openWith([mixedRequest(), readmeRequest()], { theme, width: 1000, height: 1400 });
      const low = [];
      for (const selector of ['.file-title', '.badge-deleted', '.badge-moved', '.file-note', '.gap-text', '[data-action="toggle-collapsed"]', '.ln.k-removed .code']) {
        const ratio = await contrastOf(page, selector);
        if (ratio < 4.5) low.push(`${selector}: ${ratio.toFixed(2)}`);
      }
      assert.deepEqual(low, [], 'text contrast');
      // Every stop of the Tab order shows the focus ring in the theme's focusBorder colour, at least 2 px wide.
      const focusBorder = await page.evaluate(() => {
        const probe = document.createElement('span');
        probe.style.setProperty('color', 'var(--vscode-focusBorder)');
        document.body.append(probe);
        const colour = getComputedStyle(probe).color;
        probe.remove();
        return colour;
      });
      const rings = [];
      for (let i = 0; i < 16; i++) {
        await page.keyboard.press('Tab');
        rings.push(await page.evaluate(() => {
          const style = getComputedStyle(document.activeElement);
          return [document.activeElement.dataset.focus, style.outlineStyle, parseFloat(style.outlineWidth), style.outlineColor];
        }));
      }
      const weak = rings.filter(([key, style, width, colour]) => key && (style === 'none' || width < 2 || colour !== focusBorder));
      assert.deepEqual(weak, [], `focus rings (focusBorder ${focusBorder})`);

      await page.focus('[data-action="toggle-collapsed"]');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(resultsDir, `delete-move-${theme}-inline.png`), fullPage: true });
      await page.click('[data-layout="sideBySide"]');
      await panel.waitForRendered();
      await page.screenshot({ path: path.join(resultsDir, `delete-move-${theme}-side-by-side.png`), fullPage: true });
      await assertClean();
    });
  }
});
