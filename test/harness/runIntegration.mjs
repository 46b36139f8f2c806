// `npm run test:integration`: runs out/test/integration in a real VS Code through @vscode/test-electron's
// runTests. The VS Code is, in order: $READGATE_VSCODE_EXECUTABLE (a desktop VS Code), a desktop VS Code
// that test-electron can download (skipped when READGATE_TEST_HEADLESS=1), else the headless VS Code 1.139.1
// of code-server through our stand-in executable (test/harness/code-headless). Exits non-zero on any failed
// test, a test module that fails to load, or a hang.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { downloadAndUnzipVSCode, runTests } from '@vscode/test-electron';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.resolve(process.env.READGATE_TEST_OUT || path.join(repoRoot, 'test-results/integration'));
const resultFile = path.join(outDir, 'mocha-result.json');

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

/** One window's run of the suite (`suite`: which files, see test/integration/index.ts); resolves to its exit code and summary. */
async function runWindow(desktop, workspace, suite) {
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
        READGATE_TEST_OUT: outDir,
        READGATE_TEST_RESULT: resultFile,
        READGATE_TEST_LABEL: 'integration',
        READGATE_TEST_HOOKS: '1',
        READGATE_HOME: readgateHome,
        ...(suite === 'reload' ? { READGATE_TEST_SUITE: 'reload', READGATE_TEST_KEEP_STATE: '1', READGATE_TEST_GREP: '' } : {}),
      },
    });
  } catch (error) {
    code = typeof error?.code === 'number' && error.code !== 0 ? error.code : 1;
  }
  const label = suite === 'reload' ? 'integration, after a window reload' : 'integration';
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
  console.log(`Screenshots and logs: ${path.relative(process.cwd(), outDir) || outDir}`);
  for (const summary of summaries) console.log(summary);
  return code;
}

process.exitCode = await main();
