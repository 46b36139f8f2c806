// What ReadGate's hook adds to a tool call of an agent CLI that keeps its own tools (`setup <agent> --own-tools`):
// the hook process (`node dist/agent-hook.js --root <dir> --own-tools --client <name>`, as `dist/mcp.js setup` writes it) from
// spawn to exit, against `node -e 0` measured in the same rounds. The guard is real: with no window on the folder
// the first hook starts the headless hook guard (dist/mcp.js hook-guard), which then judges every call, so a judged
// call pays for the socket round trip and the guard's work. Targets as for Copilot's hook: Node's start-up plus at
// most 15 ms for a judged call, at most 2 ms for any other (a shell command that reads no file included).
// `npm run bench` prints it in its notes; `node bench/cliHookCost.mjs` alone after `npm run build`.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, p90 } from './stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.READGATE_HOOK_ROUNDS ?? 25);
const TARGET_JUDGED_MS = 15;
const TARGET_OTHER_MS = 2;
const server = path.join(root, 'dist/mcp.js');
if (!fs.existsSync(server)) throw new Error(`${server} is missing: run npm run build first`);

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

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-clihook-')));
const home = path.join(dir, 'home');
const env = { PATH: process.env.PATH, READGATE_HOME: home };
try {
  const work = path.join(dir, 'project');
  fs.mkdirSync(work);
  const file = path.join(work, 'app.ts');
  fs.writeFileSync(file, Array.from({ length: 256 }, (_, i) => `export const value${i} = ${i}; // a line of about eighty characters ...........\n`).join(''));
  // As the set-up writes it: dist/agent-hook.js with the server's roots.
  const hook = (client) => [path.join(root, 'dist/agent-hook.js'), '--root', work, '--own-tools', '--client', client];
  const base = { session_id: 'bench-session', cwd: work, transcript_path: '/dev/null' };
  const claude = (event, tool, toolInput, id, extra = {}) => JSON.stringify({ ...base, hook_event_name: event, tool_name: tool, tool_input: toolInput, tool_use_id: id, ...extra });
  const rows = {
    'node -e 0 (floor)': [],
    'Claude Code: a tool not judged (Bash)': [],
    'Claude Code: Read, before it runs': [],
    'Claude Code: Read, after it ran': [],
    'Claude Code: Edit, before (allowed)': [],
    'Claude Code: Edit, after (recorded)': [],
    'Codex: a shell command that reads no file': [],
    'Codex: a shell read (sed -n), before': [],
  };
  const other = new Set(['Claude Code: a tool not judged (Bash)', 'Codex: a shell command that reads no file']);
  for (let round = 0; round < ROUNDS + 2; round++) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const read = { file_path: file, offset: 1, limit: 256 };
    const response = { type: 'text', file: { filePath: file, content: lines.slice(0, 256).join('\n'), numLines: 256, startLine: 1, totalLines: 256 } };
    const [from, to] = round % 2 ? ['= 101;', '= 100;'] : ['= 100;', '= 101;'];
    const edit = { file_path: file, old_string: `value100 ${from}`, new_string: `value100 ${to}` };
    const samples = [
      await timed(['-e', '0'], '', env),
      await timed(hook('claude-code'), claude('PreToolUse', 'Bash', { command: 'ls' }, `toolu_b${round}`), env),
      await timed(hook('claude-code'), claude('PreToolUse', 'Read', read, `toolu_r${round}`), env),
      await timed(hook('claude-code'), claude('PostToolUse', 'Read', read, `toolu_r${round}`, { tool_response: response }), env),
      await timed(hook('claude-code'), claude('PreToolUse', 'Edit', edit, `toolu_e${round}`), env),
    ];
    if (samples[4].stdout !== '') throw new Error(`the edit was not allowed: ${samples[4].stdout}`);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(`value100 ${from}`, `value100 ${to}`)); // the tool writes
    samples.push(await timed(hook('claude-code'), claude('PostToolUse', 'Edit', edit, `toolu_e${round}`, { tool_response: {} }), env));
    samples.push(await timed(hook('codex'), claude('PreToolUse', 'Bash', { command: 'npm test' }, `call_n${round}`), env));
    samples.push(await timed(hook('codex'), claude('PreToolUse', 'Bash', { command: "sed -n '1,40p' app.ts" }, `call_s${round}`), env));
    if (round < 2) continue; // warm-up: the first call starts the headless guard, and the first spawns pay for cold caches
    Object.values(rows).forEach((list, i) => list.push(samples[i].ms));
  }
  const floor = median(rows['node -e 0 (floor)']);
  let passed = 0;
  let targets = 0;
  console.log(`agent CLI hook cost per tool call (dist/agent-hook.js --root … against the headless hook guard, a 20 KB file; ${ROUNDS} rounds, median / p90 ms):`);
  for (const [name, samples] of Object.entries(rows)) {
    if (name.includes('floor')) {
      console.log(`  ${name.padEnd(44)} ${median(samples).toFixed(1).padStart(6)} / ${p90(samples).toFixed(1).padStart(6)}`);
      continue;
    }
    const added = median(samples) - floor;
    const target = other.has(name) ? TARGET_OTHER_MS : TARGET_JUDGED_MS;
    const pass = added <= target;
    targets++;
    if (pass) passed++;
    console.log(`  ${name.padEnd(44)} ${median(samples).toFixed(1).padStart(6)} / ${p90(samples).toFixed(1).padStart(6)}  (+${added.toFixed(1)} ms over Node's start-up; target ≤ ${target} ms: ${pass ? 'PASS' : 'MISS'})`);
  }
  console.log(`  ${passed}/${targets} agent CLI hook targets pass.`);
} finally {
  // The headless guard this started ends with its folder.
  const hooks = path.join(home, 'hooks');
  for (const name of fs.existsSync(hooks) ? fs.readdirSync(hooks).filter((each) => each.endsWith('.json')) : []) {
    try {
      process.kill(JSON.parse(fs.readFileSync(path.join(hooks, name), 'utf8')).pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 300));
  fs.rmSync(dir, { recursive: true, force: true });
}
