/**
 * The agent hook process (the built `dist/agent-hook.js`, run as a client's hook runner runs it: input on stdin,
 * the window named in its environment) against the window's real socket (`serveHooks`). It asks the window only
 * for judged calls, prints only the window's answer, and otherwise allows silently: nothing on stdout or stderr,
 * exit 0, whatever goes wrong. A change already waiting for the user's review is denied when the wait ends
 * without a decision. The socket is private to this user: another user's process gets nothing.
 */
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { serveHooks, type HookServer } from '../../../src/hooks/index';
import { needsRoot } from '../helpers/needsRoot';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';

const HOOK = path.join(repoRoot, 'dist/agent-hook.js');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the hook process with `input` on stdin and the window's socket and secret (unless `env` overrides them). */
function runHook(input: unknown, server: HookServer | undefined, env: Record<string, string | undefined> = {}): Promise<Ran> {
  if (!fs.existsSync(HOOK)) throw new Error(`${HOOK} is missing: run npm run build first`);
  const child = spawn(process.execPath, [HOOK, '--client', 'copilot'], {
    env: { PATH: process.env.PATH, ...(server ? { READGATE_HOOK_SOCKET: server.socket, READGATE_HOOK_TOKEN: server.token } : {}), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(typeof input === 'string' ? input : JSON.stringify(input));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

const silent = (ran: Ran): void => assert.deepStrictEqual(ran, { code: 0, stdout: '', stderr: '' });

const tool = (event: string, name: string, input: object = { filePath: '/p/a.txt', startLine: 1, endLine: 2 }) => ({
  hook_event_name: event,
  session_id: 'chat-1',
  tool_name: name,
  tool_input: input,
  tool_use_id: 'call_1__vscode-1',
  cwd: '/p',
});

let servers: HookServer[] = [];
teardown(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function serve(handle: Parameters<typeof serveHooks>[1]): Promise<{ server: HookServer; asked: unknown[] }> {
  const asked: unknown[] = [];
  const server = await serveHooks(makeTempDir(), async (request, wait, signal) => {
    asked.push(request);
    return handle(request, wait, signal);
  }, () => undefined);
  servers.push(server);
  return { server, asked };
}

suite('agent hook process: when it asks the window, and what it prints', () => {
  test('a tool ReadGate does not judge ends at once without asking the window', async () => {
    const { server, asked } = await serve(async () => ({ never: true }));
    silent(await runHook(tool('PreToolUse', 'run_in_terminal', { command: 'ls' }), server));
    silent(await runHook({ hook_event_name: 'Stop', session_id: 'chat-1' }, server));
    assert.deepStrictEqual(asked, []);
  });

  test("a judged call goes to the window with the client's input, and the window's answer is printed as JSON", async () => {
    const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'EDIT_OUTSIDE_SEEN_RANGE: x' } };
    const { server, asked } = await serve(async () => deny);
    const input = tool('PreToolUse', 'replace_string_in_file', { filePath: '/p/a.txt', oldString: 'a', newString: 'b' });
    const ran = await runHook(input, server);
    assert.deepStrictEqual(ran, { code: 0, stdout: JSON.stringify(deny), stderr: '' });
    assert.deepStrictEqual(asked, [{ client: 'copilot', input }]);
  });

  test('an allowed call prints nothing; a subagent or compaction event reaches the window too', async () => {
    const { server, asked } = await serve(async () => undefined);
    silent(await runHook(tool('PostToolUse', 'read_file'), server));
    silent(await runHook({ hook_event_name: 'SubagentStart', session_id: 'chat-1', agent_id: 'call_9', agent_type: 'default' }, server));
    silent(await runHook({ hook_event_name: 'PreCompact', session_id: 'chat-1', trigger: 'auto' }, server));
    assert.strictEqual(asked.length, 3);
  });

  test('no window, a dead socket, a wrong secret, bad input, a window that never answers, a failing handler: allowed silently', async function () {
    this.timeout(20_000);
    silent(await runHook(tool('PreToolUse', 'read_file'), undefined));
    silent(await runHook(tool('PreToolUse', 'read_file'), undefined, { READGATE_HOOK_SOCKET: path.join(makeTempDir(), 'gone.sock'), READGATE_HOOK_TOKEN: 't' }));
    const { server, asked } = await serve(async () => ({ printed: true }));
    silent(await runHook(tool('PreToolUse', 'read_file'), server, { READGATE_HOOK_TOKEN: 'wrong' }));
    assert.deepStrictEqual(asked, [], 'a request with the wrong secret is never handled');
    silent(await runHook('{ not json', server));
    const hanging = await serve(() => new Promise(() => undefined));
    silent(await runHook(tool('PreToolUse', 'read_file'), hanging.server));
    const failing = await serve(async () => {
      throw new Error('the judge failed');
    });
    silent(await runHook(tool('PreToolUse', 'read_file'), failing.server));
  });

  test('a change waiting for review keeps the hook waiting; when the wait ends without a decision, it is denied', async function () {
    this.timeout(20_000);
    const { server } = await serve((_request, wait) => {
      wait(300);
      return new Promise(() => undefined);
    });
    const ran = await runHook(tool('PreToolUse', 'replace_string_in_file', { filePath: '/p/a', oldString: 'a', newString: 'b' }), server);
    assert.strictEqual(ran.code, 0);
    assert.strictEqual(ran.stderr, '');
    const output = JSON.parse(ran.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
    assert.strictEqual(output.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(output.hookSpecificOutput.permissionDecisionReason, /^REJECTED_BY_USER: the change waited for review/);
  });

  test('a window that goes away during a review: the change is denied, and the review is told (its signal aborts)', async function () {
    this.timeout(20_000);
    let aborted: Promise<void> | undefined;
    let closing: HookServer | undefined;
    const { server } = await serve((_request, wait, signal) => {
      wait(10_000);
      aborted = new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
      setTimeout(() => void closing?.close(), 100);
      return new Promise(() => undefined);
    });
    closing = server;
    servers = servers.filter((s) => s !== server);
    const ran = await runHook(tool('PreToolUse', 'create_file', { filePath: '/p/n', content: 'x' }), server);
    assert.match(ran.stdout, /"permissionDecision":"deny".*went away before the review was decided/);
    await aborted;
  });
});

suite('agent hook socket: private to this user', () => {
  test('the socket is in a folder of mode 0700 and is itself 0600', async () => {
    const { server } = await serve(async () => undefined);
    assert.strictEqual(fs.statSync(path.dirname(server.socket)).mode & 0o777, 0o700);
    assert.strictEqual(fs.statSync(server.socket).mode & 0o777, 0o600);
  });

  test("another user's process cannot connect (a child running as nobody)", async () => {
    needsRoot('that another user cannot reach the hook socket');
    const { server, asked } = await serve(async () => ({ leaked: true }));
    const probe = spawnSync(process.execPath, ['-e', `require('net').connect(${JSON.stringify(server.socket)}).on('error', (e) => { console.log(e.code); process.exit(0) }).on('connect', () => { console.log('CONNECTED'); process.exit(0) })`], {
      uid: 65534,
      gid: 65534,
      cwd: '/',
      encoding: 'utf8',
    });
    assert.match(probe.stdout, /EACCES/, probe.stdout + probe.stderr);
    assert.deepStrictEqual(asked, []);
  });

  test('a socket path too long for the system goes to a private folder under the temporary folder', async () => {
    const long = path.join(makeTempDir(), 'x'.repeat(120));
    const server = await serveHooks(long, async () => undefined, () => undefined);
    servers.push(server);
    assert.ok(Buffer.byteLength(server.socket) < 108, server.socket);
    assert.strictEqual(fs.statSync(path.dirname(server.socket)).mode & 0o777, 0o700);
  });
});
