/**
 * One ledger per agent context: a client's hook (`mcp.js hook`) names the context of the coming call, the call
 * carries the same id in `_meta`, and the headless server runs it in that context's own session. Driven here with
 * the real hook process and the SDK client; the real Claude Code CLI drives the same path in test/agents.
 */
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AgentContexts, callIdOf, contextLabel, contextNotesDir, decideHook, MAIN_AGENT, takeNote, writeNote } from '../../../src/mcp/index';
import { HOOK_TIME_LIMIT_MS } from '../../../src/mcp/contextHook';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';

const SERVER = path.join(repoRoot, 'dist/mcp.js');
const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');
type CallResult = { content: { text?: string }[]; isError?: boolean };
const textOf = (result: unknown): string => (result as CallResult).content.map((part) => part.text ?? '').join('');
const rows = (count: number): string => Array.from({ length: count }, (_, i) => `row ${i + 1}`).join('\n') + '\n';
const options = { compactionHooked: true, now: 1_000, cwd: '/work' };

suite('agent contexts: what a hook input asks for (decideHook)', () => {
  test('PreToolUse notes the call: the main agent, or the subagent with its kind', () => {
    assert.deepStrictEqual(decideHook({ hook_event_name: 'PreToolUse', session_id: 'c1', tool_use_id: 'toolu_01A' }, options), {
      kind: 'note',
      callId: 'toolu_01A',
      note: { conversation: 'c1', agent: MAIN_AGENT, compactionHooked: true, time: 1_000 },
    });
    const sub = decideHook({ hook_event_name: 'PreToolUse', session_id: 'c1', tool_use_id: 'toolu_01B', agent_id: 'a7', agent_type: 'Explore' }, { ...options, compactionHooked: false });
    assert.deepStrictEqual(sub, { kind: 'note', callId: 'toolu_01B', note: { conversation: 'c1', agent: 'a7', agentType: 'Explore', compactionHooked: false, time: 1_000 } });
  });

  test('SubagentStop ends that context; PreCompact and a compacted or cleared start forget the main one', () => {
    const stop = decideHook({ hook_event_name: 'SubagentStop', session_id: 'c1', agent_id: 'a7', cwd: '/p' }, options);
    assert.deepStrictEqual(stop, { kind: 'marker', marker: { folder: '/p', client: 'claude-code', time: 1_000, conversation: 'c1', agent: 'a7', end: true } });
    const compact = decideHook({ hook_event_name: 'PreCompact', session_id: 'c1' }, options);
    assert.deepStrictEqual(compact, { kind: 'marker', marker: { folder: '/work', client: 'claude-code', time: 1_000, conversation: 'c1', agent: MAIN_AGENT } });
    for (const source of ['compact', 'clear']) assert.strictEqual(decideHook({ hook_event_name: 'SessionStart', session_id: 'c1', source }, options).kind, 'marker', source);
    for (const source of ['startup', 'resume']) assert.strictEqual(decideHook({ hook_event_name: 'SessionStart', session_id: 'c1', source }, options).kind, 'none', source);
    // Codex's inputs carry turn_id; --client names the client outright.
    const codex = decideHook({ hook_event_name: 'PreCompact', session_id: 'c1', turn_id: 't' }, options);
    assert.strictEqual(codex.kind === 'marker' && codex.marker.client, 'codex-mcp-client');
    const named = decideHook({ hook_event_name: 'PreCompact', session_id: 'c1' }, { ...options, client: 'other' });
    assert.strictEqual(named.kind === 'marker' && named.marker.client, 'other');
  });

  test('anything else asks for nothing: no conversation, a bad call id, other events, not an object', () => {
    for (const input of [null, 42, 'x', [], {}, { hook_event_name: 'PreToolUse', tool_use_id: 'toolu_1' }, { hook_event_name: 'PreToolUse', session_id: 'c', tool_use_id: '../../etc/passwd' }, { hook_event_name: 'PreToolUse', session_id: 'c' }, { hook_event_name: 'Stop', session_id: 'c' }, { hook_event_name: 'SubagentStop', session_id: 'c' }]) {
      assert.strictEqual(decideHook(input, options).kind, 'none', JSON.stringify(input));
    }
  });
});

suite('agent contexts: notes and routing', () => {
  test('a note is taken once, by the call id in _meta (Claude Code\'s or Codex\'s); an old or malformed one never', () => {
    const dir = makeTempDir('readgate-notes-');
    const now = Date.now();
    writeNote('toolu_01', { conversation: 'c', agent: MAIN_AGENT, compactionHooked: true, time: now }, dir);
    assert.strictEqual(fs.statSync(path.join(dir, 'toolu_01.json')).mode & 0o777, 0o600);
    assert.strictEqual(callIdOf({ 'claudecode/toolUseId': 'toolu_01' }), 'toolu_01');
    assert.strictEqual(callIdOf({ callId: 'call_9' }), 'call_9');
    assert.strictEqual(callIdOf({ callId: 'a/b' }), undefined);
    assert.strictEqual(callIdOf(undefined), undefined);
    assert.deepStrictEqual(takeNote('toolu_01', dir, now), { conversation: 'c', agent: MAIN_AGENT, compactionHooked: true, time: now });
    assert.strictEqual(takeNote('toolu_01', dir, now), undefined, 'taken once');
    writeNote('toolu_02', { conversation: 'c', agent: MAIN_AGENT, compactionHooked: true, time: now - 11 * 60_000 }, dir);
    assert.strictEqual(takeNote('toolu_02', dir, now), undefined, 'older than ten minutes');
    fs.writeFileSync(path.join(dir, 'toolu_03.json'), '{"conversation": 3}');
    assert.strictEqual(takeNote('toolu_03', dir, now), undefined);
  });

  test('routing keys a context by MCP session, conversation and agent; a marker reaches exactly its context', () => {
    const dir = makeTempDir('readgate-notes-');
    const contexts = new AgentContexts(dir);
    const note = (id: string, conversation: string, agent: string): void => writeNote(id, { conversation, agent, compactionHooked: true, time: Date.now() }, dir);
    note('t1', 'c1', MAIN_AGENT);
    const main = contexts.route('mcp:A', { 'claudecode/toolUseId': 't1' });
    note('t2', 'c1', 'a7');
    const sub = contexts.route('mcp:A', { 'claudecode/toolUseId': 't2' });
    note('t3', 'c1', MAIN_AGENT);
    const otherConnection = contexts.route('mcp:B', { 'claudecode/toolUseId': 't3' });
    assert.ok(main && sub && otherConnection);
    assert.deepStrictEqual([main.id, sub.id, otherConnection.id], ['mcp:A#c1/main', 'mcp:A#c1/a7', 'mcp:B#c1/main']);
    assert.strictEqual(contexts.route('mcp:A', { 'claudecode/toolUseId': 'never-noted' }), undefined);
    assert.strictEqual(contexts.route('mcp:A', {}), undefined);
    assert.strictEqual(contextLabel('Claude Code 2.1.197', { agent: 'a7', agentType: 'general-purpose' }), 'Claude Code 2.1.197 › subagent general-purpose');
    assert.strictEqual(contextLabel('Claude Code 2.1.197', { agent: MAIN_AGENT }), 'Claude Code 2.1.197 › main agent');
    const compacted = contexts.apply({ folder: '/', time: 1, conversation: 'c1' }, new Set(['mcp:A']));
    assert.deepStrictEqual(compacted.cleared.map((c) => c.id), ['mcp:A#c1/main']);
    const stopped = contexts.apply({ folder: '/', time: 1, conversation: 'c1', agent: 'a7', end: true }, new Set(['mcp:A', 'mcp:B']));
    assert.deepStrictEqual(stopped.ended.map((c) => c.id), ['mcp:A#c1/a7']);
    assert.deepStrictEqual(contexts.of('mcp:A').map((c) => c.id), ['mcp:A#c1/main']);
    const older = contexts.apply({ folder: '/', time: 1 }, new Set(['mcp:A', 'mcp:B']));
    assert.deepStrictEqual(older.cleared.map((c) => c.id).sort(), ['mcp:A#c1/main', 'mcp:B#c1/main'], 'a marker naming no conversation clears every context');
    assert.deepStrictEqual(contexts.end('mcp:B').map((c) => c.id), ['mcp:B#c1/main']);
  });
});

suite('agent contexts: the hook command', () => {
  const hook = (script: string, input: string, home: string, args: string[] = []): { status: number | null; stdout: string; ms: number } => {
    const started = Date.now();
    const run = spawnSync(process.execPath, [script, 'hook', ...args], { input, env: { ...process.env, READGATE_HOME: home, READGATE_DISCOVERY_DIR: '' }, encoding: 'utf8', timeout: 20_000 });
    return { status: run.status, stdout: run.stdout, ms: Date.now() - started };
  };

  test('mcp.js and mcp-bridge.js leave the note for the call, owner-only, and print nothing', () => {
    for (const script of [SERVER, BRIDGE]) {
      const home = makeTempDir('readgate-home-');
      const run = hook(script, JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'c1', tool_use_id: 'toolu_X', agent_id: 'a1', agent_type: 'Explore' }), home, ['--compaction-hooked']);
      assert.deepStrictEqual([run.status, run.stdout], [0, ''], script);
      const dir = contextNotesDir({ READGATE_HOME: home });
      assert.strictEqual(fs.statSync(dir).mode & 0o777, 0o700);
      assert.deepStrictEqual({ ...takeNote('toolu_X', dir), time: 0 }, { conversation: 'c1', agent: 'a1', agentType: 'Explore', compactionHooked: true, time: 0 });
    }
  });

  test('it never breaks the client: bad input or a home it cannot make exit 0, silently', () => {
    const home = makeTempDir('readgate-home-');
    for (const input of ['', 'not json', '[1,2]', '{"hook_event_name":"PreToolUse"}', JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'c', tool_use_id: 'x'.repeat(500) })]) {
      const run = hook(SERVER, input, home);
      assert.deepStrictEqual([run.status, run.stdout], [0, ''], input);
    }
    const file = path.join(makeTempDir('readgate-home-'), 'a-file');
    fs.writeFileSync(file, '');
    const blocked = hook(SERVER, JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'c', tool_use_id: 'toolu_1' }), path.join(file, 'home'));
    assert.deepStrictEqual([blocked.status, blocked.stdout], [0, ''], 'a home that cannot be made');
  });

  test('stdin left open: it gives up after its own time limit and exits 0', async () => {
    const child = spawn(process.execPath, [SERVER, 'hook'], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, READGATE_HOME: makeTempDir('readgate-home-') } });
    child.stdin.write('{"hook_event_name":');
    const started = Date.now();
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.strictEqual(code, 0);
    assert.ok(Date.now() - started < HOOK_TIME_LIMIT_MS + 5_000, `${Date.now() - started} ms`);
    child.stdin.destroy();
  });
});

suite('agent contexts through the headless server (real hook process, SDK client)', () => {
  const open: Client[] = [];
  teardown(async () => {
    for (const client of open.splice(0)) await client.close();
  });

  async function start(root: string, home: string, args: string[] = []): Promise<Client> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER, '--root', root, ...args], env: { ...(process.env as Record<string, string>), READGATE_HOME: home, READGATE_DISCOVERY_DIR: '' }, stderr: 'pipe' });
    const client = new Client({ name: 'claude-code', version: '2.1.332' });
    await client.connect(transport);
    open.push(client);
    return client;
  }

  /** As Claude Code does: the PreToolUse hook runs (and ends) before the call, which carries the same id. */
  function caller(client: Client, home: string, conversation: string, hookArgs: string[] = ['--compaction-hooked']) {
    let next = 0;
    return async (agent: string | undefined, name: string, args: Record<string, unknown>, hooked = true): Promise<string> => {
      const id = `toolu_${conversation}_${++next}_${agent ?? 'main'}`;
      if (hooked) {
        const input = { hook_event_name: 'PreToolUse', session_id: conversation, tool_use_id: id, tool_name: `mcp__readgate__${name}`, ...(agent ? { agent_id: agent, agent_type: 'general-purpose' } : {}), cwd: '/' };
        assert.strictEqual(spawnSync(process.execPath, [SERVER, 'hook', ...hookArgs], { input: JSON.stringify(input), env: { ...process.env, READGATE_HOME: home, READGATE_DISCOVERY_DIR: '' } }).status, 0);
      }
      return textOf(await client.callTool({ name, arguments: args, _meta: { 'claudecode/toolUseId': id } }));
    };
  }

  const hookEvent = (home: string, input: Record<string, unknown>): void => {
    assert.strictEqual(spawnSync(process.execPath, [SERVER, 'hook'], { input: JSON.stringify(input), env: { ...process.env, READGATE_HOME: home, READGATE_DISCOVERY_DIR: '' } }).status, 0);
  };

  test('the main agent gets its placeholder; a subagent\'s read is its own; neither edits lines only the other saw', async () => {
    const root = makeTempDir();
    const home = makeTempDir('readgate-home-');
    fs.writeFileSync(path.join(root, 'a.txt'), rows(300));
    fs.writeFileSync(path.join(root, 'b.txt'), rows(50));
    const call = caller(await start(root, home), home, 'conv1');
    assert.match(await call(undefined, 'readgate_read', { filePath: 'a.txt' }), /read #1\n/);
    assert.match(await call(undefined, 'readgate_read', { filePath: 'a.txt' }), /unchanged since your read #1/, 'the main agent\'s repeated read');
    assert.match(await call('sub1', 'readgate_read', { filePath: 'a.txt', limit: 10 }), /row 1\n/, 'the subagent never read it: content');
    assert.match(await call('sub1', 'readgate_edit', { filePath: 'a.txt', oldString: 'row 200\n', newString: 'row two hundred\n' }), /^EDIT_OUTSIDE_SEEN_RANGE: /, 'line 200 only the main agent saw');
    assert.match(await call('sub1', 'readgate_read', { filePath: 'b.txt' }), /row 50/);
    assert.match(await call(undefined, 'readgate_edit', { filePath: 'b.txt', oldString: 'row 5\n', newString: 'row five\n' }), /^EDIT_REQUIRES_PRIOR_READ: /, 'b.txt only the subagent read');
    // The subagent stops: its context is dropped; a call of the same agent id starts afresh.
    hookEvent(home, { hook_event_name: 'SubagentStop', session_id: 'conv1', agent_id: 'sub1', cwd: root });
    assert.match(await call('sub1', 'readgate_edit', { filePath: 'b.txt', oldString: 'row 5\n', newString: 'row five\n' }), /^EDIT_REQUIRES_PRIOR_READ: /);
    assert.strictEqual(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), rows(50));
  });

  test('an outside change of two lines: the re-read is a delta; after a compaction the read is content again', async () => {
    const root = makeTempDir();
    const home = makeTempDir('readgate-home-');
    fs.writeFileSync(path.join(root, 'a.txt'), rows(300));
    const call = caller(await start(root, home), home, 'conv2');
    const first = await call(undefined, 'readgate_read', { filePath: 'a.txt' });
    const lines = rows(300).split('\n');
    lines[99] = 'row 100 changed';
    lines[199] = 'row 200 changed';
    fs.writeFileSync(path.join(root, 'a.txt'), lines.join('\n'));
    const delta = await call(undefined, 'readgate_read', { filePath: 'a.txt' });
    assert.match(delta, /only what changed since your read #1/);
    assert.match(delta, /100\trow 100 changed\n/);
    assert.match(delta, /200\trow 200 changed\n/);
    assert.doesNotMatch(delta, /row 150/);
    assert.ok(delta.length * 5 < first.length, `${delta.length} of ${first.length}`);
    hookEvent(home, { hook_event_name: 'PreCompact', session_id: 'conv2', cwd: root, trigger: 'auto' });
    assert.match(await call(undefined, 'readgate_read', { filePath: 'a.txt' }), /row 150\n/, 'compacted: content again');
    // Another conversation on the same server is not touched by conv2's compaction.
  });

  test('without the set-up: a call that names no context, or a hook without --compaction-hooked, keeps today\'s rule (no placeholder)', async () => {
    const root = makeTempDir();
    const home = makeTempDir('readgate-home-');
    fs.writeFileSync(path.join(root, 'a.txt'), rows(20));
    const client = await start(root, home);
    const unhooked = caller(client, home, 'conv3');
    await unhooked(undefined, 'readgate_read', { filePath: 'a.txt' }, false);
    assert.match(await unhooked(undefined, 'readgate_read', { filePath: 'a.txt' }, false), /\trow 20$/);
    const identifiedOnly = caller(client, home, 'conv4', []);
    await identifiedOnly(undefined, 'readgate_read', { filePath: 'a.txt' });
    assert.match(await identifiedOnly(undefined, 'readgate_read', { filePath: 'a.txt' }), /\trow 20$/, 'compaction not hooked: content');
    // The unidentified call's read does not count for an identified context either.
    assert.match(await identifiedOnly('sub9', 'readgate_edit', { filePath: 'a.txt', oldString: 'row 3\n', newString: 'x\n' }), /^EDIT_REQUIRES_PRIOR_READ: /);
  });
});
