// Runs an extension's integration tests in a real, headless VS Code: the VS Code 1.139.1 server bundled in
// code-server, its web workbench in Debian's Chromium (through playwright-core), and the Node extension host
// that runs our mocha suite. The workbench honours the `extensionDevelopmentPath` / `extensionTestsPath`
// entries of its `payload` URL parameter (VS Code's own browser integration tests use the same mechanism)
// when the server runs with --enable-smoke-test-driver, and reports the tests' outcome through
// `window.codeAutomationExit(code)`: 0 when run() resolved, 1 when it rejected or failed to load.
//
// Hermetic: the server, extension host and browser get a private HOME, XDG dirs and a short TMPDIR (unix
// socket paths are limited to 108 bytes); the server runs in its own process group, which is killed at the
// end, so no process is left behind. Tests reach the driver through files in $READGATE_HARNESS_DIR
// (test/integration/harness.ts): screenshots and text of the workbench's DOM.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM_PATHS = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--no-default-browser-check',
];

// Deterministic, quiet workbench: no welcome page, no update/telemetry/experiment traffic.
export const DEFAULT_USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'diffEditor.useInlineViewWhenSpaceIsLimited': false,
  'chat.disableAIFeatures': false,
  'git.openRepositoryInParentFolders': 'never',
};

// Offline machines and the server build's missing service worker log errors that say nothing about the tests.
const HARNESS_NOISE = /ENOTFOUND|ERR_NAME_NOT_RESOLVED|ECONNREFUSED|EAI_AGAIN|getaddrinfo|\[Service Worker\]/;

export function findChromium() {
  const found = [process.env.READGATE_CHROMIUM, ...CHROMIUM_PATHS].find((p) => p && fs.existsSync(p));
  if (!found) throw new Error("Chromium not found: install the Debian package 'chromium' (apt-get install chromium) or set READGATE_CHROMIUM");
  return found;
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Private HOME/XDG dirs under `dir`, so nothing is written to the real home. */
export function hermeticEnv(dir) {
  const home = path.join(dir, 'home');
  fs.mkdirSync(home, { recursive: true });
  return {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
  };
}

export async function waitForHttp(url, isDead, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (isDead()) throw new Error('the VS Code server exited during start-up');
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the VS Code server did not answer ${url} within ${seconds} s`);
}

/** Kills a detached child's whole process group: TERM, a grace period, then KILL. */
export async function killProcessGroup(child, hasExited) {
  const signal = (name) => {
    try {
      process.kill(-child.pid, name);
    } catch {
      // group already gone
    }
  };
  signal('SIGTERM');
  for (let i = 0; i < 50 && !hasExited(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  signal('SIGKILL'); // stragglers of the group (extension host, pty host, file watchers)
}

/**
 * Answers test requests written to `dir`: `<id>.request.json` with
 * `{ kind: 'screenshot', name }`, `{ kind: 'text', selector }`, `{ kind: 'images', selector }`, `{ kind: 'click', selector }` or
 * `{ kind: 'drag', selector, dx, dy, from? }` or `{ kind: 'box', selector }` (Playwright selectors; the first match is
 * used); the answer goes to
 * `<id>.response.json`.
 */
function serveTestRequests(page, dir, shotDir, log) {
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.request.json'))) {
        const id = file.slice(0, -'.request.json'.length);
        const requestPath = path.join(dir, file);
        let response;
        try {
          const request = JSON.parse(fs.readFileSync(requestPath, 'utf8'));
          fs.rmSync(requestPath);
          if (request.kind === 'screenshot') {
            const name = String(request.name).replace(/[^\w.-]+/g, '_');
            const shot = path.join(shotDir, `${name}.png`);
            await page.screenshot({ path: shot });
            log(`screenshot ${path.relative(process.cwd(), shot)}`);
            response = { ok: true, path: shot };
          } else if (request.kind === 'text') {
            const texts = await page.locator(String(request.selector)).allInnerTexts();
            response = { ok: true, texts };
          } else if (request.kind === 'images') {
            // Whether images rendered: a broken one has no natural size.
            const images = await page.locator(String(request.selector)).evaluateAll((elements) => elements.map((element) => ({ src: element.getAttribute('src'), width: element.naturalWidth, complete: element.complete })));
            response = { ok: true, images };
          } else if (request.kind === 'click') {
            await page.locator(String(request.selector)).first().click({ timeout: 5000 });
            response = { ok: true };
          } else if (request.kind === 'box') {
            response = { ok: true, box: await page.locator(String(request.selector)).first().boundingBox({ timeout: 5000 }) };
          } else if (request.kind === 'drag') {
            const box = await page.locator(String(request.selector)).first().boundingBox({ timeout: 5000 });
            if (!box) throw new Error(`nothing to drag at ${request.selector}`);
            // 'rightEdge' grabs the sash on an element's right border (to resize a part of the workbench).
            const x = request.from === 'rightEdge' ? box.x + box.width + 1 : box.x + box.width / 2;
            const y = box.y + box.height / 2;
            await page.mouse.move(x, y);
            await page.mouse.down();
            await page.mouse.move(x + Number(request.dx || 0), y + Number(request.dy || 0), { steps: 8 });
            await page.mouse.up();
            await page.mouse.move(1, 1); // no hover highlight left on the sash
            response = { ok: true };
          } else {
            response = { ok: false, error: `unknown request kind ${request.kind}` };
          }
        } catch (error) {
          response = { ok: false, error: String(error && error.message || error) };
        }
        fs.writeFileSync(path.join(dir, `${id}.response.json.tmp`), JSON.stringify(response));
        fs.renameSync(path.join(dir, `${id}.response.json.tmp`), path.join(dir, `${id}.response.json`));
      }
    } finally {
      busy = false;
    }
  }, 100);
  return () => clearInterval(timer);
}

/**
 * The one `extensionDevelopmentPath` the web workbench can take: its `payload` is read into a Map, so a second
 * entry replaces the first. For several extensions we pass a folder of links to them instead, which VS Code
 * scans as a folder of development extensions.
 */
function developmentPath(extensionPaths, stateDir) {
  if (extensionPaths.length === 1) return extensionPaths[0];
  const dir = path.join(stateDir, 'dev-extensions');
  fs.rmSync(dir, { recursive: true, force: true }); // a reload run finds the first run's links
  fs.mkdirSync(dir, { recursive: true });
  extensionPaths.forEach((extensionPath, index) => fs.symlinkSync(extensionPath, path.join(dir, `${index}-${path.basename(extensionPath)}`), 'dir'));
  return dir;
}

/**
 * Runs the tests; resolves to the exit code (0 pass, 1 fail, 124 timeout, 2 harness error).
 * @param {{ vscode: { node: string, serverMain: string }, extensionPaths: string[], testsPath: string,
 *   workspace?: string, outDir: string, timeoutSeconds?: number, env?: Record<string,string>,
 *   settings?: object, installVsix?: string[], keepState?: boolean }} options
 */
export async function runHeadlessTests(options) {
  const started = Date.now();
  const say = (message) => process.stdout.write(`[harness ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}\n`);
  const { outDir } = options;
  // keepState: a second window on the same user data, workspace storage and workspace (a reload); else a clean run.
  if (options.keepState) {
    for (const file of ['mocha-result.json', 'tests.log', 'server.log']) fs.rmSync(path.join(outDir, file), { force: true });
  } else {
    fs.rmSync(outDir, { recursive: true, force: true });
  }
  const stateDir = path.join(outDir, 'state');
  const shotDir = path.join(outDir, 'screenshots');
  const requestDir = path.join(outDir, 'requests');
  for (const dir of [stateDir, shotDir, requestDir]) fs.mkdirSync(dir, { recursive: true });
  const childTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rg-'));
  const hermetic = hermeticEnv(stateDir);
  const chromiumPath = findChromium();

  const userDir = path.join(stateDir, 'user-data');
  fs.mkdirSync(path.join(userDir, 'User'), { recursive: true });
  fs.writeFileSync(path.join(userDir, 'User/settings.json'), JSON.stringify({ ...DEFAULT_USER_SETTINGS, ...options.settings }, null, 2));
  // Installed extensions (a packed VSIX), as a user installs them: loaded from the extensions folder.
  for (const vsix of options.installVsix ?? []) {
    execFileSync(options.vscode.node, [options.vscode.serverMain, '--install-extension', vsix, '--extensions-dir', path.join(stateDir, 'extensions'), '--accept-server-license-terms'], { env: { ...process.env, ...hermetic }, stdio: 'ignore' });
    say(`installed ${path.basename(vsix)}`);
  }
  const workspace = options.workspace ?? fs.mkdtempSync(path.join(stateDir, 'ws-'));
  const hostLog = path.join(outDir, 'tests.log');
  const resultFile = path.join(outDir, 'mocha-result.json');
  fs.writeFileSync(hostLog, '');

  // A reload keeps the port: the workspace's identity (and so its storage) in the browser's VS Code includes the
  // server's authority, as it stays the same when a real window reloads.
  const portFile = path.join(stateDir, 'port');
  const port = options.keepState && fs.existsSync(portFile) ? Number(fs.readFileSync(portFile, 'utf8')) : await freePort();
  fs.writeFileSync(portFile, String(port));
  const authority = `127.0.0.1:${port}`;
  const serverLog = fs.openSync(path.join(outDir, 'server.log'), 'w');
  const server = spawn(options.vscode.node, [
    options.vscode.serverMain,
    '--host', '127.0.0.1', '--port', String(port),
    '--without-connection-token', '--accept-server-license-terms',
    '--enable-smoke-test-driver', // without it the built workbench ignores the test payload and the run hangs
    '--disable-telemetry', '--disable-workspace-trust',
    '--user-data-dir', userDir,
    '--server-data-dir', path.join(stateDir, 'server-data'),
    '--extensions-dir', path.join(stateDir, 'extensions'),
  ], {
    detached: true, // own process group: one kill reaches the extension host and every helper
    stdio: ['ignore', serverLog, serverLog],
    env: {
      ...process.env,
      ...hermetic,
      // ReadGate's home (MCP discovery, the bridge) follows the user, not HOME: keep it in the run unless the caller chose one.
      READGATE_HOME: process.env.READGATE_HOME || path.join(stateDir, 'readgate-home'),
      ...options.env,
      TMPDIR: childTmp,
      READGATE_HARNESS_DIR: requestDir,
      READGATE_TEST_LOG: hostLog,
      READGATE_TEST_RESULT: resultFile,
      READGATE_TEST_LABEL: options.env?.READGATE_TEST_LABEL ?? 'integration',
      VSCODE_IPC_HOOK_CLI: '',
    },
  });
  let serverExited = false;
  server.on('exit', () => { serverExited = true; });
  say(`VS Code server (pid ${server.pid}) on http://${authority}; logs in ${path.relative(process.cwd(), outDir)}`);

  // Mirror what the suite prints inside the extension host (the in-host runner appends to hostLog).
  let printed = 0;
  const pump = () => {
    try {
      const text = fs.readFileSync(hostLog, 'utf8');
      if (text.length > printed) {
        process.stdout.write(text.slice(printed));
        printed = text.length;
      }
    } catch {
      // not written yet
    }
  };
  const pumpTimer = setInterval(pump, 200);

  let context;
  let stopServing = () => {};
  let settle;
  const outcome = new Promise((resolve) => { settle = resolve; });
  const timeoutSeconds = options.timeoutSeconds ?? 900;
  const timer = setTimeout(() => settle({ code: 124, why: `timed out after ${timeoutSeconds} s (a hung test or extension host)` }), timeoutSeconds * 1000);
  const onSignal = (name, code) => () => settle({ code, why: `interrupted by ${name}` });
  const onInt = onSignal('SIGINT', 130);
  const onTerm = onSignal('SIGTERM', 143);
  process.once('SIGINT', onInt);
  process.once('SIGTERM', onTerm);
  server.on('exit', (code, signal) => settle({ code: 2, why: `the VS Code server exited unexpectedly (code ${code}, signal ${signal}); see server.log` }));

  try {
    await waitForHttp(`http://${authority}/version`, () => serverExited);
    context = await chromium.launchPersistentContext(path.join(stateDir, 'chromium-profile'), {
      executablePath: chromiumPath,
      headless: true,
      env: { ...process.env, ...hermetic, TMPDIR: childTmp },
      viewport: { width: 1400, height: 900 },
      args: CHROMIUM_ARGS,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const workbenchLog = fs.createWriteStream(path.join(outDir, 'workbench.log'));
    page.on('console', (message) => workbenchLog.write(`[console.${message.type()}] ${message.text()}\n`));
    page.on('pageerror', (error) => workbenchLog.write(`[pageerror] ${error.stack || error}\n`));
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      workbenchLog.write(`[${type}] ${Array.isArray(args) ? args.join(' ') : String(args)}\n`);
    });
    await page.exposeFunction('codeAutomationExit', async (code) => {
      try {
        await page.screenshot({ path: path.join(shotDir, 'final.png') });
      } catch {
        // the page may already be closing
      }
      settle({ code: code === 0 ? 0 : code || 1, why: 'the extension host finished the tests' });
    });
    stopServing = serveTestRequests(page, requestDir, shotDir, say);
    const remote = (p) => `vscode-remote://${authority}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(developmentPath(options.extensionPaths, stateDir))],
      ['extensionTestsPath', remote(options.testsPath)],
      ['skipWelcome', 'true'],
    ];
    await page.goto(`http://${authority}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    say('workbench loaded; running the tests in the extension host');
  } catch (error) {
    settle({ code: 2, why: `harness error: ${error && error.stack || error}` });
  }

  let { code, why } = await outcome;
  clearTimeout(timer);
  process.off('SIGINT', onInt);
  process.off('SIGTERM', onTerm);
  stopServing();
  clearInterval(pumpTimer);
  pump();
  // Never report success over failures the in-host runner recorded (or over a run that never reported).
  if (code === 0) {
    try {
      const result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
      if (result.failures > 0) code = 1;
    } catch {
      code = 1;
      why = 'the extension host reported success but the test runner wrote no result';
    }
  }
  if (code !== 0) {
    try {
      const errors = fs.readFileSync(path.join(outDir, 'workbench.log'), 'utf8').split('\n')
        .filter((line) => /^\[(error|pageerror)\]/.test(line) && !HARNESS_NOISE.test(line));
      if (errors.length) process.stdout.write(`Errors logged by the workbench / extension host:\n${errors.slice(0, 30).join('\n')}\n`);
    } catch {
      // no workbench log
    }
  }
  try {
    await Promise.race([context?.close(), new Promise((resolve) => setTimeout(resolve, 5000))]);
  } catch {
    // browser already gone
  }
  await killProcessGroup(server, () => serverExited);
  fs.closeSync(serverLog);
  fs.rmSync(childTmp, { recursive: true, force: true });
  // The Chromium profile stays for a reload's window: the web workbench keeps its storage (extensions' workspace
  // and global state) in the browser. A fresh run removes it with the rest of the state.
  say(`${why}; exit code ${code}`);
  return code;
}
