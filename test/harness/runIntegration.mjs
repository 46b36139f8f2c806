// `npm run test:integration`: runs out/test/integration in a real VS Code through @vscode/test-electron's
// runTests. The VS Code is, in order: $READGATE_VSCODE_EXECUTABLE (a desktop VS Code), a desktop VS Code
// that test-electron can download (skipped when READGATE_TEST_HEADLESS=1), else the headless VS Code 1.139.1
// of code-server through our stand-in executable (test/harness/code-headless). Three windows: the suites, the
// same workspace and state again as after a reload, and a fresh one that stages the docs' pictures (`--pictures`:
// only that one, its pictures then copied into docs/images). Exits non-zero on any failed test, a test module
// that fails to load, or a hang.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.resolve(process.env.READGATE_TEST_OUT || path.join(repoRoot, 'test-results/integration'));

async function desktopVSCode() {
  if (process.env.READGATE_VSCODE_EXECUTABLE) return process.env.READGATE_VSCODE_EXECUTABLE;
  if (process.env.READGATE_TEST_HEADLESS === '1') return undefined;
  try {
    const download = downloadAndUnzipVSCode({ version: 'stable', timeout: 15000 });
    let timer;
    const limit = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('download timed out')), 600_000); });
    try {
      return await Promise.race([download, limit]);
    } finally {
      clearTimeout(timer);
    }
  } catch (error) {
    console.log(`Desktop VS Code is not available here (${String(error?.message ?? error).split('\n')[0]}); using the headless VS Code.`);
    return undefined;
  }
}

function freshWorkspace() {
  // Tests change files, so each run gets its own copy of the fixture workspace.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-ws-'));
  fs.cpSync(path.join(repoRoot, 'test/integration/workspace'), dir, { recursive: true });
  return dir;
}

// ReadGate's home for the windows under test (discovery files, forget markers, the installed bridge), not the user's.
const readgateHome = path.join(outDir, 'mcp-home');

// The docs' pictures: a fresh window of their own (out, state, workspace and home), so they show only their scenes.
// Its home is a neutral temporary folder, as the Connect guide names the bridge in it.
const picturesOut = path.join(repoRoot, 'test-results/pictures');
const picturesHome = path.join(os.tmpdir(), 'readgate-docs', '.readgate');

/** One window's run of the suite (`suite`: which files, see test/integration/index.ts); resolves to its exit code and summary. */
async function runWindow(desktop, workspace, suite) {
  const pictures = suite === 'pictures';
  const out = pictures ? picturesOut : outDir;
  const resultFile = path.join(out, 'mocha-result.json');
  fs.rmSync(resultFile, { force: true });
  let code = 0;
  try {
    await runTests({
      vscodeExecutablePath: desktop ?? path.join(repoRoot, 'test/harness/code-headless'),
      // ReadGate, and the test-only scripted language model the chat participant's tests drive.
      extensionDevelopmentPath: [repoRoot, path.join(repoRoot, 'out/test/fixtures/scriptedModel')],
      extensionTestsPath: path.join(repoRoot, 'out/test/integration/index.js'),
      launchArgs: [workspace, '--disable-extensions'],
      extensionTestsEnv: {
        READGATE_TEST_OUT: out,
        READGATE_TEST_RESULT: resultFile,
        READGATE_TEST_LABEL: 'integration',
        READGATE_TEST_HOOKS: '1',
        READGATE_HOME: pictures ? picturesHome : readgateHome,
        ...(suite === 'reload' ? { READGATE_TEST_SUITE: 'reload', READGATE_TEST_KEEP_STATE: '1', READGATE_TEST_GREP: '' } : {}),
        ...(pictures ? { READGATE_TEST_SUITE: 'pictures', READGATE_TEST_GREP: '' } : {}),
      },
    });
  } catch (error) {
    code = typeof error?.code === 'number' && error.code !== 0 ? error.code : 1;
  }
  const label = { reload: 'integration, after a window reload', pictures: 'integration, the docs pictures in a fresh window' }[suite] ?? 'integration';
  let summary = `${label}: the suite did not report a result`;
  try {
    const result = JSON.parse(fs.readFileSync(resultFile, 'utf8'));
    summary = `${label}: ${result.passes} passed, ${result.failures} failed, ${result.pending} skipped`;
    if (result.failures > 0 && code === 0) code = 1;
    // A run that ran nothing proves nothing (a suite that failed to register, or a grep that matched nothing).
    if (result.tests === 0 && code === 0) {
      code = 1;
      summary += ' (no test ran)';
    }
  } catch {
    if (code === 0) code = 1;
  }
  return { code, summary };
}

/** A fresh window for the docs pictures (`pictures.*` suites): its own workspace copy and ReadGate home. */
async function picturesWindow(desktop) {
  const workspace = freshWorkspace();
  fs.rmSync(path.dirname(picturesHome), { recursive: true, force: true });
  try {
    return await runWindow(desktop, workspace, 'pictures');
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(path.dirname(picturesHome), { recursive: true, force: true });
  }
}

/** `--pictures` (`npm run docs:pictures`): only the pictures window, then its docs-*.png into docs/images. */
async function pictures() {
  const run = await picturesWindow(await desktopVSCode());
  console.log(run.summary);
  if (run.code !== 0) return run.code;
  const shots = path.join(picturesOut, 'screenshots');
  for (const shot of fs.readdirSync(shots).filter((name) => name.startsWith('docs-'))) {
    fs.copyFileSync(path.join(shots, shot), path.join(repoRoot, 'docs/images', shot.slice('docs-'.length)));
    console.log(`docs/images/${shot.slice('docs-'.length)}`);
  }
  return 0;
}

async function main() {
  const desktop = await desktopVSCode();
  const workspace = freshWorkspace();
  fs.rmSync(readgateHome, { recursive: true, force: true });
  const summaries = [];
  let code = 0;
  try {
    const first = await runWindow(desktop, workspace, 'main');
    summaries.push(first.summary);
    code = first.code;
    // Then a second window on the same workspace and state, as after a reload: what the first one recorded must
    // still be there (test/integration/reload.*.test.ts). Not when working on one suite with a grep, unless
    // READGATE_TEST_RELOAD=1 (with a grep that runs the history suite).
    if (code === 0 && (!process.env.READGATE_TEST_GREP || process.env.READGATE_TEST_RELOAD === '1')) {
      const reload = await runWindow(desktop, workspace, 'reload');
      summaries.push(reload.summary);
      code = reload.code;
    }
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
  }
  // The docs pictures' scenes, in a fresh window: they must still stage what the pictures show.
  if (code === 0 && !process.env.READGATE_TEST_GREP) {
    const run = await picturesWindow(desktop);
    summaries.push(run.summary);
    code = run.code;
  }
  console.log(`Screenshots and logs: ${path.relative(process.cwd(), outDir) || outDir}`);
  for (const summary of summaries) console.log(summary);
  return code;
}

process.exitCode = await (process.argv.includes('--pictures') ? pictures() : main());
