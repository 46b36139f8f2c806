/**
 * MCP over Streamable HTTP on 127.0.0.1 (a random free port): every request passes `checkRequest` (Host,
 * Origin, bearer token, path) first; an `initialize` without a session id opens a new MCP session with its own
 * server (`openSession`), later requests name it in `mcp-session-id`. A body is read up to the 64 MiB cap of
 * one message (requestBody.ts) and must be a JSON-RPC message; every refusal is a JSON-RPC error with its code
 * (-32700 not JSON, -32600 not JSON-RPC or too large, -32000 refused by the HTTP layer, -32001 unknown
 * session). A session with no request for `idleMs` (none under way, none started) is closed as if its client
 * had closed it: a client that went away without a DELETE does not keep its session, and a later request of
 * a client that is still there gets 404, which MCP's transport section answers by starting a new session
 * (the bridge does so by itself). Its open GET stream does not count as a request. Plain Node, so the
 * extension and tests in plain Node serve it the same way.
 */
import { randomUUID } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { type ProtocolError, protocolErrors } from './protocolErrors';
import { declaredTooLarge, readBody } from './requestBody';
import { checkRequest } from './requestCheck';
import { sessionToEvict } from './sessionEviction';

export const MCP_PATH = '/mcp';

/** Sessions a client forgot to close do not pile up: beyond this, the least recently used is closed (sessionEviction.ts). */
const MAX_SESSIONS = 64;

export interface HttpServeOptions {
  /** The secret clients send as `Authorization: Bearer <token>`. */
  token: string;
  /** The MCP server for a new MCP session; `close` runs when the session ends (DELETE, eviction, shutdown). */
  openSession(sessionId: string): { server: Server; close(): void };
  log?(message: string): void;
  /** 0 (default): any free port. */
  port?: number;
  /** Sessions without a request for this long are closed; undefined (default): never for idleness. */
  idleMs?: number;
}

export interface HttpMcpServer {
  readonly port: number;
  readonly url: string;
  /** Ids of the open MCP sessions, least recently used first. */
  sessionIds(): string[];
  close(): Promise<void>;
}

interface OpenSession {
  transport: StreamableHTTPServerTransport;
  close(): void;
  /** Requests (POST, DELETE) under way, and when the last one started or ended. */
  busy: number;
  lastUsed: number;
}

function sendError(response: http.ServerResponse, status: number, error: ProtocolError, headers: Record<string, string> = {}): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error, id: null }));
}

/** How long a refused upload's connection is held, unread, for its client to read the 413 (see below). */
const LINGER_MS = 1000;

/**
 * 413, then the connection closed, with the rest of the body left unread. The answer goes out whole (its length
 * given) at once, but the response ends, and Node closes the socket, only when the client hangs up or after
 * LINGER_MS: a socket closed with unread data resets the connection, and a client still sending would see the
 * reset before the 413. Meanwhile the request stays paused, so the client's sending stalls and nothing is read.
 */
function refuseTooLarge(request: http.IncomingMessage, response: http.ServerResponse, declared: number | undefined): void {
  request.pause();
  const body = JSON.stringify({ jsonrpc: '2.0', error: protocolErrors.tooLarge(declared), id: null });
  response.writeHead(413, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  response.write(body);
  const end = (): void => {
    clearTimeout(timer);
    response.end();
  };
  const timer = setTimeout(end, LINGER_MS).unref();
  request.socket.once('close', end);
}

/** The JSON-RPC message (or batch) a POST carries, or the error that answers it. */
function parseMessage(bytes: Buffer): { ok: true; message: unknown } | { ok: false; error: ProtocolError } {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    return { ok: false, error: protocolErrors.notJson() };
  }
  const messages = Array.isArray(json) ? json : [json];
  const valid = messages.length > 0 && messages.every((message) => JSONRPCMessageSchema.safeParse(message).success);
  return valid ? { ok: true, message: json } : { ok: false, error: protocolErrors.notJsonRpc() };
}

/** The open MCP sessions: each ended once (DELETE, eviction, idleness, shutdown), the least recently used evicted past the cap. */
class SessionTable {
  private readonly open = new Map<string, OpenSession>();

  constructor(private readonly options: HttpServeOptions) {}

  get(id: string): OpenSession | undefined {
    return this.open.get(id);
  }

  has(id: string): boolean {
    return this.open.has(id);
  }

  /** Keeps the session just initialized, then ends the least recently used ones past MAX_SESSIONS (never `id`). */
  add(id: string, session: OpenSession): void {
    this.open.set(id, session);
    while (this.open.size > MAX_SESSIONS) {
      const evicted = sessionToEvict(this.open, id);
      if (evicted === undefined) break;
      this.options.log?.(`session ${evicted.slice(0, 8)} closed: ${MAX_SESSIONS} sessions are open and it was used least recently`);
      this.end(evicted);
    }
  }

  end(id: string): void {
    const session = this.open.get(id);
    if (!session) return;
    this.open.delete(id);
    session.close();
    void session.transport.close().catch(() => undefined);
  }

  /** The session is in use until the response (an SSE stream while a tool call runs) is over. */
  track(session: OpenSession, response: http.ServerResponse): void {
    session.busy += 1;
    session.lastUsed = Date.now();
    response.once('close', () => {
      session.busy -= 1;
      session.lastUsed = Date.now();
    });
  }

  closeIdle(idleMs: number): void {
    const cutoff = Date.now() - idleMs;
    for (const [id, session] of this.open) {
      if (session.busy > 0 || session.lastUsed > cutoff) continue;
      this.options.log?.(`session ${id.slice(0, 8)} closed: no request for ${Math.round((Date.now() - session.lastUsed) / 1000)} s`);
      this.end(id);
    }
  }

  /** Least recently used first. */
  ids(): string[] {
    return [...this.open].sort(([, a], [, b]) => a.lastUsed - b.lastUsed).map(([id]) => id);
  }

  endAll(): void {
    for (const id of [...this.open.keys()]) this.end(id);
  }
}

/** What a request is handled with; `port` is known once the server listens. */
interface Serving {
  options: HttpServeOptions;
  sessions: SessionTable;
  port: number;
}

function headerOf(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A POST's message, or undefined once the request was answered (too large, not JSON-RPC). Other methods carry none. */
async function readMessage(serving: Serving, request: http.IncomingMessage, response: http.ServerResponse): Promise<{ body: unknown } | undefined> {
  if (request.method !== 'POST') return { body: undefined };
  const read = await readBody(request);
  if (read.kind === 'tooLarge') {
    serving.options.log?.(`refused ${request.method} ${request.url}: 413`);
    refuseTooLarge(request, response, read.declared);
    return undefined;
  }
  const parsed = parseMessage(read.bytes);
  if (!parsed.ok) {
    sendError(response, 400, parsed.error);
    return undefined;
  }
  return { body: parsed.message };
}

/** An `initialize` without a session id: a new MCP session with its own server, kept once it is initialized. */
async function startSession(serving: Serving, request: http.IncomingMessage, response: http.ServerResponse, body: unknown): Promise<void> {
  const { options, sessions } = serving;
  const id = randomUUID();
  const opened = options.openSession(id);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => id,
    onsessioninitialized: (): void => sessions.add(id, { transport, close: opened.close, busy: 0, lastUsed: Date.now() }),
    onsessionclosed: (closedId) => sessions.end(closedId),
  });
  transport.onclose = () => sessions.end(id);
  await opened.server.connect(transport);
  await transport.handleRequest(request, response, body);
  if (!sessions.has(id)) opened.close(); // the initialize failed: nothing to keep
}

async function handle(serving: Serving, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const { options, sessions } = serving;
  const header = (name: string): string | undefined => headerOf(request, name);
  const facts = { host: header('host'), origin: header('origin'), authorization: header('authorization'), path: request.url ?? '/' };
  const verdict = checkRequest(facts, serving.port, options.token, MCP_PATH);
  if (!verdict.ok) {
    options.log?.(`refused ${request.method} ${request.url}: ${verdict.status}`);
    return sendError(response, verdict.status, protocolErrors.refused(verdict.message), verdict.challenge ? { 'www-authenticate': verdict.challenge } : {});
  }
  const message = await readMessage(serving, request, response);
  if (!message) return;
  const sessionId = header('mcp-session-id');
  if (sessionId) {
    const session = sessions.get(sessionId);
    if (!session) return sendError(response, 404, protocolErrors.sessionNotFound());
    if (request.method !== 'GET') sessions.track(session, response);
    return session.transport.handleRequest(request, response, message.body);
  }
  if (request.method !== 'POST' || !isInitializeRequest(message.body)) return sendError(response, 400, protocolErrors.notStarted());
  return startSession(serving, request, response, message.body);
}

function listen(server: http.Server, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
}

export async function serveHttp(options: HttpServeOptions): Promise<HttpMcpServer> {
  const serving: Serving = { options, sessions: new SessionTable(options), port: 0 };
  const { sessions } = serving;
  const onRequest = (request: http.IncomingMessage, response: http.ServerResponse): void => {
    handle(serving, request, response).catch((error: Error) => {
      options.log?.(`request failed: ${error.message}`);
      sendError(response, 500, protocolErrors.internal(error.message));
    });
  };
  const server = http.createServer(onRequest);
  // A client that asks before sending a body (Expect: 100-continue, as curl does for large ones) is not invited
  // to send one over the cap; the handler then answers 413 without reading.
  server.on('checkContinue', (request, response) => {
    if (declaredTooLarge(request) === undefined) response.writeContinue();
    onRequest(request, response);
  });
  await listen(server, options.port ?? 0);
  const port = (serving.port = (server.address() as AddressInfo).port);
  const idleMs = options.idleMs;
  const sweep = idleMs === undefined ? undefined : setInterval(() => sessions.closeIdle(idleMs), Math.max(50, Math.min(idleMs / 4, 60_000)));
  sweep?.unref();
  return {
    port,
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    sessionIds: () => sessions.ids(),
    close: async () => {
      clearInterval(sweep);
      sessions.endAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
