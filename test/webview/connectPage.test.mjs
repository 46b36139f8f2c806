// Browser tests of the Connect an External Agent page (src/vscode/mcp/connectGuide.ts, transpiled by
// `node esbuild.mjs --tests`) in headless Debian Chromium, with VS Code's default webview styles and the three
// themes: code blocks show every character they copy. Screenshots (at VS Code's default editor font size of
// 14 px) go to test-results/webview.
// Run: node esbuild.mjs --tests && READGATE_TEST_LABEL=webview npx mocha --config test/webview/.mocharc.json
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launchBrowser, openConnectPage, resultsDir } from './panelHarness.mjs';

/**
 * Where each `_` of the page's code blocks is drawn, in page coordinates: the box of that one character (a
 * Range over it), its block and line, and the box the pre shows its content in.
 */
function underscoreCells(page) {
  return page.$$eval('pre > code', (codes) =>
    codes.flatMap((code, block) => {
      const text = code.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) return [];
      const pre = code.parentElement.getBoundingClientRect();
      const cells = [];
      let line = 0;
      for (let i = 0; i < text.data.length; i++) {
        if (text.data[i] === '\n') line++;
        if (text.data[i] !== '_') continue;
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        // A wrapped line gives one rectangle; the character's own box.
        const rect = range.getClientRects()[0];
        cells.push({ block, line, index: i, x: rect.left + scrollX, y: rect.top + scrollY, width: rect.width, height: rect.height, preTop: pre.top + scrollY, preBottom: pre.bottom + scrollY });
      }
      return cells;
    }),
  );
}

/**
 * Whether each cell shows its underscore: a row of ink across most of the character's width, in its box or the
 * two pixel rows below it (a glyph may reach past its box), where ink is a pixel that differs clearly from the
 * colour at the box's top left corner (the background behind that character). `origin` is where the screenshot
 * starts on the page. The PNG is decoded by the browser itself, in a blank page of its own.
 */
async function underscoresDrawn(context, png, origin, cells) {
  const decoder = await context.newPage();
  try {
    return await decoder.evaluate(
      async ({ base64, origin, cells }) => {
        const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const g = canvas.getContext('2d');
        g.drawImage(bitmap, 0, 0);
        return cells.map((cell) => {
          const x = Math.round(cell.x - origin.x);
          const y = Math.round(cell.y - origin.y);
          const width = Math.max(1, Math.floor(cell.width));
          const height = Math.round(cell.height) + 2;
          const { data } = g.getImageData(x, y, width, height);
          const [r0, g0, b0] = data;
          for (let row = Math.floor(height / 2); row < height; row++) {
            let ink = 0;
            for (let column = 0; column < width; column++) {
              const p = (row * width + column) * 4;
              if (Math.hypot(data[p] - r0, data[p + 1] - g0, data[p + 2] - b0) > 60) ink++;
            }
            if (ink >= width * 0.6) return true;
          }
          return false;
        });
      },
      { base64: png.toString('base64'), origin, cells },
    );
  } finally {
    await decoder.close();
  }
}

/** Sets the editor font size (VS Code's setting, which webviews get as a variable) and shifts the page by `offset` px. */
function setLayout(page, fontSize, offset) {
  return page.evaluate(
    ([size, shift]) => {
      document.documentElement.style.setProperty('--vscode-editor-font-size', `${size}px`);
      document.body.style.paddingTop = `${shift}px`;
    },
    [fontSize, offset],
  );
}

suite('Connect guide page (webview in Chromium)', function () {
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

  for (const theme of ['light', 'dark', 'highContrast']) {
    // Underscores vanished from the first lines of code blocks ("[mcp servers.readgate]"): VS Code's default
    // styles give inline code a background, and inside a pre each line of the code element painted that
    // background over the bottom of the line above, where an underscore is drawn. Whether a given underscore was
    // hit depended on the font size and on where the block fell between pixels, so every underscore is checked at
    // several editor font sizes (VS Code's default is 14 px on Linux and Windows) and quarter-pixel offsets.
    test(`every underscore of every code block is drawn, on first lines too, at editor font sizes 12–16 px (${theme}, screenshot)`, async () => {
      panel = await openConnectPage(browser, { theme, width: 1000, height: 900 });
      const { page } = panel;
      const toml = await page.$$eval('pre > code', (codes) => codes.map((code) => code.textContent).find((text) => text.startsWith('[mcp_servers.readgate]')));
      assert.ok(toml, 'no Codex block');
      const missing = [];
      for (const fontSize of [12, 13, 14, 15, 16]) {
        for (const offset of [0, 0.25, 0.5, 0.75]) {
          await setLayout(page, fontSize, offset);
          const cells = await underscoreCells(page);
          assert.ok(cells.filter((cell) => cell.line === 0).length >= 3, `${fontSize} px: too few underscores on first lines`);
          for (const cell of cells) {
            assert.ok(cell.y >= cell.preTop && cell.y + cell.height <= cell.preBottom, `${fontSize} px: block ${cell.block} line ${cell.line}: the character box ${cell.y}–${cell.y + cell.height} is cut by its pre ${cell.preTop}–${cell.preBottom}`);
          }
          const top = Math.floor(Math.min(...cells.map((cell) => cell.y))) - 2;
          const bottom = Math.ceil(Math.max(...cells.map((cell) => cell.y + cell.height))) + 4;
          const png = await page.screenshot({ fullPage: true, clip: { x: 0, y: top, width: 1000, height: bottom - top } });
          const drawn = await underscoresDrawn(panel.context, png, { x: 0, y: top }, cells);
          cells.forEach((cell, i) => drawn[i] || missing.push(`${fontSize} px + ${offset}: block ${cell.block} line ${cell.line + 1}, character ${cell.index}`));
        }
      }
      await setLayout(page, 14, 0);
      fs.writeFileSync(path.join(resultsDir, `connect-guide-${theme}.png`), await page.screenshot({ fullPage: true }));
      assert.deepEqual(missing, [], 'underscores not drawn');
      assert.deepEqual(await panel.allProblems(), []);
    });
  }
});
