// `npm run bench:host`: the editor benchmark. Runs test/benchHost in the bundled VS Code twice, without ReadGate
// ("absent") and with it ("present"), each in a fresh copy of the same workspace, then prints every editor
// figure with its ratio and whether it meets its target. Not part of `npm test`; timings are never asserted.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Any extension that is not ReadGate will do as the development extension of the "absent" run.
const stub = path.join(root, 'out/test/fixtures/scriptedModel');

async function measure(mode) {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), `readgate-bench-${mode}-`));
  const result = path.join(os.tmpdir(), `readgate-bench-${mode}-${process.pid}.json`);
  fs.rmSync(result, { force: true });
  try {
    await runTests({
      vscodeExecutablePath: process.env.READGATE_VSCODE_EXECUTABLE ?? path.join(root, 'test/harness/code-headless'),
      extensionDevelopmentPath: mode === 'present' ? [root, stub] : [stub],
      extensionTestsPath: path.join(root, 'out/test/benchHost/index.js'),
      launchArgs: [workspace, '--disable-extensions'],
      extensionTestsEnv: { READGATE_BENCH_MODE: mode, READGATE_BENCH_RESULT: result, READGATE_TEST_OUT: path.join(root, 'test-results/bench-host', mode), ...(process.env.READGATE_BENCH_PROFILE ? { READGATE_BENCH_PROFILE: process.env.READGATE_BENCH_PROFILE } : {}) },
    });
    return JSON.parse(fs.readFileSync(result, 'utf8'));
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(result, { force: true });
  }
}

/** ReadGate's own activation time, as its log says (the host's activate() round trip includes VS Code's work). */
function ownActivationMs() {
  const logs = path.join(root, 'test-results/bench-host/present/state/user-data/logs');
  for (const session of fs.existsSync(logs) ? fs.readdirSync(logs).sort().reverse() : []) {
    const file = path.join(logs, session, 'exthost1/readgate.readgate/ReadGate.log');
    const match = fs.existsSync(file) && /activated in ([\d.]+) ms/.exec(fs.readFileSync(file, 'utf8'));
    if (match) return Number(match[1]);
  }
  return undefined;
}

const fmt = (n, digits = 2) => (n === undefined ? 'n/a' : n.toFixed(digits));
const signed = (n) => `${n < 0 ? '−' : '+'}${fmt(Math.abs(n))}`;

async function main() {
  if (process.env.READGATE_BENCH_ONLY === 'present') {
    console.log(JSON.stringify(await measure('present')));
    return;
  }
  const absent = await measure('absent');
  const present = await measure('present');
  const rows = [];
  const row = (figure, value, baseline, ratio, target, pass) => rows.push({ figure, value, baseline, ratio, target, pass });

  const listenerUs = present.keystrokes.listenerUsMean - absent.keystrokes.listenerUsMean;
  row('document-change listeners per keystroke, 5 MB document (mean; p99)', `${fmt(present.keystrokes.listenerUsMean / 1000, 3)} ms; ${fmt(present.keystrokes.listenerUsP99 / 1000, 3)} ms`, `${fmt(absent.keystrokes.listenerUsMean / 1000, 3)} ms; ${fmt(absent.keystrokes.listenerUsP99 / 1000, 3)} ms`, `+${fmt(listenerUs / 1000, 3)} ms`, 'ReadGate adds ≤ 0.2 ms', listenerUs <= 200);
  row('host CPU per keystroke, 5 MB document (VS Code’s own work dominates)', `${fmt(present.keystrokes.cpuUsPerKey / 1000, 2)} ms`, `${fmt(absent.keystrokes.cpuUsPerKey / 1000, 2)} ms`, `${fmt(present.keystrokes.cpuUsPerKey / absent.keystrokes.cpuUsPerKey)}×`, 'information', true);
  for (const [size, figures] of Object.entries(present.read)) {
    // The floor: what VS Code's invokeTool costs for exactly this result, from a tool that does no work.
    const ratio = figures.toolMs / figures.preparedToolMs;
    row(`readgate_read round trip, ${size}`, `${fmt(figures.toolMs)} ms`, `${fmt(figures.preparedToolMs)} ms (a tool that does no work, same text, progress message)`, `${fmt(ratio)}×`, '≤ 1.1×', ratio <= 1.1);
    row(`… that tool without a progress message (prepareInvocation), ${size}`, `${fmt(figures.noopToolMs)} ms`, `${fmt(figures.preparedToolMs)} ms (with)`, `${signed(figures.noopToolMs - figures.preparedToolMs)} ms`, 'information', true);
    row(`… workspace.fs.readFile of the file, ${size}`, `${fmt(figures.fsMs)} ms`, '', `readgate_read is ${fmt(figures.toolMs / figures.fsMs)}×`, 'information', true);
    row(`… the guarded read alone (extension API, no tool call), ${size}`, `${fmt(figures.guardMs)} ms`, '', `readgate_read is ${signed(figures.toolMs - figures.preparedToolMs)} ms over the floor`, 'information', true);
  }
  // What the problems section adds to an agent's edit: the same calls with the setting "errors" and "off".
  for (const [language, figures] of Object.entries(present.problems ?? {})) {
    const pending = figures.pending ? `; ${figures.pending} of ${figures.samples} still checking` : '';
    row(`readgate_edit with the problems section, ${language} (median; p95)`, `${fmt(figures.errors.medianMs)} ms; ${fmt(figures.errors.p95Ms)} ms${pending}`, `${fmt(figures.off.medianMs)} ms; ${fmt(figures.off.p95Ms)} ms (off)`, `${signed(figures.errors.medianMs - figures.off.medianMs)} ms; ${signed(figures.errors.p95Ms - figures.off.p95Ms)} ms`, 'information', true);
  }
  const stormRatio = present.storm.p99Ms / absent.storm.p99Ms;
  row(`event-loop delay p99, git checkout of 2,000 files (1,000-file session, view open)`, `${fmt(present.storm.p99Ms)} ms (max ${fmt(present.storm.maxMs)})`, `${fmt(absent.storm.p99Ms)} ms (max ${fmt(absent.storm.maxMs)})`, `${fmt(stormRatio)}×`, '≤ 1.5×', stormRatio <= 1.5);
  const own = ownActivationMs();
  row('activation, ReadGate’s own time (activate())', own === undefined ? 'not found in the log' : `${fmt(own, 1)} ms`, present.activateMs === undefined ? '' : `${fmt(present.activateMs, 1)} ms round trip incl. VS Code and module load`, '', '≤ 50 ms', own !== undefined && own <= 50);

  console.log('\n| figure | with ReadGate | without (same machine, same run) | ratio | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.figure} | ${r.value} | ${r.baseline} | ${r.ratio} | ${r.target} | ${r.pass ? 'pass' : 'MISS'} |`);
  const targets = rows.filter((r) => r.target !== 'information');
  const misses = targets.filter((r) => !r.pass).length;
  console.log(`\n${targets.length - misses}/${targets.length} targets pass${misses ? `, ${misses} miss` : ''}. VS Code extension host on Node ${present.node ?? 'see the host'}.`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
