// What ReadGate's agent hook (dist/agent-hook.js, the hook VS Code's agents run around each tool call while
// readgate.agentHooks.enabled is on) adds to a tool call: the hook process from spawn to exit, against `node -e 0`
// (Node's own start-up, the floor of any command hook) measured in the same rounds. The window is real: a guard on
// a temp folder behind the window's socket and judge (a bench-only bundle of src/hooks), so a judged call pays for
// the socket round trip and the guard's work (the file read and hashed, the edit planned). Targets: Node's
// start-up plus at most 15 ms for a judged call, at most 2 ms for any other.
// `npm run bench` prints it in its notes; `node bench/agentHookCost.mjs` alone after `npm run build`.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, p90 } from './stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const ROUNDS = Number(process.env.READGATE_HOOK_ROUNDS ?? 25);
const TARGET_JUDGED_MS = 15;
const TARGET_OTHER_MS = 2;


/** One process from spawn to exit, with `input` on stdin; its stdout, and the milliseconds. */
function timed(args, input, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0 || stderr) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve({ ms, stdout });
    });
    child.stdin.end(input);
  });
}

async function bundle(dir) {
  const esbuild = await import('esbuild');
  const outfile = path.join(dir, 'hooks.bench.cjs');
  await esbuild.build({ entryPoints: [path.join(root, 'src/hooks/index.ts')], bundle: true, format: 'cjs', platform: 'node', target: 'node20', outfile, logLevel: 'warning', absWorkingDir: root });
  return require(outfile);
}

const hook = path.join(root, 'dist/agent-hook.js');
if (!fs.existsSync(hook)) throw new Error(`${hook} is missing: run npm run build first`);
const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-agenthook-')));
let server;
try {
  const { serveHooks, HookJudge, copilotAdapter } = await bundle(dir);
  const { createGuard } = require(path.join(root, 'dist/core.js'));
  const work = path.join(dir, 'project');
  fs.mkdirSync(work);
  const file = path.join(work, 'app.ts');
  const text = Array.from({ length: 256 }, (_, i) => `export const value${i} = ${i}; // a line of about eighty characters ...........\n`).join('');
  fs.writeFileSync(file, text); // about 20 KB
  const guard = createGuard({ roots: [work] });
  const sessions = {
    session: (_client, conversation, agent) => guard.session(agent ? `${conversation}#${agent}` : conversation),
    unplaced: (_client, conversation) => guard.session(`${conversation}#unplaced`),
    forget: () => undefined,
    end: () => undefined,
  };
  const judge = new HookJudge({ copilot: copilotAdapter(() => 100_000) }, sessions);
  server = await serveHooks(path.join(dir, 'home'), (request, wait, signal) => judge.handle(request, wait, signal), (error) => {
    throw error;
  });
  const env = { PATH: process.env.PATH, READGATE_HOOK_SOCKET: server.socket, READGATE_HOOK_TOKEN: server.token };
  const args = [hook, '--client', 'copilot'];
  const input = (event, tool, toolInput, id) => JSON.stringify({ hook_event_name: event, session_id: 'bench-chat', tool_name: tool, tool_input: toolInput, tool_use_id: id, cwd: work });
  const rows = {
    'node -e 0 (floor)': [],
    'a tool not judged (run_in_terminal)': [],
    'read_file, before it runs': [],
    'read_file, after it ran': [],
    'replace_string_in_file, before (allowed)': [],
    'replace_string_in_file, after (recorded)': [],
  };
  const judged = new Set(['read_file, before it runs', 'read_file, after it ran', 'replace_string_in_file, before (allowed)', 'replace_string_in_file, after (recorded)']);
  for (let round = 0; round < ROUNDS + 2; round++) {
    const read = { filePath: file, startLine: 1, endLine: 256 };
    const [from, to] = round % 2 ? ['= 101;', '= 100;'] : ['= 100;', '= 101;'];
    const edit = { filePath: file, oldString: `value100 ${from}`, newString: `value100 ${to}`, explanation: 'bench' };
    const samples = [
      await timed(['-e', '0'], '', env),
      await timed(args, input('PreToolUse', 'run_in_terminal', { command: 'ls' }, `call_t${round}`), env),
      await timed(args, input('PreToolUse', 'read_file', read, `call_r${round}`), env),
      await timed(args, input('PostToolUse', 'read_file', read, `call_r${round}`), env),
      await timed(args, input('PreToolUse', 'replace_string_in_file', edit, `call_e${round}`), env),
    ];
    if (samples[4].stdout !== '') throw new Error(`the edit was not allowed: ${samples[4].stdout}`);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(`value100 ${from}`, `value100 ${to}`)); // the tool writes
    samples.push(await timed(args, input('PostToolUse', 'replace_string_in_file', edit, `call_e${round}`), env));
    if (round < 2) continue; // warm-up: the first spawns pay for cold caches
    Object.values(rows).forEach((list, i) => list.push(samples[i].ms));
  }
  const floor = median(rows['node -e 0 (floor)']);
  let passed = 0;
  let targets = 0;
  console.log(`agent hook cost per tool call (dist/agent-hook.js against a real window, a 20 KB file; ${ROUNDS} rounds, median / p90 ms):`);
  for (const [name, samples] of Object.entries(rows)) {
    if (name.includes('floor')) {
      console.log(`  ${name.padEnd(44)} ${median(samples).toFixed(1).padStart(6)} / ${p90(samples).toFixed(1).padStart(6)}`);
      continue;
    }
    const added = median(samples) - floor;
    const target = judged.has(name) ? TARGET_JUDGED_MS : TARGET_OTHER_MS;
    const pass = added <= target;
    targets++;
    if (pass) passed++;
    console.log(`  ${name.padEnd(44)} ${median(samples).toFixed(1).padStart(6)} / ${p90(samples).toFixed(1).padStart(6)}  (+${added.toFixed(1)} ms over Node's start-up; target ≤ ${target} ms: ${pass ? 'PASS' : 'MISS'})`);
  }
  console.log(`  ${passed}/${targets} agent hook targets pass.`);
  if ((await guard.session('bench-chat').check(file)) !== 'fresh') throw new Error('the edits were not recorded as the session’s own');
  await guard.dispose();
} finally {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
