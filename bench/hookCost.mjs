// What Claude Code's PreToolUse hook (`node <script> hook`) adds to each ReadGate tool call: the hook process
// from spawn to exit, against `node -e 0` (Node's own start-up, the floor of any command hook) measured in the
// same rounds, for dist/mcp.js and dist/mcp-bridge.js. Each writes a real note into a temp READGATE_HOME.
// `npm run bench` prints it in its notes; `node bench/hookCost.mjs` alone after `npm run build`.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, p90 } from './stats.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.READGATE_HOOK_ROUNDS ?? 25);


function timed(args, input, env) {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { input, env, stdio: ['pipe', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (run.status !== 0) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return ms;
}

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-hookcost-'));
try {
  const env = { ...process.env, READGATE_HOME: home, READGATE_DISCOVERY_DIR: '' };
  const rows = { 'node -e 0 (floor)': [], 'node dist/mcp.js hook': [], 'node dist/mcp-bridge.js hook': [] };
  for (let round = 0; round < ROUNDS + 2; round++) {
    const input = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'bench', tool_use_id: `toolu_bench_${round}`, tool_name: 'mcp__readgate__readgate_read', tool_input: { filePath: 'a.ts' }, cwd: root });
    const samples = [timed(['-e', '0'], '', env), timed([path.join(root, 'dist/mcp.js'), 'hook', '--compaction-hooked'], input, env), timed([path.join(root, 'dist/mcp-bridge.js'), 'hook', '--compaction-hooked'], input, env)];
    if (round < 2) continue; // warm-up: the first spawns pay for cold caches
    Object.values(rows).forEach((list, i) => list.push(samples[i]));
  }
  const notes = fs.readdirSync(path.join(home, 'contexts')).filter((name) => name.endsWith('.json'));
  if (notes.length === 0) throw new Error('the hook wrote no note');
  const floor = median(rows['node -e 0 (floor)']);
  console.log(`hook cost per tool call (${ROUNDS} rounds, median / p90 ms):`);
  for (const [name, samples] of Object.entries(rows)) {
    const added = name.includes('floor') ? '' : ` (+${(median(samples) - floor).toFixed(1)} ms over Node's start-up)`;
    console.log(`  ${name.padEnd(30)} ${median(samples).toFixed(1).padStart(6)} / ${p90(samples).toFixed(1).padStart(6)}${added}`);
  }
} finally {
  fs.rmSync(home, { recursive: true, force: true });
}
