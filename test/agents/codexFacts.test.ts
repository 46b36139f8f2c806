/**
 * What Codex CLI 0.171 does with MCP tools, hooks and long results under `codex exec`, as the model and the MCP
 * servers see it: the facts ReadGate's Codex support rests on. They pass today: they describe the CLI.
 *
 * - Hooks run only once trusted; then a `PreToolUse` hook runs before every MCP call, naming the tool
 *   `mcp__<server>__<tool>`, with `tool_use_id` equal to the call id the MCP server gets as `_meta.callId`,
 *   and `session_id` equal to `_meta.threadId` (the main agent's thread). A subagent's call carries `agent_id`
 *   (its thread, its calls' `_meta.threadId`) and `agent_type`; its `session_id` stays the main thread's.
 * - `default_tools_approval_mode = "approve"` is what runs an MCP tool not annotated read-only under `codex exec`.
 * - A result reaches the model as two parts, "Wall time: … seconds\nOutput:" and the text, cut to its first and
 *   last bytes around "…N tokens truncated…" beyond the model's budget; an error result looks the same.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { makeTempDir } from '../unit/helpers/tempDir';
import { type HookRecord, readHookLog } from './hookRecorder';
import { ensureAgentCli } from './install';
import type { ToolResultRecord } from './modelServer';
import { describeCall } from './modelView';
import { report } from './report';
import { type AgentRun, readgateServer, runAgent } from './runAgent';
import { byContext, call, say, type Script, steps } from './script';
import { textOfLength } from './textServer';

const APP = 'def main():\n    print("hello")\n';
const SUBAGENT = 'Subagent task 7f3e';
const SUBAGENT_PROMPT = `${SUBAGENT}: read app.py with readgate_read, then call probe.`;
const WALL_TIME = /^Wall time: \d+\.\d{4} seconds\nOutput:$/;
const APPROVAL_REFUSAL = 'MCP tool call requires approval, but approval policy is never';

const probeServer = () => ({ command: process.execPath, args: [path.join(__dirname, 'probeServer.js')] });
const textServer = () => ({ command: process.execPath, args: [path.join(__dirname, 'textServer.js')] });

interface ProbeAnswer {
  env: Record<string, string | null>;
  meta: Record<string, unknown>;
  client: string | null;
  pid: number;
  time: number;
}
/** The probe's JSON: the last part of what the model was shown. */
const probeAnswer = (record: ToolResultRecord | undefined): ProbeAnswer => JSON.parse(record?.result?.parts?.at(-1) ?? record?.result?.text ?? '{}') as ProbeAnswer;

/** A hooks.json whose hooks record their input to `log`: every PreToolUse (label "any"), ReadGate's only ("readgate"), and the session and subagent events. */
function recordingHooks(log: string): unknown {
  const record = (label: string) => ({ type: 'command', command: `${process.execPath} ${path.join(__dirname, 'hookRecorder.js')} ${log} ${label}` });
  return {
    hooks: {
      PreToolUse: [
        { matcher: '.*', hooks: [record('any')] },
        { matcher: 'mcp__readgate__.*', hooks: [record('readgate')] },
      ],
      SessionStart: [{ hooks: [record('start')] }],
      SubagentStart: [{ hooks: [record('subagent-start')] }],
      SubagentStop: [{ hooks: [record('subagent-stop')] }],
    },
  };
}

function project(): { root: string; log: string } {
  const root = makeTempDir('readgate-codex-');
  fs.writeFileSync(path.join(root, 'app.py'), APP);
  return { root, log: path.join(makeTempDir('readgate-codex-hooks-'), 'hooks.jsonl') };
}

const pre = (hooks: HookRecord[], label = 'any'): HookRecord[] => hooks.filter((hook) => hook.label === label && hook.input.hook_event_name === 'PreToolUse');

suiteSetup(function () {
  this.timeout(600_000);
  ensureAgentCli('codex');
});

suite('Codex: trusted hooks around MCP calls, of the main agent and of a subagent', () => {
  let run: AgentRun;
  let hooks: HookRecord[];
  let root: string;
  suiteSetup(async function () {
    this.timeout(300_000);
    const made = project();
    root = made.root;
    let agentId = '';
    run = await runAgent({
      cli: 'codex',
      cwd: root,
      prompt: 'Read app.py, call probe, fix the greeting, and have a subagent look too.',
      mcpServers: { readgate: readgateServer(root), probe: probeServer() },
      env: { READGATE_PROBE_VARIABLE: 'set by the test' },
      hooks: recordingHooks(made.log),
      script: byContext(
        steps([
          call('readgate_read', { filePath: 'app.py' }),
          call('probe', { names: ['HOME', 'PATH', 'READGATE_HOME', 'READGATE_PROBE_VARIABLE', 'CODEX_HOME', 'SCRIPTED_MODEL_API_KEY'] }),
          call('readgate_edit', { filePath: 'app.py', oldString: '    print("hello")', newString: '    print("hello, world")' }),
          call('spawn_agent', { message: SUBAGENT_PROMPT }),
          (turn) => {
            agentId = (JSON.parse(turn.lastResults[0]?.text ?? '{}') as { agent_id?: string }).agent_id ?? '';
            return call('wait_agent', { targets: [agentId], timeout_ms: 60_000 });
          },
          say('Done.'),
        ]),
        { [SUBAGENT]: steps([call('readgate_read', { filePath: 'app.py' }), call('probe', { names: [] }), say('app.py prints a greeting.')]) },
      ),
    });
    hooks = readHookLog(made.log);
    assert.deepStrictEqual(run.scriptErrors, []);
    assert.strictEqual(run.exitCode, 0, run.stderr);
    report('codex-hooks', { calls: run.toolResults.map(describeCall), hooks: hooks.map((hook) => ({ label: hook.label, ...hook.input, transcript_path: undefined })) });
  });

  test('MCP tools are offered as one namespace per server, `mcp__<server>`, holding the server\'s own tool names', () => {
    const first = run.requests.find((request) => request.context?.kind === 'main');
    const tools = (first?.body as { tools: { type: string; name: string; tools?: { name: string }[] }[] }).tools;
    const readgate = tools.find((tool) => tool.name === 'mcp__readgate');
    assert.strictEqual(readgate?.type, 'namespace');
    assert.deepStrictEqual(readgate?.tools?.map((tool) => tool.name).sort(), ['readgate_applyPatch', 'readgate_edit', 'readgate_multiEdit', 'readgate_read', 'readgate_write']);
  });

  test('a PreToolUse hook runs before each MCP call (before the server gets it); its tool_name is mcp__<server>__<tool> and its tool_input the arguments', () => {
    const mcp = run.toolResults.filter((record) => record.name.startsWith('mcp__'));
    assert.deepStrictEqual(mcp.map((record) => record.name), ['mcp__readgate__readgate_read', 'mcp__probe__probe', 'mcp__readgate__readgate_edit', 'mcp__readgate__readgate_read', 'mcp__probe__probe']);
    for (const record of mcp) {
      const hook = pre(hooks).find((each) => each.input.tool_use_id === record.id);
      assert.ok(hook, `no PreToolUse hook for ${describeCall(record)}`);
      assert.strictEqual(hook.input.tool_name, record.name);
      assert.deepStrictEqual(hook.input.tool_input, record.input);
      if (record.tool === 'probe') assert.ok(hook.time <= probeAnswer(record).time, `hook at ${hook.time}, call at ${probeAnswer(record).time}`);
    }
    assert.match(run.toolResults[2].result?.text ?? '', /^Wall time[\s\S]*Edited /, describeCall(run.toolResults[2]));
  });

  test('a matcher `mcp__readgate__.*` limits a hook to ReadGate\'s tools; Codex\'s own tools have other names (spawn_agent, multi_agent_v1wait_agent)', () => {
    assert.deepStrictEqual(pre(hooks, 'readgate').map((hook) => hook.input.tool_name), ['mcp__readgate__readgate_read', 'mcp__readgate__readgate_edit', 'mcp__readgate__readgate_read']);
    const own = pre(hooks).map((hook) => String(hook.input.tool_name)).filter((name) => !name.startsWith('mcp__'));
    assert.deepStrictEqual(own, ['spawn_agent', 'multi_agent_v1wait_agent']);
  });

  test('the hook\'s tool_use_id is the MCP request\'s _meta.callId; its session_id is _meta.threadId (main agent)', () => {
    const probe = run.toolResults.find((record) => record.tool === 'probe' && record.context.kind === 'main');
    const { meta } = probeAnswer(probe);
    const hook = pre(hooks).find((each) => each.input.tool_use_id === probe?.id);
    assert.strictEqual(meta.callId, probe?.id);
    assert.strictEqual(hook?.input.tool_use_id, meta.callId);
    assert.strictEqual(hook?.input.session_id, meta.threadId);
    assert.strictEqual(meta.sessionId, meta.threadId);
    assert.deepStrictEqual(Object.keys(meta).sort(), ['callId', 'itemId', 'progressToken', 'sessionId', 'threadId', 'windowId', 'x-codex-turn-metadata']);
    assert.ok(typeof hook?.input.turn_id === 'string' && !('agent_id' in (hook?.input ?? {})), JSON.stringify(hook?.input));
  });

  test('a subagent\'s call: the hook carries agent_id (its thread, the call\'s _meta.threadId) and agent_type "default"; session_id stays the main thread\'s', () => {
    const mainProbe = probeAnswer(run.toolResults.find((record) => record.tool === 'probe' && record.context.kind === 'main'));
    const subProbe = run.toolResults.find((record) => record.tool === 'probe' && record.context.kind === 'subagent');
    const { meta } = probeAnswer(subProbe);
    const hook = pre(hooks).find((each) => each.input.tool_use_id === subProbe?.id);
    assert.strictEqual(meta.callId, subProbe?.id);
    assert.strictEqual(hook?.input.agent_id, meta.threadId);
    assert.notStrictEqual(meta.threadId, mainProbe.meta.threadId);
    assert.strictEqual(hook?.input.agent_type, 'default');
    assert.strictEqual(hook?.input.session_id, mainProbe.meta.threadId);
    assert.strictEqual(meta.sessionId, mainProbe.meta.threadId);
    const turn = meta['x-codex-turn-metadata'] as Record<string, unknown>;
    assert.strictEqual(turn.parent_thread_id, mainProbe.meta.threadId);
    assert.strictEqual(turn.thread_source, 'subagent');
    // Unlike Claude Code, whose agents share one server process, the subagent's thread has its own.
    assert.notStrictEqual(probeAnswer(subProbe).pid, mainProbe.pid);
    const stop = hooks.find((each) => each.label === 'subagent-stop');
    assert.strictEqual(stop?.input.agent_id, hook?.input.agent_id);
    assert.strictEqual(stop?.input.session_id, mainProbe.meta.threadId);
  });

  test('the client calls itself codex-mcp-client; an MCP server gets HOME and PATH but not the rest of Codex\'s environment; a hook gets all of it', () => {
    const probe = probeAnswer(run.toolResults.find((record) => record.tool === 'probe' && record.context.kind === 'main'));
    assert.strictEqual(probe.client, 'codex-mcp-client');
    assert.strictEqual(probe.env.HOME, run.home);
    assert.ok(probe.env.PATH);
    assert.strictEqual(probe.env.READGATE_PROBE_VARIABLE, null);
    assert.strictEqual(probe.env.CODEX_HOME, null);
    assert.strictEqual(probe.env.SCRIPTED_MODEL_API_KEY, null);
    // READGATE_HOME reaches the servers only because the adapter names it in their `env` (codexCli.ts).
    assert.strictEqual(probe.env.READGATE_HOME, path.join(run.home, '.readgate'));
    assert.ok(hooks.every((hook) => hook.readgateHome === path.join(run.home, '.readgate')));
  });
});

suite('Codex: hooks not trusted, and MCP servers configured with command and args only', () => {
  let run: AgentRun;
  let hooks: HookRecord[];
  let after: string;
  suiteSetup(async function () {
    this.timeout(300_000);
    const { root, log } = project();
    run = await runAgent({
      cli: 'codex',
      cwd: root,
      prompt: 'Read app.py, fix the greeting, call probe.',
      mcpServers: { readgate: readgateServer(root), probe: probeServer() },
      // What a user who wrote only command and args has: Codex's own default approval mode.
      settings: { mcp_servers: { readgate: { default_tools_approval_mode: null }, probe: { default_tools_approval_mode: null } } },
      hooks: recordingHooks(log),
      hookTrust: 'none',
      script: steps([
        call('readgate_read', { filePath: 'app.py' }),
        call('readgate_edit', { filePath: 'app.py', oldString: '    print("hello")', newString: '    print("hello, world")' }),
        call('probe', { names: [] }),
        say('Done.'),
      ]),
    });
    hooks = readHookLog(log);
    after = fs.readFileSync(path.join(root, 'app.py'), 'utf8');
    assert.deepStrictEqual(run.scriptErrors, []);
    report('codex-untrusted', { calls: run.toolResults.map(describeCall), hooks: hooks.length });
  });

  test('`codex exec` skips hooks nobody trusted, and says nothing about it', () => {
    assert.deepStrictEqual(hooks, []);
    assert.doesNotMatch(run.stdout, /hook/i);
    assert.doesNotMatch(run.stderr, /hook/i);
  });

  test('a tool annotated read-only runs (readgate_read); every other MCP call comes back "MCP tool call requires approval, but approval policy is never"', () => {
    const [read, edit, probe] = run.toolResults;
    assert.match(read.result?.text ?? '', /print\("hello"\)/, describeCall(read));
    for (const record of [edit, probe]) assert.deepStrictEqual(record.result?.parts?.slice(1), [APPROVAL_REFUSAL], describeCall(record));
    assert.strictEqual(after, APP);
  });
});

suite('Codex: --dangerously-bypass-hook-trust runs hooks nobody trusted', () => {
  test('the hooks run, and `codex exec` reports the flag as an error item of its JSON output', async function () {
    this.timeout(300_000);
    const { root, log } = project();
    const run = await runAgent({ cli: 'codex', cwd: root, prompt: 'Call probe.', mcpServers: { probe: probeServer() }, hooks: recordingHooks(log), hookTrust: 'bypass', script: steps([call('probe', { names: [] }), say('Done.')]) });
    const hooks = readHookLog(log);
    assert.strictEqual(run.exitCode, 0, run.stderr);
    assert.deepStrictEqual(pre(hooks).map((hook) => [hook.input.tool_name, hook.input.tool_use_id]), [['mcp__probe__probe', run.toolResults[0].id]]);
    assert.ok(hooks.some((hook) => hook.label === 'start'), 'no SessionStart hook');
    assert.match(run.stdout, /"type":"error","message":"`--dangerously-bypass-hook-trust` is enabled\. Enabled hooks may run without review for this invocation\."/);
  });
});

suite('Codex: a project\'s own .codex/config.toml and .codex/hooks.json', () => {
  /** A project whose .codex/config.toml names ReadGate (approved) and whose .codex/hooks.json records every PreToolUse. */
  async function projectRun(options: { trustProject?: boolean; args?: string[]; hookTrust?: 'trusted' | 'none' }) {
    const { root, log } = project();
    fs.mkdirSync(path.join(root, '.codex'));
    const server = readgateServer(root);
    fs.writeFileSync(path.join(root, '.codex/config.toml'), `[mcp_servers.readgate]\ncommand = ${JSON.stringify(server.command)}\nargs = ${JSON.stringify(server.args)}\ndefault_tools_approval_mode = "approve"\n`);
    fs.writeFileSync(path.join(root, '.codex/hooks.json'), JSON.stringify(recordingHooks(log), null, 2));
    const run = await runAgent({ cli: 'codex', cwd: root, prompt: 'Read app.py.', projectConfigOnly: true, ...options, keepHome: true, script: steps([call('readgate_read', { filePath: 'app.py' }), say('Done.')]) });
    const config = fs.readFileSync(path.join(run.home, '.codex/config.toml'), 'utf8');
    fs.rmSync(run.home, { recursive: true, force: true });
    assert.deepStrictEqual(run.scriptErrors, []);
    const offered = run.requests.find((request) => request.context?.kind === 'main')?.conversation?.toolNames ?? [];
    return { run, hooks: readHookLog(log), offered, config };
  }

  test('in a folder not trusted, `codex exec` ignores both: no readgate tool, no hook', async function () {
    this.timeout(300_000);
    const { run, hooks, offered } = await projectRun({});
    assert.ok(!offered.includes('mcp__readgate__readgate_read'), offered.join(', '));
    assert.deepStrictEqual(hooks, []);
    assert.match(run.toolResults[0].result?.text ?? '', /unsupported call/, describeCall(run.toolResults[0]));
  });

  test('`codex exec --trust` trusts the folder: the project\'s server runs, its hooks still do not (not reviewed)', async function () {
    this.timeout(300_000);
    const { run, hooks, offered } = await projectRun({ args: ['--trust'] });
    assert.ok(offered.includes('mcp__readgate__readgate_read'), offered.join(', '));
    assert.match(run.toolResults[0].result?.text ?? '', /print\("hello"\)/, describeCall(run.toolResults[0]));
    assert.deepStrictEqual(hooks, []);
  });

  test('in a trusted folder, the project\'s hooks run once trusted (trusted_hash under their key, `<root>/.codex/hooks.json:pre_tool_use:0:0`)', async function () {
    this.timeout(300_000);
    const { run, hooks, config } = await projectRun({ trustProject: true, hookTrust: 'trusted' });
    assert.match(config, /\[hooks\.state\."[^"]+\/\.codex\/hooks\.json:pre_tool_use:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/, config);
    assert.deepStrictEqual(pre(hooks).map((hook) => [hook.input.tool_name, hook.input.tool_use_id]), [['mcp__readgate__readgate_read', run.toolResults[0].id]]);
  });
});

/** Results of the given lengths (and kinds) from the `text` server, in one conversation. */
interface Ask {
  length: number;
  kind?: 'lines' | 'utf8';
  isError?: boolean;
}
async function results(asks: Ask[], options: { settings?: Record<string, unknown>; tool?: string } = {}): Promise<{ run: AgentRun; shown: { ask: Ask; bytes: number; parts: string[]; whole: boolean; head?: number; marker?: string; tail?: number }[] }> {
  const root = makeTempDir('readgate-codex-');
  const script: Script = steps([...asks.map((ask) => call(options.tool ?? 'text', { ...ask })), say('Done.')]);
  const run = await runAgent({ cli: 'codex', cwd: root, prompt: 'Fetch the texts.', mcpServers: { text: textServer() }, settings: options.settings, script });
  assert.deepStrictEqual(run.scriptErrors, []);
  assert.strictEqual(run.exitCode, 0, run.stderr);
  const shown = run.toolResults.map((record, i) => {
    const ask = asks[i];
    const text = textOfLength(ask.length, ask.kind);
    const parts = record.result?.parts ?? [];
    const last = parts.at(-1) ?? '';
    const cut = /…\d+ tokens truncated…/.exec(last);
    return {
      ask,
      bytes: Buffer.byteLength(text),
      parts,
      whole: last === text,
      ...(cut ? { head: Buffer.byteLength(last.slice(0, cut.index)), marker: cut[0], tail: Buffer.byteLength(last.slice(cut.index + cut[0].length)) } : {}),
    };
  });
  return { run, shown };
}

/** At most the first `bytes` bytes of `text`, ending at a character boundary. */
function headOf(text: string, bytes: number): string {
  let head = '';
  for (const char of text) {
    if (Buffer.byteLength(head + char) > bytes) break;
    head += char;
  }
  return head;
}
/** At most the last `bytes` bytes of `text`, starting at a character boundary. */
const tailOf = (text: string, bytes: number): string => [...headOf([...text].reverse().join(''), bytes)].reverse().join('');

suite('Codex: how much of a long MCP result the model is shown', () => {
  test('with its fallback model metadata (a model it does not know): whole up to 11,964 bytes; beyond, the first and last 5,982 bytes around "…N tokens truncated…", mid-line; an error result looks the same', async function () {
    this.timeout(300_000);
    const asks: Ask[] = [{ length: 5_000 }, { length: 9_000 }, { length: 11_964 }, { length: 11_965 }, { length: 12_000 }, { length: 20_000 }, { length: 20_000, isError: true }, { length: 6_100, kind: 'utf8' }];
    const { run, shown } = await results(asks);
    report('codex-result-size-fallback', shown.map(({ parts, ...row }) => ({ ...row, shownBytes: Buffer.byteLength(parts.at(-1) ?? ''), first: parts[0] })));
    for (const row of shown) {
      assert.strictEqual(row.parts.length, 2, JSON.stringify(row.parts).slice(0, 300));
      assert.match(row.parts[0], WALL_TIME);
    }
    assert.deepStrictEqual(shown.map((row) => row.whole), [true, true, true, false, false, false, false, false]);
    for (const row of shown.filter((each) => !each.whole)) {
      const text = textOfLength(row.ask.length, row.ask.kind);
      // 5,982 bytes each side; the budget counts bytes: 6,100 two-byte characters (12,139 bytes) are cut too,
      // each side at the last character boundary within its bytes.
      assert.strictEqual(row.parts[1], `${headOf(text, 5_982)}${row.marker}${tailOf(text, 5_982)}`, JSON.stringify(row.ask));
      if (row.ask.kind !== 'utf8') assert.deepStrictEqual([row.head, row.tail], [5_982, 5_982]);
      assert.ok(!headOf(text, 5_982).endsWith('\n'), 'cut at a line end');
    }
    // An error result (isError) is shown exactly as the same text without the flag: nothing tells the model.
    const [plain, error] = [shown[5], shown[6]];
    assert.strictEqual(error.parts[1], plain.parts[1]);
    const outputs = (run.requests.at(-1)?.body as { input: { type: string; call_id?: string }[] }).input.filter((item) => item.type === 'function_call_output');
    for (const item of outputs) assert.deepStrictEqual(Object.keys(item).sort(), ['call_id', 'id', 'output', 'type']);
  });

  test('tool_output_token_limit = 10000 moves the limit to 47,964 bytes (12,000 tokens of 4 bytes, less the Wall time part\'s 9 tokens)', async function () {
    this.timeout(300_000);
    const { shown } = await results([{ length: 47_964 }, { length: 47_965 }], { settings: { tool_output_token_limit: 10_000 } });
    report('codex-result-size-token-limit-10000', shown.map(({ parts, ...row }) => ({ ...row, shownBytes: Buffer.byteLength(parts.at(-1) ?? '') })));
    assert.deepStrictEqual(shown.map((row) => row.whole), [true, false]);
    assert.deepStrictEqual([shown[1].head, shown[1].tail], [23_982, 23_982]);
  });

  test('with a model of its catalog (gpt-5.5, truncation_policy 10,000 tokens) the limit is the same 47,964 bytes; MCP tools are then deferred behind tool_search', async function () {
    this.timeout(300_000);
    // The script calls the tool without searching for it first: Codex runs a call of mcp__text/text all the same.
    const { run, shown } = await results([{ length: 47_964 }, { length: 47_965 }], { settings: { model: 'gpt-5.5' }, tool: 'mcp__text__text' });
    report('codex-result-size-gpt-5.5', shown.map(({ parts, ...row }) => ({ ...row, shownBytes: Buffer.byteLength(parts.at(-1) ?? '') })));
    const first = run.requests.find((request) => request.context?.kind === 'main')?.conversation;
    assert.ok(first?.toolNames.includes('tool_search'), first?.toolNames.join(', '));
    assert.ok(!first?.toolNames.some((name) => name.startsWith('mcp__text')), first?.toolNames.join(', '));
    assert.deepStrictEqual(shown.map((row) => row.whole), [true, false]);
    assert.deepStrictEqual([shown[1].head, shown[1].tail], [23_982, 23_982]);
  });
});
