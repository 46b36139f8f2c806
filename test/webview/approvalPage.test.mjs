// Browser tests of the approval panel's page (media/approval → dist/webview/approval.{js,css}), in headless
// Debian Chromium under the panel's real CSP. Each test opens a fresh panel and fails on any CSP violation,
// page error, console error or network request (see panelHarness.mjs).
// Run: node esbuild.mjs && READGATE_TEST_LABEL=webview npx mocha --config test/webview/.mocharc.json
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { contrastOf, launchBrowser, openPanel, resultsDir } from './panelHarness.mjs';
import { EXPLANATION, HEALTH_PATH, SERVER_PATH, bigRewriteRequest, manyHunksRequest, readmeRequest, twoFileRequest } from './requestFixtures.mjs';

/** The rows of one hunk as `[old number, new number, kind, text]` (inline) or per side (side by side). */
async function inlineRowsOf(page, fileIndex, hunkIndex) {
  return page.$$eval(`.file[data-file-index="${fileIndex}"] .hunk[data-hunk-index="${hunkIndex}"] .ln`, (rows) =>
    rows.map((row) => {
      const [oldNum, newNum, code] = row.children;
      return [oldNum.textContent, newNum.textContent, code.dataset.kind, code.textContent];
    }),
  );
}

async function focusKey(page) {
  return page.evaluate(() => document.activeElement?.getAttribute('data-focus') ?? document.activeElement?.tagName);
}

const toggle = (fileIndex, hunkIndex) => `.file[data-file-index="${fileIndex}"] .hunk[data-hunk-index="${hunkIndex}"] .hunk-toggle`;

suite('approval page (webview in Chromium)', function () {
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

  /** Every test ends here: the strict CSP saw nothing blocked, and nothing threw or went to the network. */
  async function assertClean() {
    assert.deepEqual(await panel.allProblems(), []);
  }

  async function openWith(requests, options) {
    panel = await openPanel(browser, options);
    await panel.send({ type: 'requests', requests });
    await panel.waitForRendered();
    return panel.page;
  }

  test('builds inside the panel HTML\'s root with exactly one main landmark', async () => {
    // The page is served with the real panel HTML (panelHtml.ts); an extra labelled landmark would confuse screen readers.
    const page = await openWith([twoFileRequest()]);
    assert.equal(await page.$$eval('main, [role="main"]', (nodes) => nodes.length), 1);
    assert.equal(await page.$eval('#approval-root', (root) => root.querySelector('main') !== null), true);
    await assertClean();
  });

  test('posts ready on load, then renders a two-file multiEdit request: paths, reason, hunks, line numbers, new-file badge', async () => {
    panel = await openPanel(browser);
    assert.deepEqual(await panel.posted(), [{ type: 'ready' }]);
    await panel.send({ type: 'requests', requests: [twoFileRequest()] });
    await panel.waitForRendered();
    const { page } = panel;

    assert.equal(await page.textContent('#request-title'), 'Change 2 files by Chat: server setup');
    assert.deepEqual(await page.$$eval('.file-title', (titles) => titles.map((t) => [t.textContent, t.title])), [
      ['src/server.ts', SERVER_PATH],
      ['src/health.ts', HEALTH_PATH],
    ]);
    assert.equal(await page.$('.file[data-file-index="0"] .badge-new'), null, 'an existing file has no "new file" badge');
    assert.equal(await page.textContent('.file[data-file-index="1"] .badge-new'), 'New file');
    assert.deepEqual(await page.$$eval('[role="table"]', (tables) => tables.map((t) => t.getAttribute('aria-label'))), ['Changes to src/server.ts', 'Changes to src/health.ts']);

    // The agent's reason is untrusted text: markup in it shows literally and creates no element.
    assert.equal(await page.textContent('.explanation-text'), EXPLANATION);
    assert.equal(await page.$('.explanation b, .explanation img'), null);
    assert.equal(await page.evaluate(() => window.__pwned), undefined);

    assert.deepEqual(await page.$$eval('.hunk-toggle', (buttons) => buttons.map((b) => [b.getAttribute('aria-label'), b.getAttribute('aria-pressed')])), [
      ['Reject hunk 1 of 2 in src/server.ts', 'false'],
      ['Reject hunk 2 of 2 in src/server.ts', 'false'],
      ['Reject hunk 1 of 1 in src/health.ts', 'false'],
    ]);
    assert.deepEqual(await inlineRowsOf(page, 0, 0), [
      ['8', '8', 'context', "import { createServer } from 'node:http';"],
      ['9', '9', 'context', "import { router } from './router';"],
      ['10', '10', 'context', ''],
      ['11', '', 'removed', 'const port = 8080;'],
      ['', '11', 'added', 'const port = Number(process.env.PORT ?? 8080);'],
      ['', '12', 'added', "const host = process.env.HOST ?? '127.0.0.1';"],
      ['12', '13', 'context', ''],
      ['13', '14', 'context', 'export function start() {'],
      ['14', '15', 'context', '  const server = createServer(router);'],
    ]);
    // Only the differing part of a replaced line is highlighted as changed text.
    assert.deepEqual(await page.$$eval('.file[data-file-index="0"] .hunk[data-hunk-index="0"] .chg', (spans) => spans.map((s) => s.textContent)), ['8080', 'Number(process.env.PORT ?? 8080)']);
    assert.deepEqual(await inlineRowsOf(page, 1, 0).then((rows) => rows.map(([o, n, kind]) => [o, n, kind])), [1, 2, 3, 4, 5, 6, 7].map((n) => ['', String(n), 'added']));
    // Unchanged regions between hunks are collapsed: 1-7 before, 15-95 between, 103-120 after.
    assert.deepEqual(await page.$$eval('.file[data-file-index="0"] .gap', (gaps) => gaps.map((g) => g.textContent)), ['⋯ 7 unchanged lines', '⋯ 81 unchanged lines', '⋯ 18 unchanged lines']);
    assert.equal(await page.$('.file[data-file-index="1"] .gap'), null);

    assert.deepEqual(await page.$$eval('.queue-item', (items) => items.map((i) => [i.textContent, i.getAttribute('aria-current')])), [['Chat: server setupChange 2 files', 'true']]);
    assert.match(await page.textContent('.help'), /Ctrl\+Enter approve.*Ctrl\+Backspace reject.*j k next\/previous hunk.*Space toggle hunk.*v inline\/side by side.*\[ \] previous\/next request/);
    assert.match(await panel.announcement(), /1 approval request pending/);
    await assertClean();
  });

  test('shows the notice prominently above the diff and announces it', async () => {
    const request = { ...twoFileRequest(), notice: 'src/server.ts changed on disk during review; the diff is against its new content.' };
    const page = await openWith([request]);
    assert.equal(await page.textContent('.notice-text'), request.notice);
    const [noticeTop, diffTop] = await Promise.all([page.$eval('.notice', (n) => n.getBoundingClientRect().top), page.$eval('.file', (f) => f.getBoundingClientRect().top)]);
    assert.ok(noticeTop < diffTop, 'the notice comes before the diff');
    assert.match(await panel.announcement(), /Notice: src\/server\.ts changed on disk/);
    await assertClean();
  });

  test('lists every pending request and switches the active one on focusRequest and on click', async () => {
    const page = await openWith([twoFileRequest(), readmeRequest()]);
    assert.deepEqual(await page.$$eval('.queue-item', (items) => items.map((i) => i.getAttribute('aria-label'))), ['Chat: server setup: Change 2 files', 'Chat: docs: Edit a file']);
    await panel.send({ type: 'focusRequest', id: 'req-readme' });
    await panel.waitForRendered();
    assert.equal(await page.textContent('#request-title'), 'Edit a file by Chat: docs');
    assert.equal(await page.getAttribute('[data-request="req-readme"]', 'aria-current'), 'true');
    await page.click('[data-request="req-multi"]');
    assert.equal(await page.textContent('#request-title'), 'Change 2 files by Chat: server setup');
    assert.equal(await page.getAttribute('[data-request="req-readme"]', 'aria-current'), null);
    await assertClean();
  });

  test('rejecting one hunk greys it out, announces it, and Approve posts its index under the file path', async () => {
    const page = await openWith([twoFileRequest()]);
    await page.click(toggle(0, 1));
    assert.equal(await page.getAttribute(toggle(0, 1), 'aria-pressed'), 'true');
    const look = await page.$eval('.file[data-file-index="0"] .hunk[data-hunk-index="1"]', (hunk) => ({
      rejected: hunk.classList.contains('rejected'),
      opacity: Number(getComputedStyle(hunk.querySelector('.chunk')).opacity),
      decoration: getComputedStyle(hunk.querySelector('.code')).textDecorationLine,
      statusShown: getComputedStyle(hunk.querySelector('.hunk-status')).display !== 'none',
    }));
    assert.deepEqual(look, { rejected: true, opacity: 0.45, decoration: 'line-through', statusShown: true });
    assert.equal(await panel.announcement(), 'Hunk 2 of 2 in src/server.ts rejected. 2 of 3 hunks will be applied.');
    assert.equal(await page.textContent('#approve-hint'), '1 of 3 hunks rejected; only the others will be applied.');

    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-multi', revision: 2, rejectedHunks: { [SERVER_PATH]: [1] } }]);
    // A decision is sent once: the buttons wait for the extension's next queue.
    assert.equal(await page.getAttribute('[data-action="approve"]', 'aria-disabled'), 'true');
    await page.click('[data-action="approve"]', { force: true });
    assert.equal((await panel.postedOfType('approve')).length, 1);
    await assertClean();
  });

  test('"Don\u2019t ask again for these files in this session" is sent with the approval only when checked', async () => {
    const page = await openWith([twoFileRequest()]);
    assert.equal(await page.isChecked('#allow-further'), false);
    await page.check('#allow-further');
    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-multi', revision: 2, rejectedHunks: {}, allowFurtherEdits: true }]);
    await assertClean();
  });

  test('a request of a one-call session (a tool call without a chat session) offers no "don\u2019t ask again"', async () => {
    const page = await openWith([{ ...readmeRequest(), revision: 0, sessionLabel: 'A tool call without a chat session', oneCall: true }]);
    assert.equal(await page.locator('#allow-further').count(), 0);
    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-readme', revision: 0, rejectedHunks: {} }]);
    await assertClean();
  });

  test('Approve is disabled, with a hint to use Reject, when every hunk of every file is rejected', async () => {
    const page = await openWith([twoFileRequest()]);
    for (const [f, h] of [[0, 0], [0, 1], [1, 0]]) await page.click(toggle(f, h));
    assert.equal(await page.getAttribute('[data-action="approve"]', 'aria-disabled'), 'true');
    assert.equal(await page.textContent('#approve-hint'), 'Every hunk is rejected: use Reject instead.');
    // aria-disabled (not `disabled`) keeps the button focusable so its hint is read; a click must still do nothing.
    await page.click('[data-action="approve"]', { force: true });
    assert.deepEqual(await panel.postedOfType('approve'), []);
    assert.match(await panel.announcement(), /nothing to approve\. Use Reject/);

    await page.click(toggle(1, 0));
    assert.equal(await page.getAttribute('[data-action="approve"]', 'aria-disabled'), 'false');
    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-multi', revision: 2, rejectedHunks: { [SERVER_PATH]: [0, 1] } }]);
    await assertClean();
  });

  test('Reject reveals a reason field; sending posts the reason, or no reason when left empty', async () => {
    const page = await openWith([twoFileRequest(), readmeRequest()]);
    assert.equal(await page.isVisible('#reject-reason'), false);
    await page.click('[data-action="reject"]');
    assert.equal(await page.getAttribute('[data-action="reject"]', 'aria-expanded'), 'true');
    assert.equal(await focusKey(page), 'reason');
    await page.fill('#reject-reason', '  Keep port 8080; only add the health check.  ');
    await page.click('[data-action="send-rejection"]');
    assert.deepEqual(await panel.postedOfType('reject'), [{ type: 'reject', id: 'req-multi', reason: 'Keep port 8080; only add the health check.' }]);

    await panel.send({ type: 'requests', requests: [readmeRequest()] });
    await panel.waitForRendered();
    await page.click('[data-action="reject"]');
    await page.click('[data-action="send-rejection"]');
    assert.deepEqual((await panel.postedOfType('reject'))[1], { type: 'reject', id: 'req-readme' });
    await assertClean();
  });

  test('"Open in diff editor" posts the request and the file path', async () => {
    const page = await openWith([twoFileRequest()]);
    await page.click('.file[data-file-index="1"] [data-action="open-diff"]');
    assert.deepEqual(await panel.postedOfType('openDiff'), [{ type: 'openDiff', id: 'req-multi', path: HEALTH_PATH }]);
    assert.equal(await page.getAttribute('.file[data-file-index="1"] [data-action="open-diff"]', 'aria-label'), 'Open src/health.ts in the diff editor');
    await assertClean();
  });

  test('Tab reaches every action: the queue, Approve, Reject, the layout toggle, and each file and hunk', async () => {
    const page = await openWith([twoFileRequest(), readmeRequest()]);
    const reached = [];
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press('Tab');
      const key = await focusKey(page);
      if (reached.includes(key)) break;
      reached.push(key);
    }
    assert.deepEqual(reached, ['queue:req-multi', 'queue:req-readme', 'approve', 'reject', 'allow-further', 'layout:inline', 'layout:sideBySide', 'open:0', 'hunk:0:0', 'hunk:0:1', 'open:1', 'hunk:1:0', 'BODY']);
    await assertClean();
  });

  test('keyboard only: j/k move focus between hunk toggles, Space toggles, Ctrl+Enter approves', async () => {
    const page = await openWith([twoFileRequest()]);
    const keys = [];
    for (const key of ['j', 'j', 'j', 'j', 'k']) {
      await page.keyboard.press(key);
      keys.push(await focusKey(page));
    }
    assert.deepEqual(keys, ['hunk:0:0', 'hunk:0:1', 'hunk:1:0', 'hunk:1:0', 'hunk:0:1']);
    await page.keyboard.press('Space');
    assert.equal(await page.getAttribute(toggle(0, 1), 'aria-pressed'), 'true');
    assert.match(await panel.announcement(), /Hunk 2 of 2 in src\/server\.ts rejected/);
    await page.keyboard.press('Control+Enter');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-multi', revision: 2, rejectedHunks: { [SERVER_PATH]: [1] } }]);
    await assertClean();
  });

  test('keyboard only: Ctrl+Backspace opens the reason field, letters typed there are text, Ctrl+Enter in it sends the rejection', async () => {
    const page = await openWith([twoFileRequest(), readmeRequest()]);
    await page.keyboard.press('Control+Backspace');
    assert.equal(await focusKey(page), 'reason');
    await page.keyboard.type('nope');
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('#reject-reason'), false, 'Escape closes the form');
    assert.equal(await focusKey(page), 'reject');

    await page.keyboard.press('Control+Backspace');
    const reason = 'Just keep v1 [k] as is';
    await page.keyboard.type(reason);
    assert.equal(await page.inputValue('#reject-reason'), reason);
    assert.equal(await page.textContent('#request-title'), 'Change 2 files by Chat: server setup', '[ and ] typed in the field do not switch requests');
    assert.equal(await page.$('.diff-sideBySide'), null, 'v typed in the field does not switch the layout');
    await page.keyboard.press('Control+Enter');
    assert.deepEqual(await panel.postedOfType('reject'), [{ type: 'reject', id: 'req-multi', reason }]);
    assert.deepEqual(await panel.postedOfType('approve'), [], 'Ctrl+Enter in the reason field never approves');
    await assertClean();
  });

  test('keyboard only: v switches inline/side by side, [ and ] switch requests', async () => {
    const page = await openWith([twoFileRequest(), readmeRequest()]);
    await page.keyboard.press('v');
    await panel.waitForRendered();
    assert.equal(await page.$$eval('.diff-sideBySide', (d) => d.length), 2);
    assert.equal(await page.getAttribute('[data-layout="sideBySide"]', 'aria-pressed'), 'true');
    await page.keyboard.press(']');
    assert.equal(await page.textContent('#request-title'), 'Edit a file by Chat: docs');
    assert.equal(await focusKey(page), 'title');
    await page.keyboard.press(']');
    assert.match(await panel.announcement(), /last request/);
    await page.keyboard.press('[');
    assert.equal(await page.textContent('#request-title'), 'Change 2 files by Chat: server setup');
    await page.keyboard.press('v');
    assert.equal(await page.$$eval('.diff-inline', (d) => d.length), 2);
    await assertClean();
  });

  test('j/k scroll each focused hunk into view below the sticky decision bar', async () => {
    const page = await openWith([manyHunksRequest(30)], { height: 600 });
    const seen = [];
    for (const key of [...'jjjjjjjjjjjjjjjjjjjjjjjjjjjjjjj', ...'kkkkk']) {
      await page.keyboard.press(key);
      seen.push(
        await page.evaluate(() => {
          const toggle = document.activeElement.getBoundingClientRect();
          const bar = document.querySelector('.actions').getBoundingClientRect();
          return { key: document.activeElement.dataset.focus, visible: toggle.top >= bar.bottom && toggle.bottom <= window.innerHeight };
        }),
      );
    }
    assert.deepEqual(seen.filter((s) => !s.visible), [], 'every focused toggle is on screen, not under the bar');
    assert.deepEqual(seen.slice(29, 31).map((s) => s.key), ['hunk:0:29', 'hunk:0:29']);
    assert.equal(seen.at(-1).key, 'hunk:0:24');
    // Switching the layout keeps the focused hunk focused and on screen.
    await page.keyboard.press('v');
    await panel.waitForRendered();
    assert.deepEqual(
      await page.evaluate(() => {
        const toggle = document.activeElement.getBoundingClientRect();
        return [document.activeElement.dataset.focus, toggle.top >= document.querySelector('.actions').getBoundingClientRect().bottom && toggle.bottom <= window.innerHeight];
      }),
      ['hunk:0:24', true],
    );
    await assertClean();
  });

  test('a narrow panel wraps long labels, paths and lines instead of scrolling sideways', async () => {
    const request = twoFileRequest();
    request.sessionLabel = 'Chat: a very long session label that goes on and on and on';
    request.files[0].displayPath = 'packages/backend/src/some/deeply/nested/folder/withAVeryLongFileNameWithoutAnyBreaks.ts';
    request.files[0].hunks[0].lines[4].text = `const port = "${'x'.repeat(300)}";`;
    const page = await openWith([request, readmeRequest()], { width: 420 });
    for (const layout of ['inline', 'sideBySide']) {
      await page.click(`[data-layout="${layout}"]`);
      await panel.waitForRendered();
      assert.deepEqual(await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]), [420, 420], layout);
    }
    await assertClean();
  });

  test('side by side shows old and new line numbers aligned on each row, fillers where a side has no line', async () => {
    const request = twoFileRequest();
    // A long line wraps; the rows after it must stay aligned.
    request.files[0].hunks[0].lines[4].text = `const port = Number(process.env.PORT ?? 8080); // ${'long comment '.repeat(20)}`;
    const page = await openWith([request]);
    await page.click('[data-layout="sideBySide"]');
    await panel.waitForRendered();
    const rows = await page.$$eval('.file[data-file-index="0"] .hunk[data-hunk-index="0"] .ln', (lines) =>
      lines.map((row) => {
        const [oldNum, oldCode, newNum, newCode] = row.children;
        const kind = (cell) => [...cell.classList].find((c) => c.startsWith('k-'));
        return [oldNum.textContent, kind(oldCode), newNum.textContent, kind(newCode)];
      }),
    );
    assert.deepEqual(rows, [
      ['8', 'k-context', '8', 'k-context'],
      ['9', 'k-context', '9', 'k-context'],
      ['10', 'k-context', '10', 'k-context'],
      ['11', 'k-removed', '11', 'k-added'],
      ['', 'k-filler', '12', 'k-added'],
      ['12', 'k-context', '13', 'k-context'],
      ['13', 'k-context', '14', 'k-context'],
      ['14', 'k-context', '15', 'k-context'],
    ]);
    const geometry = await page.$$eval('.diff-sideBySide .ln', (lines) =>
      lines.map((row) => {
        const [oldNum, , newNum] = [...row.children].map((cell) => cell.getBoundingClientRect());
        return { oldTop: oldNum.top, newTop: newNum.top, oldLeft: oldNum.left, newLeft: newNum.left, height: row.getBoundingClientRect().height };
      }),
    );
    for (const row of geometry) assert.ok(Math.abs(row.oldTop - row.newTop) < 0.5, `old and new numbers share a row: ${JSON.stringify(row)}`);
    assert.equal(new Set(geometry.map((g) => Math.round(g.oldLeft))).size, 1, 'old numbers form one column');
    assert.equal(new Set(geometry.map((g) => Math.round(g.newLeft))).size, 1, 'new numbers form one column');
    assert.ok(geometry[3].height > geometry[2].height * 2, 'the long line wraps inside its row');
    await assertClean();
  });

  test('a 5,000-line change paints fast, fills in without freezing, and scrolls to its end', async () => {
    panel = await openPanel(browser, { theme: 'dark' });
    const { page } = panel;
    const request = bigRewriteRequest(5000);
    const timing = await page.evaluate(async (message) => {
      const longTasks = [];
      new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
      // How many diff rows each task adds: bounded work per task is what keeps the page responsive on any machine.
      const batches = [];
      const countRows = (node) => (node.nodeType !== 1 ? 0 : (node.matches('.ln') ? 1 : 0) + node.querySelectorAll('.ln').length);
      new MutationObserver((records) => {
        const added = records.reduce((sum, record) => sum + [...record.addedNodes].reduce((n, node) => n + countRows(node), 0), 0);
        if (added) batches.push(added);
      }).observe(document.body, { childList: true, subtree: true });
      const start = performance.now();
      window.postMessage(message, '*');
      // First paint: the frame after the request's rows appear in the DOM.
      await new Promise((resolve) => {
        const check = () => (document.querySelector('main[data-request-id="req-big"] .ln') ? requestAnimationFrame(() => setTimeout(resolve, 0)) : setTimeout(check, 0));
        check();
      });
      const firstPaint = performance.now() - start;
      const rowsAtFirstPaint = document.querySelectorAll('.ln').length;
      await new Promise((resolve) => {
        const check = () => (performance.getEntriesByName('readgate-approval:rendered').length ? resolve() : setTimeout(check, 10));
        check();
      });
      const complete = performance.now() - start;
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { firstPaint, complete, longestTask: Math.max(0, ...longTasks), rows: document.querySelectorAll('.ln').length, rowsAtFirstPaint, batches };
    }, { type: 'requests', requests: [request] });
    console.log(`      5,000-line change (${timing.rows} rows): first paint ${timing.firstPaint.toFixed(0)} ms, all rows ${timing.complete.toFixed(0)} ms, longest task ${timing.longestTask ? `${timing.longestTask.toFixed(0)} ms` : "under 50 ms"}, ${timing.rowsAtFirstPaint} rows at first paint, ${timing.batches.length} batches, largest ${Math.max(...timing.batches)} rows`);
    // Times are printed, not asserted (they depend on the machine's load; the scheduler's time budget per task is
    // unit-tested with a fake clock). What is asserted is the structure that keeps them small: the first paint
    // shows a start, not the whole change, and the rest arrives over several tasks.
    assert.ok(timing.rows > 8000, `every row rendered (${timing.rows})`);
    assert.ok(timing.rowsAtFirstPaint > 0 && timing.rowsAtFirstPaint < timing.rows, `first paint shows a start, not everything (${timing.rowsAtFirstPaint} of ${timing.rows} rows)`);
    assert.ok(timing.batches.length > 2, `rows arrive over several tasks (${timing.batches.length})`);

    // Scroll to the end: the last line (5000 on both sides) is on screen.
    await page.waitForFunction(() => {
      window.scrollTo(0, document.documentElement.scrollHeight);
      const rows = document.querySelectorAll('.ln');
      const last = rows[rows.length - 1].getBoundingClientRect();
      return last.bottom <= window.innerHeight + 1 && last.top >= 0;
    });
    assert.deepEqual(await page.$$eval('.ln', (rows) => [...rows.at(-1).querySelectorAll('.num')].map((n) => n.textContent)), ['', '5000']);
    await page.screenshot({ path: path.join(resultsDir, 'approval-5000-lines-end.png') });

    const { switchTime, rowsAtSwitch } = await page.evaluate(async () => {
      const start = performance.now();
      document.querySelector('[data-layout="sideBySide"]').click();
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
      return { switchTime: performance.now() - start, rowsAtSwitch: document.querySelectorAll('.ln').length };
    });
    console.log(`      switching the 5,000-line change to side by side: first paint ${switchTime.toFixed(0)} ms, ${rowsAtSwitch} rows then`);
    await panel.waitForRendered();
    const rowsSideBySide = await page.$$eval('.diff-sideBySide .ln', (rows) => rows.length);
    assert.ok(rowsAtSwitch < rowsSideBySide, `the switch paints a start, then fills in (${rowsAtSwitch} rows at first paint of ${rowsSideBySide})`);
    await assertClean();
  });

  test('state survives a reload: layout, active request, rejected hunks and the half-written reason', async () => {
    const requests = [twoFileRequest(), readmeRequest()];
    const page = await openWith(requests);
    await page.click(toggle(0, 1));
    await page.click('[data-layout="sideBySide"]');
    await page.click('[data-request="req-readme"]');
    await page.click('[data-action="reject"]');
    await page.fill('#reject-reason', 'Mention the default port too');

    await panel.reload();
    assert.equal(await page.$('.file'), null, 'nothing is shown before the extension re-sends the queue');
    await panel.send({ type: 'requests', requests });
    await panel.waitForRendered();
    assert.equal(await page.textContent('#request-title'), 'Edit a file by Chat: docs');
    assert.equal(await page.getAttribute('[data-layout="sideBySide"]', 'aria-pressed'), 'true');
    assert.equal(await page.$$eval('.diff-sideBySide', (d) => d.length), 1);
    assert.equal(await page.isVisible('#reject-reason'), true);
    assert.equal(await page.inputValue('#reject-reason'), 'Mention the default port too');

    await page.click('[data-request="req-multi"]');
    assert.equal(await page.getAttribute(toggle(0, 1), 'aria-pressed'), 'true');
    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-multi', revision: 2, rejectedHunks: { [SERVER_PATH]: [1] } }]);
    await assertClean();
  });

  test('the scroll position within a request survives a reload', async () => {
    const page = await openWith([manyHunksRequest(30)], { height: 600 });
    await page.evaluate(() => window.scrollTo(0, 2500));
    await page.waitForFunction(() => window.__harness.storedState()?.scroll?.y === 2500);
    await panel.reload();
    await panel.send({ type: 'requests', requests: [manyHunksRequest(30)] });
    await panel.waitForRendered();
    await page.waitForFunction(() => Math.abs(window.scrollY - 2500) <= 1);
    await assertClean();
  });

  test("a hunk choice is cleared, and the user told, when that file's diff changes during review", async () => {
    const page = await openWith([twoFileRequest()]);
    await page.click(toggle(0, 0));
    await page.click(toggle(1, 0));
    const changed = twoFileRequest();
    changed.notice = 'src/server.ts changed on disk.';
    changed.files[0].hunks[0].lines[4].text = 'const port = Number(process.env.PORT ?? 3000);';
    await panel.send({ type: 'requests', requests: [changed] });
    await panel.waitForRendered();
    assert.equal(await page.getAttribute(toggle(0, 0), 'aria-pressed'), 'false', 'the changed file starts over');
    assert.equal(await page.getAttribute(toggle(1, 0), 'aria-pressed'), 'true', 'the unchanged file keeps its choice');
    assert.match(await panel.announcement(), /The diff of src\/server\.ts changed; your hunk choices for it were cleared\./);
    await page.click('[data-action="approve"]');
    assert.deepEqual(await panel.postedOfType('approve'), [{ type: 'approve', id: 'req-multi', revision: 2, rejectedHunks: { [HEALTH_PATH]: [0] } }]);
    await assertClean();
  });

  test('a request arriving during review is announced without re-rendering or moving focus; when the active one leaves, the next is shown', async () => {
    const page = await openWith([twoFileRequest()]);
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    const focused = await page.evaluateHandle(() => document.activeElement);
    await panel.send({ type: 'requests', requests: [twoFileRequest(), readmeRequest()] });
    assert.equal(await page.evaluate((element) => element === document.activeElement && element.isConnected, focused), true);
    assert.equal(await panel.announcement(), 'New approval request: request 2 of 2, Edit a file by Chat: docs.');

    await panel.send({ type: 'requests', requests: [readmeRequest()] });
    await panel.waitForRendered();
    assert.equal(await page.textContent('#request-title'), 'Edit a file by Chat: docs');
    assert.equal(await panel.announcement(), 'Showing request 1 of 1, Edit a file by Chat: docs.');
    await panel.send({ type: 'requests', requests: [] });
    assert.equal(await page.textContent('main'), 'No changes are waiting for approval.');
    await assertClean();
  });

  test('ignores malformed and foreign messages', async () => {
    const page = await openWith([twoFileRequest()]);
    await panel.send({ type: 'requests', requests: [{ id: 3 }] });
    await panel.send({ type: 'requests', requests: [{ ...readmeRequest(), files: [{ path: 'x', hunks: 'no' }] }] });
    await panel.send({ type: 'somethingElse' });
    await panel.send('hello');
    assert.equal(await page.textContent('#request-title'), 'Change 2 files by Chat: server setup');
    assert.deepEqual(await panel.posted(), [{ type: 'ready' }]);
    await assertClean();
  });

  for (const theme of ['light', 'dark', 'highContrast']) {
    test(`${theme} theme: readable text, visible change markers, screenshots of both layouts`, async () => {
      const request = { ...twoFileRequest(), notice: 'src/server.ts changed on disk during review; the diff is against its new content.' };
      const page = await openWith([request, readmeRequest()], { theme, width: 1000, height: 1500 });
      await page.click(toggle(0, 1));
      await page.keyboard.press('j');

      const minimums = {
        '#request-title': 4.5,
        '.request-meta': 4.5,
        '.notice-text': 4.5,
        '.explanation-text': 4.5,
        '[data-action="approve"]': 4.5,
        '[data-action="reject"]': 4.5,
        '.queue-item.active': 4.5,
        '.help': 4.5,
        '.file-title': 4.5,
        '.badge-new': 4.5,
        '.hunk-range': 4.5,
        '.gap-cell': 4.5,
        '.ln.k-context .code': 4.5,
        '.ln.k-added .code': 4.5,
        '.ln.k-removed .code': 4.5,
        '.ln.k-context .num': 3,
      };
      const low = [];
      for (const [selector, minimum] of Object.entries(minimums)) {
        const ratio = await contrastOf(page, selector);
        if (ratio < minimum) low.push(`${selector}: ${ratio.toFixed(2)} < ${minimum}`);
      }
      assert.deepEqual(low, [], 'text contrast');

      const markers = await page.$eval('.ln.k-added', (row) => ({ background: getComputedStyle(row).backgroundColor, edge: getComputedStyle(row.querySelector('.code')).boxShadow, sign: getComputedStyle(row.querySelector('.code'), '::before').content }));
      assert.match(markers.sign, /^"\+"/, 'added lines carry a + sign, not colour alone');
      if (theme === 'highContrast') assert.match(markers.edge, /rgb\(51, 255, 46\)/, 'high contrast marks added lines with its inserted-text border');
      else assert.notEqual(markers.background, 'rgba(0, 0, 0, 0)', 'added lines have the inserted-line background');

      await page.screenshot({ path: path.join(resultsDir, `approval-${theme}-inline.png`) });
      await page.click('[data-layout="sideBySide"]');
      await panel.waitForRendered();
      await page.screenshot({ path: path.join(resultsDir, `approval-${theme}-side-by-side.png`) });
      await assertClean();
    });
  }
});
