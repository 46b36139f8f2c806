import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { listForgetMarkers } from '../../../src/mcp/index';
import { startJsonLineChild } from '../helpers/jsonLineChild';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';
import { openWindow } from '../helpers/testWindow';

/** Waits up to 10 s (a child process starting on a busy machine) for `probe`. */
async function eventually(what: string, probe: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !probe(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(probe(), what);
}

type CallResult = { content: { text?: string }[]; isError?: boolean };
const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');

suite('the stdio bridge (dist/mcp-bridge.js, a real child process)', () => {
  test('relays a session to the window whose folder holds its working folder, and finds the window again after a reload', async function () {
    this.timeout(30_000);
    const home = makeTempDir();
    const discovery = path.join(home, 'windows');
    const root = path.join(home, 'project');
    fs.mkdirSync(path.join(root, 'src'), { recursive: true });
    fs.writeFileSync(path.join(root, 'src/a.txt'), 'alpha\nbeta\n');
    const other = await openWindow(makeTempDir(), discovery, 'other-token', 'other');
    let window = await openWindow(root, discovery, 'first-token', 'first');
    const client = new Client({ name: 'Claude Code', version: '2.0.14' });
    const transport = new StdioClientTransport({ command: process.execPath, args: [BRIDGE], cwd: path.join(root, 'src'), env: { ...process.env, READGATE_DISCOVERY_DIR: discovery } as Record<string, string>, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => (stderr += chunk));
    await client.connect(transport);
    try {
      // The agent's own initialize reaches the window (named once it says initialized).
      await eventually('the window knows the client', () => window.clients.length > 0);
      assert.deepStrictEqual(window.clients, ['Claude Code']);
      assert.deepStrictEqual(other.clients, []);
      await client.callTool({ name: 'readgate_read', arguments: { filePath: 'src/a.txt' } });
      const edited = (await client.callTool({ name: 'readgate_edit', arguments: { filePath: 'src/a.txt', oldString: 'beta', newString: 'gamma' } })) as CallResult;
      assert.ok(!edited.isError, edited.content[0].text);
      assert.strictEqual(fs.readFileSync(path.join(root, 'src/a.txt'), 'utf8'), 'alpha\ngamma\n');
      // The window reloads: its server and session are gone, and it comes back on another port.
      await window.close();
      window = await openWindow(root, discovery, 'second-token', 'second');
      const afterReload = (await client.callTool({ name: 'readgate_edit', arguments: { filePath: 'src/a.txt', oldString: 'gamma', newString: 'delta' } })) as CallResult;
      assert.match(afterReload.content[0].text ?? '', /^EDIT_REQUIRES_PRIOR_READ: /, 'a new session starts with an empty ledger');
      assert.deepStrictEqual(window.clients, ['Claude Code']);
      assert.match(stderr, /reconnecting to "window second"/);
      assert.match((await client.callTool({ name: 'readgate_read', arguments: { filePath: 'src/a.txt' } }) as CallResult).content[0].text ?? '', /2\tgamma/);
    } finally {
      await client.close();
      await window.close();
      await other.close();
    }
  });

  test('with no window for its folder it answers the agent with an error naming the open windows, and relays once the window is there; --list shows windows without tokens', async function () {
    this.timeout(30_000);
    const home = makeTempDir();
    const discovery = path.join(home, 'windows');
    const root = path.join(home, 'project');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.txt'), 'alpha\n');
    const elsewhere = await openWindow(makeTempDir(), discovery, 'secret-token', 'w');
    const env = { ...process.env, READGATE_DISCOVERY_DIR: discovery };
    let window: Awaited<ReturnType<typeof openWindow>> | undefined;
    const child = spawn(process.execPath, [BRIDGE], { cwd: root, env });
    try {
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const answer = async (id: number): Promise<{ result?: { serverInfo?: { name: string } }; error?: { message: string } }> => {
        let line: string | undefined;
        await eventually(`an answer to request ${id}`, () => (line = stdout.split('\n').find((text) => text.includes(`"id":${id}`))) !== undefined);
        return JSON.parse(line!);
      };
      const send = (message: object): boolean => child.stdin.write(`${JSON.stringify(message)}\n`);
      const initialize = (id: number) => send({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'Codex', version: '0.50' } } });

      // Started before the window: the agent is told why, in its own answer, and the bridge keeps running.
      initialize(1);
      const refused = await answer(1);
      assert.match(refused.error?.message ?? '', /^ReadGate: no open VS Code window has .*project in its workspace\. Open windows: /);
      assert.match(stderr, /no open VS Code window has/);
      assert.strictEqual(child.exitCode, null, 'the bridge exited');

      // The window opens; the agent tries again and is relayed to it.
      window = await openWindow(root, discovery, 'project-token', 'project');
      initialize(2);
      const accepted = await answer(2);
      assert.ok(accepted.result?.serverInfo, JSON.stringify(accepted));
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await eventually('the window knows the client', () => window!.clients.length > 0);
      assert.deepStrictEqual(window.clients, ['Codex']);
      assert.deepStrictEqual(elsewhere.clients, []);
      send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'readgate_read', arguments: { filePath: 'a.txt' } } });
      assert.match(JSON.stringify(await answer(3)), /1\\talpha/);

      const listed = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
        const list = spawn(process.execPath, [BRIDGE, '--list'], { cwd: home, env });
        let out = '';
        list.stdout.on('data', (chunk) => (out += chunk));
        list.on('exit', (code) => resolve({ code, stdout: out }));
      });
      assert.strictEqual(listed.code, 1, 'no window holds the folder it was asked about');
      assert.ok(listed.stdout.includes(`Looked for VS Code windows in ${discovery}\n`), listed.stdout);
      assert.match(listed.stdout, /"window project" \(pid \d+, http:\/\/127\.0\.0\.1:\d+\/mcp\)\n {4}folders: .*project\n {4}not picked: none of its folders holds /);
      assert.match(listed.stdout, /"window w" \(pid/);
      assert.ok(!listed.stdout.includes('secret-token') && !listed.stdout.includes('project-token'), 'a token was printed');

      // The agent ends the session: the bridge exits.
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.stdin.end();
      assert.strictEqual(await exited, 0);
    } finally {
      child.kill();
      await window?.close();
      await elsewhere.close();
    }
  });

  test('--forget (a client\'s compaction hook) leaves a marker for its folder and client, and exits at once', () => {
    const home = makeTempDir();
    const project = path.join(home, 'project');
    fs.mkdirSync(project);
    const run = spawnSync(process.execPath, [BRIDGE, '--forget', '--client', 'claude-code'], { cwd: project, env: { ...process.env, READGATE_DISCOVERY_DIR: path.join(home, 'windows') }, encoding: 'utf8', timeout: 10_000 });
    assert.strictEqual(run.status, 0, run.stderr);
    const markers = listForgetMarkers(path.join(home, 'forget'));
    assert.deepStrictEqual(markers.map((marker) => [marker.folder, marker.client]), [[project, 'claude-code']]);
    assert.match(run.stderr, /forget what claude-code had read/);
  });

  // The bridge read stdio with the SDK's reader (10 MiB at most, then closed) while the window takes 64 MiB.
  test('a readgate_write of 8 MiB (a 12 MiB JSON line) reaches the window and is applied, and the session goes on; a line over 64 MiB is answered with an error for its id', async function () {
    this.timeout(60_000);
    const home = makeTempDir();
    const discovery = path.join(home, 'windows');
    const root = path.join(home, 'project');
    fs.mkdirSync(root);
    const window = await openWindow(root, discovery, 'big-token', 'big');
    const child = startJsonLineChild(BRIDGE, [], { cwd: root, env: { ...process.env, READGATE_DISCOVERY_DIR: discovery } });
    try {
      await child.initialize();
      const content = 'ab"\n'.repeat(2 * 1024 * 1024); // 8 MiB; quotes and line breaks take two bytes in JSON
      const call = (id: number, name: string, args: object): string => JSON.stringify({ method: 'tools/call', params: { name, arguments: args }, jsonrpc: '2.0', id });
      const line = call(2, 'readgate_write', { filePath: 'big.txt', content });
      assert.ok(line.length > 12 * 1024 * 1024);
      await child.send(line);
      const written = await child.answer(2);
      assert.ok(written.result && !written.result.isError, JSON.stringify(written).slice(0, 500));
      assert.ok(fs.readFileSync(path.join(root, 'big.txt'), 'utf8') === content, 'the file holds the content');

      await child.send(call(3, 'readgate_write', { filePath: 'huge.txt', content: 'x'.repeat(65 * 1024 * 1024) }));
      const refused = await child.answer(3);
      assert.strictEqual(refused.error?.code, -32600, JSON.stringify(refused));
      assert.match(refused.error?.message ?? '', /64 MiB/);
      assert.ok(!fs.existsSync(path.join(root, 'huge.txt')));

      await child.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
      assert.deepStrictEqual((await child.answer(4)).result, {});
      await child.send(call(5, 'readgate_read', { filePath: 'big.txt', limit: 1 }));
      assert.match((await child.answer(5)).result?.content?.[0].text ?? '', /big\.txt/);
    } finally {
      await child.close();
      await window.close();
    }
  });

  test('from a terminal with another HOME, reaches the window published under READGATE_HOME, and --list says where it looked and which window it picks', async function () {
    this.timeout(30_000);
    // VS Code and the agent's terminal agree through READGATE_HOME, whatever their HOMEs: npm start's VS Code has a private one.
    const readgateHome = path.join(makeTempDir(), 'rg');
    const root = path.join(makeTempDir(), 'project');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.txt'), 'alpha\n');
    const window = await openWindow(root, path.join(readgateHome, 'windows'), 'home-token', 'home');
    const env: Record<string, string> = { ...(process.env as Record<string, string>), HOME: makeTempDir(), READGATE_HOME: readgateHome };
    delete env.READGATE_DISCOVERY_DIR;
    try {
      const list = spawnSync(process.execPath, [BRIDGE, '--list'], { cwd: root, env, encoding: 'utf8', timeout: 10_000 });
      assert.strictEqual(list.status, 0, list.stderr);
      assert.ok(list.stdout.startsWith(`Looked for VS Code windows in ${path.join(readgateHome, 'windows')}\n  (READGATE_HOME/windows)\n`), list.stdout);
      assert.ok(list.stdout.includes(`→ "window home"`) && list.stdout.includes(`picked: its folder ${root} holds ${root}`), list.stdout);
      assert.ok(!list.stdout.includes('home-token'), 'a token was printed');
      const client = new Client({ name: 'Codex', version: '1' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [BRIDGE], cwd: root, env, stderr: 'pipe' }));
      try {
        const read = (await client.callTool({ name: 'readgate_read', arguments: { filePath: 'a.txt' } })) as CallResult;
        assert.match(read.content[0].text ?? '', /1\talpha/);
      } finally {
        await client.close();
      }
      assert.deepStrictEqual(window.clients, ['Codex']);
    } finally {
      await window.close();
    }
  });
});
