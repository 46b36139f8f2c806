import * as assert from 'assert';
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createGuard, parseToolCall } from '../../../src/core/index';
import { createToolServer, serveHttp, type HttpMcpServer, WaitProgress } from '../../../src/mcp/index';
import { makeTempDir } from '../helpers/tempDir';

type CallResult = { content: { text?: string }[]; isError?: boolean };
const TOKEN = 'a-secret-token-for-tests';

/**
 * The extension's HTTP server wiring, on the headless guard: one guard session per MCP session. `review`
 * stands in for the review panel: the approver waits that long (or until what `until` returns settles), and meanwhile the call reports its wait as
 * the extension does (waitProgress.ts) every `progressMs`.
 */
async function serve(root: string, options: { idleMs?: number; review?: { waitMs: number; progressMs: number; until?: () => Promise<unknown> } } = {}): Promise<{ server: HttpMcpServer; opened: string[]; closed: string[] }> {
  let waiting: WaitProgress | undefined;
  const review = options.review;
  const approve = review && (async () => {
    waiting?.set('Waiting for the user to review the change to a.txt');
    await (review.until?.() ?? new Promise((resolve) => setTimeout(resolve, review.waitMs)));
    waiting?.set(undefined);
    return { approved: true as const };
  });
  const guard = createGuard({ roots: [root], ...(approve ? { approve } : {}) });
  const opened: string[] = [];
  const closed: string[] = [];
  const server = await serveHttp({
    token: TOKEN,
    idleMs: options.idleMs,
    openSession: (id) => {
      opened.push(id);
      const session = guard.session(`mcp:${id}`);
      return {
        server: createToolServer({
          call: async (name, input, signal, progress) => {
            const call = parseToolCall(name, input);
            waiting = progress && new WaitProgress(progress, review?.progressMs);
            try {
              return call.ok ? await call.run(session, signal) : call;
            } finally {
              waiting?.dispose();
            }
          },
        }),
        close: () => {
          closed.push(id);
          guard.dropSession(`mcp:${id}`);
        },
      };
    },
  });
  return { server, opened, closed };
}

async function connect(server: HttpMcpServer, name = 'test-client'): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } });
  await client.connect(transport);
  return { client, transport };
}

async function post(server: HttpMcpServer, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(server.url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
  return { status: response.status, text: await response.text() };
}

suite('MCP over HTTP (src/mcp/httpServer.ts, plain Node)', () => {
  let running: HttpMcpServer | undefined;
  teardown(async () => {
    await running?.close();
    running = undefined;
  });

  test('listens on 127.0.0.1 only; a client with the token reads and edits in its own session', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\r\ntwo\r\n');
    const { server, opened } = await serve(root);
    running = server;
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { client } = await connect(server);
    assert.strictEqual(opened.length, 1);
    assert.deepStrictEqual(server.sessionIds(), opened);
    await client.callTool({ name: 'readgate_read', arguments: { filePath: 'a.txt' } });
    const edited = (await client.callTool({ name: 'readgate_edit', arguments: { filePath: 'a.txt', oldString: 'two', newString: 'deux' } })) as CallResult;
    assert.ok(!edited.isError, edited.content[0].text);
    assert.strictEqual(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'one\r\ndeux\r\n');
    await client.close();
  });

  test('two clients are two sessions; closing one (DELETE) ends only its session', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'x\n');
    const { server, opened, closed } = await serve(root);
    running = server;
    const first = await connect(server, 'first');
    const second = await connect(server, 'second');
    await first.client.callTool({ name: 'readgate_read', arguments: { filePath: 'a.txt' } });
    const refused = (await second.client.callTool({ name: 'readgate_edit', arguments: { filePath: 'a.txt', oldString: 'x', newString: 'y' } })) as CallResult;
    assert.match(refused.content[0].text ?? '', /^EDIT_REQUIRES_PRIOR_READ: /);
    await first.transport.terminateSession();
    assert.deepStrictEqual(closed, [opened[0]]);
    assert.deepStrictEqual(server.sessionIds(), [opened[1]]);
    await second.client.close();
  });

  test('refuses what is not an MCP session start or names an unknown session', async () => {
    const { server, opened } = await serve(makeTempDir());
    running = server;
    const notInitialize = await post(server, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    assert.strictEqual(notInitialize.status, 400);
    assert.match(notInitialize.text, /start with an initialize request/);
    const unknown = await post(server, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), { 'mcp-session-id': 'no-such-session' });
    assert.strictEqual(unknown.status, 404);
    const notJson = await post(server, '{not json');
    assert.strictEqual(notJson.status, 400);
    const noToken = await fetch(server.url, { method: 'POST', body: '{}' });
    assert.strictEqual(noToken.status, 401);
    assert.deepStrictEqual(opened, [], 'a refused request opened a session');
  });

  test('sessions beyond the cap close the least recently used', async function () {
    this.timeout(60_000);
    const { server, opened, closed } = await serve(makeTempDir());
    running = server;
    const clients: Client[] = [];
    for (let i = 0; i < 65; i++) clients.push((await connect(server, `c${i}`)).client);
    assert.deepStrictEqual(closed, [opened[0]]);
    assert.strictEqual(server.sessionIds().length, 64);
    // The evicted client's next call is refused (its session is gone); the others still work.
    await assert.rejects(clients[0].listTools());
    assert.strictEqual((await clients[64].listTools()).tools.length, 5);
    await Promise.allSettled(clients.map((client) => client.close()));
  });

  test('at the cap the session ended is the least recently used, not the first opened, and never one whose call waits for review', async function () {
    this.timeout(60_000);
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
    let review = (): void => undefined;
    let underReview = false;
    const decided = new Promise<void>((resolve) => (review = resolve));
    const until = (): Promise<void> => ((underReview = true), decided);
    const { server, opened, closed } = await serve(root, { review: { waitMs: 0, progressMs: 60_000, until } });
    running = server;
    // The first opened works all along; the second's call waits for the user's review from before the third opened.
    const clients: Client[] = [];
    for (let i = 0; i < 2; i++) clients.push((await connect(server, `c${i}`)).client);
    await clients[1].callTool({ name: 'readgate_read', arguments: { filePath: 'a.txt' } });
    const waiting = clients[1].callTool({ name: 'readgate_edit', arguments: { filePath: 'a.txt', oldString: 'one', newString: 'uno' } }) as Promise<CallResult>;
    while (!underReview) await new Promise((resolve) => setTimeout(resolve, 5));
    for (let i = 2; i < 64; i++) clients.push((await connect(server, `c${i}`)).client);
    await clients[0].listTools();
    assert.deepStrictEqual(closed, []);
    clients.push((await connect(server, 'c64')).client);
    assert.deepStrictEqual(closed, [opened[2]], 'the first opened or the one under review was ended');
    assert.strictEqual(server.sessionIds().length, 64);
    assert.strictEqual((await clients[0].listTools()).tools.length, 5);
    await assert.rejects(clients[2].listTools());
    review();
    const edited = await waiting;
    assert.ok(!edited.isError, edited.content[0].text);
    assert.strictEqual(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'uno\n');
    await Promise.allSettled(clients.map((client) => client.close()));
  });

  test('closing the server ends every session', async () => {
    const { server, opened, closed } = await serve(makeTempDir());
    await connect(server);
    await connect(server);
    await server.close();
    assert.deepStrictEqual(closed.sort(), opened.sort());
    await assert.rejects(fetch(server.url, { method: 'POST', body: '{}' }));
  });

  // Parse errors were -32000; JSON that is no JSON-RPC message reached the SDK, which called it a parse error.
  test('answers each refusal with its JSON-RPC code: -32700 not JSON, -32600 not a JSON-RPC message, -32000 no session started, -32001 unknown session', async () => {
    const { server } = await serve(makeTempDir());
    running = server;
    const { transport } = await connect(server);
    const session = { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' };
    const cases: [string, Record<string, string>, number, number, RegExp][] = [
      ['{not json', {}, 400, -32700, /^Parse error/],
      ['', {}, 400, -32700, /^Parse error/],
      ['{not json', session, 400, -32700, /^Parse error/],
      ['{"hello":"world"}', {}, 400, -32600, /^Invalid Request/],
      ['[1, 2]', {}, 400, -32600, /^Invalid Request/],
      ['{"jsonrpc":"2.0","id":1}', session, 400, -32600, /^Invalid Request/],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}', {}, 400, -32000, /start with an initialize request/],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}', { 'mcp-session-id': 'no-such-session' }, 404, -32001, /Session not found/],
    ];
    for (const [body, headers, status, code, message] of cases) {
      const answer = await post(server, body, headers);
      const error = (JSON.parse(answer.text) as { error: { code: number; message: string } }).error;
      assert.deepStrictEqual([answer.status, error.code], [status, code], `${body} ${JSON.stringify(headers)}: ${answer.text}`);
      assert.match(error.message, message);
    }
  });

  // Without WWW-Authenticate the MCP Inspector took the 401 for an OAuth server and started discovery.
  test('a 401 carries WWW-Authenticate: Bearer realm="readgate" (error="invalid_token" for a wrong token) and nothing that invites OAuth discovery', async () => {
    const { server } = await serve(makeTempDir());
    running = server;
    const none = await fetch(server.url, { method: 'POST', body: '{}' });
    assert.strictEqual(none.status, 401);
    assert.strictEqual(none.headers.get('www-authenticate'), 'Bearer realm="readgate"');
    assert.match(await none.text(), /no OAuth/);
    const wrong = await fetch(server.url, { method: 'POST', body: '{}', headers: { authorization: 'Bearer nope' } });
    assert.strictEqual(wrong.status, 401);
    assert.match(wrong.headers.get('www-authenticate') ?? '', /^Bearer realm="readgate", error="invalid_token", error_description="[\x20-\x21\x23-\x5b\x5d-\x7e]+"$/);
    assert.doesNotMatch(wrong.headers.get('www-authenticate') ?? '', /resource_metadata|scope/);
  });

  test('the SDK\'s client with a wrong token fails with the 401 and asks for nothing else (no OAuth discovery)', async () => {
    const refused: string[] = [];
    const guard = createGuard({ roots: [makeTempDir()] });
    const server = await serveHttp({ token: TOKEN, log: (message) => refused.push(message), openSession: () => ({ server: createToolServer({ call: async () => ({ ok: true, text: '' }) }), close: () => undefined }) });
    running = server;
    const client = new Client({ name: 'wrong-token', version: '1' });
    const transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { Authorization: 'Bearer wrong' } } });
    await assert.rejects(client.connect(transport), (error: { code?: number }) => error.code === 401);
    assert.deepStrictEqual(refused, ['refused POST /mcp: 401']);
    await guard.dispose();
  });

  // The 413 came only after the whole body was read (and kept in memory up to the cap).
  test('a declared Content-Length over 64 MiB is answered 413 at once, before any of the body is sent, and the connection is closed', async () => {
    const { server } = await serve(makeTempDir());
    running = server;
    const answer = await new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const request = http.request(server.url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': String(65 * 1024 * 1024) } });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body, connection: response.headers.connection }));
      });
      request.on('error', reject);
      request.flushHeaders(); // headers only: the body is never sent
    });
    assert.strictEqual(answer.status, 413);
    assert.strictEqual(answer.connection, 'close');
    assert.match(answer.body, /"code":-32600.*Request too large: The message is 68,157,440 bytes, above the 64 MiB/);
  });

  test('a chunked body is cut at 64 MiB: the client gets the 413, the connection is closed, and the server reads no further', async function () {
    this.timeout(60_000);
    const { server, opened } = await serve(makeTempDir());
    running = server;
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let written = 0;
    const outcome = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request(server.url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' } });
      let status = 0;
      let body = '';
      request.on('response', (response) => {
        status = response.statusCode!;
        response.on('data', (data) => (body += data));
        response.on('end', () => {
          resolve({ status, body });
          request.destroy(); // as a client does once it has the answer
        });
        response.on('error', () => resolve({ status, body }));
      });
      request.on('error', (error) => (status ? resolve({ status, body }) : reject(error)));
      // Up to 512 MiB, as fast as the server takes it.
      const pump = (): void => {
        while (written < 512 * 1024 * 1024 && !request.destroyed) {
          written += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
        request.end();
      };
      pump();
    });
    assert.strictEqual(outcome.status, 413);
    assert.match(outcome.body, /Request too large/);
    assert.ok(written < 100 * 1024 * 1024, `the client could write ${written / 1024 / 1024} MiB`);
    assert.deepStrictEqual(opened, []);
  });
  // The SDK's client gives up on a request after its timeout (60 s by default) while the user still reads the
  // diff; a client that resets its timeout on progress waits as long as progress comes.
  test('a call waiting for review sends progress on its own response stream to a client that asked, so a client with a short timeout that resets on progress gets its result', async function () {
    this.timeout(20_000);
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
    const { server } = await serve(root, { review: { waitMs: 2500, progressMs: 300 } });
    running = server;
    const { client } = await connect(server);
    await client.callTool({ name: 'readgate_read', arguments: { filePath: 'a.txt' } });
    const seen: { progress: number; message?: string }[] = [];
    const edited = (await client.callTool({ name: 'readgate_edit', arguments: { filePath: 'a.txt', oldString: 'one', newString: 'uno' } }, undefined, { timeout: 1000, resetTimeoutOnProgress: true, onprogress: (progress) => seen.push(progress) })) as CallResult;
    assert.ok(!edited.isError, edited.content[0].text);
    assert.strictEqual(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'uno\n');
    assert.ok(seen.length >= 4, `${seen.length} progress notifications in 2.5 s, one every 0.3 s`);
    assert.deepStrictEqual(seen.map((progress) => progress.progress), seen.map((_, i) => i + 1), 'progress increases');
    assert.ok(seen.every((progress) => progress.message === 'Waiting for the user to review the change to a.txt'));
    // Without progress the same client gives up after its 1 s.
    fs.writeFileSync(path.join(root, 'b.txt'), 'two\n');
    await client.callTool({ name: 'readgate_read', arguments: { filePath: 'b.txt' } });
    await assert.rejects(client.callTool({ name: 'readgate_edit', arguments: { filePath: 'b.txt', oldString: 'two', newString: 'dos' } }, undefined, { timeout: 1000 }), /Request timed out/);
    await client.close();
  });

  test('a request without a progress token hears no progress: its response stream holds only the result', async function () {
    this.timeout(20_000);
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
    const { server } = await serve(root, { review: { waitMs: 1200, progressMs: 200 } });
    running = server;
    const { client, transport } = await connect(server);
    await client.callTool({ name: 'readgate_read', arguments: { filePath: 'a.txt' } });
    const session = { 'mcp-session-id': transport.sessionId!, 'mcp-protocol-version': '2025-06-18' };
    const call = (meta: object) => post(server, JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'readgate_edit', arguments: { filePath: 'a.txt', oldString: fs.readFileSync(path.join(root, 'a.txt'), 'utf8').trim(), newString: 'x' + Date.now() }, ...meta } }), session);
    const events = (text: string) => text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)) as { method?: string; id?: number; params?: { progressToken?: unknown } });
    const plain = events((await call({})).text);
    assert.deepStrictEqual(plain.map((event) => event.method ?? `result ${event.id}`), ['result 7']);
    const asked = events((await call({ _meta: { progressToken: 'tok-1' } })).text);
    assert.ok(asked.filter((event) => event.method === 'notifications/progress').length >= 3, JSON.stringify(asked));
    assert.ok(asked.filter((event) => event.method).every((event) => event.params?.progressToken === 'tok-1'));
    assert.strictEqual(asked.at(-1)?.id, 7, 'the result comes last');
    await client.close();
  });

  test('a session without a request for idleMs is closed (its client is told 404 and can start anew); one whose call is under way is not', async function () {
    this.timeout(20_000);
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\n');
    const { server, opened, closed } = await serve(root, { idleMs: 600, review: { waitMs: 1800, progressMs: 10_000 } });
    running = server;
    const idle = await connect(server, 'idle');
    const busy = await connect(server, 'busy');
    await busy.client.callTool({ name: 'readgate_read', arguments: { filePath: 'a.txt' } });
    // Three times idleMs under review: still open, and the call gets its result.
    const edited = (await busy.client.callTool({ name: 'readgate_edit', arguments: { filePath: 'a.txt', oldString: 'one', newString: 'uno' } })) as CallResult;
    assert.ok(!edited.isError, edited.content[0].text);
    assert.deepStrictEqual(closed, [opened[0]], 'only the idle session was closed');
    assert.deepStrictEqual(server.sessionIds(), [opened[1]]);
    await assert.rejects(idle.client.listTools(), /404|Session not found/);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    assert.deepStrictEqual(closed.sort(), [...opened].sort(), 'the busy session, idle since its call ended, was closed too');
    const again = await connect(server, 'idle');
    assert.strictEqual((await again.client.listTools()).tools.length, 5);
    await Promise.allSettled([idle, busy, again].map((connection) => connection.client.close()));
  });
});
