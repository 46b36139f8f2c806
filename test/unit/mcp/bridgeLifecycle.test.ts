/**
 * The bridge ends its window session when the agent stops it: clients stop their MCP servers with signals
 * (Claude Code: SIGINT, then SIGTERM) or by closing the server's input, and a session left open stays live in
 * the window until it idles out. Real child processes against a window served by `serveHttp`.
 */
import * as assert from 'assert';
import { type ChildProcessWithoutNullStreams, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as path from 'path';
import { publishWindow } from '../../../src/mcp/index';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';
import { openWindow } from '../helpers/testWindow';

const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');

async function waitFor(what: string, probe: () => boolean, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!probe() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(probe(), what);
}

/** The bridge in `root`, started, initialized (its session open in the window), with what it printed. */
async function startBridge(root: string, discovery: string): Promise<{ child: ChildProcessWithoutNullStreams; stdout(): string; stderr(): string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> }> {
  const child = spawn(process.execPath, [BRIDGE], { cwd: root, env: { ...process.env, READGATE_DISCOVERY_DIR: discovery } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'Claude Code', version: '2.1' } } })}\n`);
  await waitFor(`an answer to initialize; stderr: ${stderr}`, () => stdout.includes('"id":1'), 15_000);
  child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

suite('the stdio bridge ends its window session when the agent stops it (a real child process)', () => {
  const stops: [string, (child: ChildProcessWithoutNullStreams) => void][] = [
    ['SIGINT', (child) => child.kill('SIGINT')],
    ['SIGTERM', (child) => child.kill('SIGTERM')],
    ['SIGHUP', (child) => child.kill('SIGHUP')],
    ['the end of its input', (child) => child.stdin.end()],
  ];
  for (const [how, stop] of stops) {
    test(`on ${how}: the window sees the session closed within two seconds, and the bridge exits 0`, async function () {
      this.timeout(30_000);
      const home = makeTempDir();
      const root = path.join(home, 'project');
      fs.mkdirSync(root);
      const window = await openWindow(root, path.join(home, 'windows'), 'lifecycle-token', 'lifecycle');
      const bridge = await startBridge(root, path.join(home, 'windows'));
      try {
        await waitFor('the window knows the client', () => window.clients.length > 0, 10_000);
        assert.deepStrictEqual(window.opened.length, 1);
        assert.deepStrictEqual(window.closed, []);
        const stopped = Date.now();
        stop(bridge.child);
        await waitFor(`the window saw no session closed within 2 s; bridge stderr: ${bridge.stderr()}`, () => window.closed.length === 1, 2000);
        assert.deepStrictEqual(window.closed, window.opened);
        assert.deepStrictEqual(window.server.sessionIds(), []);
        assert.deepStrictEqual(await bridge.exited, { code: 0, signal: null });
        assert.ok(Date.now() - stopped < 4000, `the bridge took ${Date.now() - stopped} ms to exit`);
      } finally {
        bridge.child.kill('SIGKILL');
        await window.close();
      }
    });
  }

  test('a second signal while it closes (SIGINT, then SIGTERM, as Claude Code sends them) still ends the session once and exits 0', async function () {
    this.timeout(30_000);
    const home = makeTempDir();
    const root = path.join(home, 'project');
    fs.mkdirSync(root);
    const window = await openWindow(root, path.join(home, 'windows'), 'twice-token', 'twice');
    const bridge = await startBridge(root, path.join(home, 'windows'));
    try {
      await waitFor('the window knows the client', () => window.clients.length > 0, 10_000);
      bridge.child.kill('SIGINT');
      bridge.child.kill('SIGTERM');
      assert.deepStrictEqual(await bridge.exited, { code: 0, signal: null });
      assert.deepStrictEqual(window.closed, window.opened);
    } finally {
      bridge.child.kill('SIGKILL');
      await window.close();
    }
  });

  test('a window that never answers the DELETE does not keep it alive: it exits within a few seconds of SIGTERM', async function () {
    this.timeout(30_000);
    const home = makeTempDir();
    const root = path.join(home, 'project');
    fs.mkdirSync(root);
    // A window that opens a session and then never answers its DELETE (a hung extension host).
    const deletes: string[] = [];
    const hung = http.createServer((request, response) => {
      if (request.method === 'DELETE') return void deletes.push(String(request.headers['mcp-session-id']));
      if (request.method === 'GET') return void response.writeHead(405).end();
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const message = JSON.parse(body) as { id?: number };
        if (message.id === undefined) return void response.writeHead(202).end();
        response.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'hung-session' });
        response.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'hung', version: '0' } } }));
      });
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const published = publishWindow({ version: 1, pid: process.pid, url: `http://127.0.0.1:${(hung.address() as AddressInfo).port}/mcp`, token: 't', folders: [root], name: 'hung window', started: Date.now() }, 'hung', path.join(home, 'windows'));
    const bridge = await startBridge(root, path.join(home, 'windows'));
    try {
      const stopped = Date.now();
      bridge.child.kill('SIGTERM');
      assert.deepStrictEqual(await bridge.exited, { code: 0, signal: null });
      assert.deepStrictEqual(deletes, ['hung-session'], 'it asked to end the session');
      assert.ok(Date.now() - stopped < 6000, `the bridge took ${Date.now() - stopped} ms to exit`);
    } finally {
      bridge.child.kill('SIGKILL');
      published.remove();
      hung.closeAllConnections();
      await new Promise((resolve) => hung.close(resolve));
    }
  });
});
