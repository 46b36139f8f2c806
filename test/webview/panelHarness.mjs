// Opens the approval page (dist/webview/approval.{js,css}), or the Connect guide's page, in headless Debian Chromium the way VS Code's webview
// would: a strict CSP with a per-load nonce, theme variables injected by a fake host, a fake `acquireVsCodeApi`,
// messages delivered with `window.postMessage`. Everything is served from one made-up origin through request
// interception; any other request is refused and reported, so the page is proven to need no network.
// Build first: `node esbuild.mjs && node esbuild.mjs --tests`.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { installFakeVsCodeHost } from './fakeVsCodeHost.mjs';
import { themes } from './themes.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '../..');
export const resultsDir = path.join(repoRoot, 'test-results/webview');
const ORIGIN = 'https://readgate.test';
const CHROMIUM = process.env.READGATE_CHROMIUM ?? '/usr/lib/chromium/chromium';

export async function launchBrowser() {
  for (const file of ['approval.js', 'approval.css']) {
    if (!fs.existsSync(path.join(repoRoot, 'dist/webview', file))) throw new Error(`dist/webview/${file} is missing: run \`node esbuild.mjs\` first`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

// The real panel's HTML (src/vscode/approval/panelHtml.ts, transpiled by `node esbuild.mjs --tests`), with the
// fake host and VS Code's default styles added to its head.
const { approvalPanelHtml } = createRequire(import.meta.url)(path.join(repoRoot, 'out/src/vscode/approval/panelHtml.js'));

function panelHtml(nonce) {
  return approvalPanelHtml({
    cspSource: ORIGIN,
    nonce,
    scriptUri: `${ORIGIN}/dist/webview/approval.js`,
    styleUri: `${ORIGIN}/dist/webview/approval.css`,
    headExtras: `<link rel="stylesheet" href="${ORIGIN}/harness/vscodeDefaults.css">\n<script nonce="${nonce}" src="${ORIGIN}/harness/fakeVsCodeHost.js"></script>\n`,
  });
}

// The real Connect an External Agent page (src/vscode/mcp/connectGuide.ts), with the same fake host and default
// styles in its head, allowed by its own nonce as VS Code's are.
const { connectGuide, connectPageHtml } = createRequire(import.meta.url)(path.join(repoRoot, 'out/src/vscode/mcp/connectGuide.js'));

const GUIDE_INPUT = {
  bridgePath: '/home/me/.readgate/mcp-bridge.js',
  headlessPath: '/home/me/.vscode/extensions/readgate.readgate-0.1.0/dist/mcp.js',
  endpoint: { url: 'http://127.0.0.1:43215/mcp', token: 'a-secret-token-for-the-browser-test' },
  folder: '/home/me/projects/inventory',
};

function connectHtml(nonce) {
  const html = connectPageHtml(connectGuide(GUIDE_INPUT), { cspSource: ORIGIN, nonce, running: true });
  const extras = `<link rel="stylesheet" nonce="${nonce}" href="${ORIGIN}/harness/vscodeDefaults.css">\n<script nonce="${nonce}" src="${ORIGIN}/harness/fakeVsCodeHost.js"></script>\n`;
  return html.replace('<head>\n', `<head>\n${extras}`);
}

function serve(url) {
  const { pathname } = new URL(url);
  if (pathname === '/panel.html') return { contentType: 'text/html', body: panelHtml(randomBytes(16).toString('base64')) };
  if (pathname === '/connect.html') return { contentType: 'text/html', body: connectHtml(randomBytes(16).toString('base64')) };
  if (pathname === '/harness/fakeVsCodeHost.js') return { contentType: 'text/javascript', body: `(${installFakeVsCodeHost.toString()})(${JSON.stringify(themes)});` };
  if (pathname === '/harness/vscodeDefaults.css') return { contentType: 'text/css', body: fs.readFileSync(path.join(here, 'vscodeDefaults.css')) };
  const match = /^\/dist\/webview\/([\w.-]+)$/.exec(pathname);
  if (match) {
    const file = path.join(repoRoot, 'dist/webview', match[1]);
    if (fs.existsSync(file)) return { contentType: file.endsWith('.css') ? 'text/css' : file.endsWith('.js') ? 'text/javascript' : 'application/json', body: fs.readFileSync(file) };
  }
  return undefined;
}

/**
 * One panel in a fresh browser context (its own sessionStorage). `problems` collects what must never happen:
 * CSP violations (read from the page), uncaught errors, console errors, and requests outside the served files.
 */
export async function openPanel(browser, options = {}) {
  const { page, context, problems } = await openPage(browser, '/panel.html', options);
  const panel = new Panel(page, context, problems);
  await panel.waitForPosted('ready');
  return panel;
}

/** The Connect an External Agent page, rendered for the harness's made-up machine (GUIDE_INPUT). */
export async function openConnectPage(browser, options = {}) {
  const { page, context, problems } = await openPage(browser, '/connect.html', options);
  await page.waitForLoadState('load');
  return new Panel(page, context, problems);
}

async function openPage(browser, pagePath, { theme = 'dark', width = 1000, height = 760 } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
  const problems = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    const found = url.startsWith(ORIGIN) ? serve(url) : undefined;
    if (!found) {
      problems.push(`unexpected request: ${url}`);
      return route.abort();
    }
    return route.fulfill({ status: 200, contentType: found.contentType, body: found.body });
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  await page.goto(`${ORIGIN}${pagePath}?theme=${theme}`);
  return { page, context, problems };
}

export class Panel {
  constructor(page, context, problems) {
    this.page = page;
    this.context = context;
    this.problems = problems;
  }

  /** Delivers an extension → webview message, as VS Code does, and waits for the page to handle it. */
  async send(message) {
    await this.page.evaluate((m) => window.postMessage(m, '*'), message);
    await this.page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
  }

  async posted() {
    return this.page.evaluate(() => window.__harness.posted);
  }

  async postedOfType(type) {
    return (await this.posted()).filter((message) => message.type === type);
  }

  async waitForPosted(type, count = 1) {
    await this.page.waitForFunction(([t, n]) => window.__harness.posted.filter((m) => m.type === t).length >= n, [type, count]);
    return this.postedOfType(type);
  }

  async clearPosted() {
    await this.page.evaluate(() => {
      window.__harness.posted.length = 0;
    });
  }

  /** Reloads the page (what hiding and showing the panel does) and waits for its `ready`. */
  async reload() {
    await this.page.reload();
    await this.waitForPosted('ready');
  }

  async setTheme(name) {
    await this.page.evaluate((n) => window.__harness.setTheme(n), name);
  }

  /** Waits until every row of the active request is rendered (the page marks it). */
  async waitForRendered() {
    await this.page.waitForFunction(() => performance.getEntriesByName('readgate-approval:rendered').length > 0 && !document.querySelector('.chunk.pending'));
  }

  async announcement() {
    await this.page.waitForTimeout(50);
    return this.page.textContent('[data-testid="announcer"]');
  }

  /** Problems seen so far, CSP violations included. */
  async allProblems() {
    const violations = await this.page.evaluate(() => window.__harness.violations).catch(() => []);
    return [...this.problems, ...violations.map((v) => `CSP violation: ${v.directive} blocked ${v.blocked || 'inline'} ${v.sample ?? ''} (${v.source}:${v.line})`)];
  }

  async close() {
    await this.context.close();
  }
}

/** Relative luminance contrast of an element's text against what is painted behind it (alpha composited). */
export async function contrastOf(page, selector) {
  return page.$eval(selector, (element) => {
    const parse = (value) => {
      const m = /rgba?\(([^)]+)\)/.exec(value);
      if (!m) return [0, 0, 0, 0];
      const parts = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
    };
    const over = (top, bottom) => {
      const a = top[3] + bottom[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      return [0, 1, 2].map((i) => (top[i] * top[3] + bottom[i] * bottom[3] * (1 - top[3])) / a).concat(a);
    };
    const layers = [];
    for (let node = element; node; node = node.parentElement) layers.push(parse(getComputedStyle(node).backgroundColor));
    let background = [255, 255, 255, 1];
    for (const layer of layers.reverse()) background = over(layer, background);
    const text = over(parse(getComputedStyle(element).color), background);
    const luminance = ([r, g, b]) => {
      const channel = (c) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const [hi, lo] = [luminance(text), luminance(background)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  });
}
