/**
 * The suite's entry inside the extension host (`extensionTestsPath`): VS Code calls `run()` and reports
 * its outcome (resolved = pass, rejected = fail). Mocha's output is also appended to $READGATE_TEST_LOG,
 * because the headless host's console is not the driver's terminal (and `console.log` cannot be
 * reassigned there); the counts go to $READGATE_TEST_RESULT.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as util from 'util';
import Mocha = require('mocha');
import * as vscode from 'vscode';

const repoRoot = path.resolve(__dirname, '../../..');

function mirrorOutput(file: string | undefined): void {
  if (!file) return;
  const base = Mocha.reporters.Base as unknown as { consoleLog: (...args: unknown[]) => void };
  const original = base.consoleLog;
  base.consoleLog = (...args: unknown[]) => {
    fs.appendFileSync(file, util.format(...args) + '\n');
    original(...args);
  };
}

export async function run(): Promise<void> {
  mirrorOutput(process.env.READGATE_TEST_LOG);
  // Suites apply changes directly; the approval suite turns review on for itself.
  await vscode.workspace.getConfiguration('readgate').update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
  const mocha = new Mocha({
    ui: 'tdd',
    color: false,
    timeout: 60_000,
    forbidOnly: true,
    // For working on one suite: READGATE_TEST_GREP=chat npm run test:integration
    ...(process.env.READGATE_TEST_GREP ? { grep: process.env.READGATE_TEST_GREP } : {}),
    reporter: require(path.join(repoRoot, 'test/harness/summaryReporter.cjs')),
  });
  // firstRun runs first: it sees the window as a new user does (no session yet).
  // `packaged.*` suites run only against the installed VSIX (test/harness/runPackaged.mjs); `reload.*` suites only in
  // the second window runIntegration.mjs opens on the first one's workspace and state; `pictures.*` only in a fresh
  // window of their own (the docs' pictures); the others in the first.
  const suites = ['packaged', 'reload', 'pictures'];
  const suite = suites.find((name) => name === process.env.READGATE_TEST_SUITE);
  const inSuite = (f: string): boolean => (suite ? f.startsWith(`${suite}.`) : !suites.some((name) => f.startsWith(`${name}.`)));
  const files = fs.readdirSync(__dirname).filter((f) => f.endsWith('.test.js') && inSuite(f)).sort((a, b) => Number(b === 'firstRun.test.js') - Number(a === 'firstRun.test.js') || a.localeCompare(b));
  for (const file of files) {
    mocha.addFile(path.join(__dirname, file));
  }
  return new Promise((resolve, reject) => {
    try {
      const runner = mocha.run((failures) => {
        const { passes = 0, pending = 0, tests = 0 } = runner.stats ?? {};
        if (process.env.READGATE_TEST_RESULT) {
          fs.writeFileSync(process.env.READGATE_TEST_RESULT, JSON.stringify({ passes, failures, pending, tests }));
        }
        if (failures > 0) reject(new Error(`${failures} integration test(s) failed`));
        else resolve();
      });
    } catch (error) {
      // A test module that fails to load lands here: the run fails.
      reject(error);
    }
  });
}
