/**
 * One ledger per agent context, through the real Codex CLI: with hooks running `node dist/mcp.js hook` (trusted,
 * as a user's review in `/hooks` records them), Codex's `PreToolUse` hook names the context of every ReadGate
 * call (its `tool_use_id` is the call's `_meta.callId`: codexFacts.test.ts), so the main agent's repeated read of
 * an unchanged file is ReadGate's "unchanged" placeholder, and a subagent's first read of that file is content.
 * Without the hooks a repeated read is content, as before. Judged only by what the model was shown.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { makeTempDir } from '../unit/helpers/tempDir';
import { repoRoot } from '../unit/helpers/repoRoot';
import { ensureAgentCli } from './install';
import type { ToolResultRecord } from './modelServer';
import { describeCall, isPlaceholder } from './modelView';
import { report } from './report';
import { type AgentRun, runAgent } from './runAgent';
import { byContext, call, say, steps } from './script';

const SERVER = path.join(repoRoot, 'dist/mcp.js');
const hook = (...args: string[]) => ({ type: 'command', command: [process.execPath, SERVER, 'hook', ...args].join(' ') });
/** The hooks ReadGate's set-up would give Codex: the call's context before each ReadGate call, and forgetting on compaction, clear and a subagent's end. */
const HOOKS = {
  hooks: {
    PreToolUse: [{ matcher: 'mcp__readgate__.*', hooks: [hook('--compaction-hooked')] }],
    PreCompact: [{ hooks: [hook()] }],
    SessionStart: [{ matcher: 'compact|clear', hooks: [hook()] }],
    SubagentStop: [{ hooks: [hook()] }],
  },
};
const A = Array.from({ length: 300 }, (_, i) => `a_${i + 1} = ${i + 1}`).join('\n') + '\n';
const SUBAGENT = 'Subagent task 4b8e';
const SUBAGENT_PROMPT = `${SUBAGENT}: read a.py with readgate_read and say what it holds.`;

const reads = (run: AgentRun, kind: 'main' | 'subagent'): ToolResultRecord[] => run.toolResults.filter((record) => record.tool === 'readgate_read' && record.context.kind === kind);

async function readTwice(withHooks: boolean): Promise<AgentRun> {
  const root = makeTempDir('readgate-codex-contexts-');
  fs.writeFileSync(path.join(root, 'a.py'), A);
  let agentId = '';
  const run = await runAgent({
    cli: 'codex',
    cwd: root,
    prompt: 'Look at a.py twice, then have a subagent look at it.',
    ...(withHooks ? { hooks: HOOKS } : {}),
    script: byContext(
      steps([
        call('readgate_read', { filePath: 'a.py' }),
        call('readgate_read', { filePath: 'a.py' }),
        call('spawn_agent', { message: SUBAGENT_PROMPT }),
        (turn) => {
          agentId = (JSON.parse(turn.lastResults[0]?.text ?? '{}') as { agent_id?: string }).agent_id ?? '';
          return call('wait_agent', { targets: [agentId], timeout_ms: 60_000 });
        },
        say('Done.'),
      ]),
      { [SUBAGENT]: steps([call('readgate_read', { filePath: 'a.py' }), say('a.py holds 300 assignments.')]) },
    ),
  });
  assert.deepStrictEqual(run.scriptErrors, []);
  assert.strictEqual(run.exitCode, 0, run.stderr);
  return run;
}

suiteSetup(function () {
  this.timeout(600_000);
  ensureAgentCli('codex');
});

suite('Codex with ReadGate\'s hooks (`mcp.js hook`): a ledger per agent context, as the model sees it', () => {
  let run: AgentRun;
  suiteSetup(async function () {
    this.timeout(300_000);
    run = await readTwice(true);
    report('codex-contexts', run.toolResults.map(describeCall));
  });

  test('the main agent\'s repeated read of an unchanged file reaches the model as the placeholder', () => {
    const [first, second] = reads(run, 'main');
    assert.match(first?.result?.text ?? '', /a_150 = 150\n/, describeCall(first));
    assert.ok(second && isPlaceholder(second), describeCall(second));
    assert.match(second.result?.text ?? '', /are unchanged since your read #1/);
  });

  test('the subagent\'s first read of that file, which only the main agent had read, is content', () => {
    const [read] = reads(run, 'subagent');
    assert.ok(read && !isPlaceholder(read), describeCall(read));
    assert.match(read.result?.text ?? '', /a_150 = 150\n/);
  });
});

suite('Codex without the hooks: a repeated read is content, as before', () => {
  test('no hook names the context, so the connection keeps one ledger without placeholders', async function () {
    this.timeout(300_000);
    const run = await readTwice(false);
    report('codex-contexts-without-hooks', run.toolResults.map(describeCall));
    const [first, second] = reads(run, 'main');
    assert.match(first?.result?.text ?? '', /a_150 = 150\n/, describeCall(first));
    assert.ok(second && !isPlaceholder(second), describeCall(second));
    assert.match(second.result?.text ?? '', /a_150 = 150\n/);
  });
});
