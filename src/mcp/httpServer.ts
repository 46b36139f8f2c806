/**
 * MCP over Streamable HTTP on 127.0.0.1 (a random free port): every request passes `checkRequest` (Host,
 * Origin, bearer token, path) first; an `initialize` without a session id opens a new MCP session with its own
 * server (`openSession`), later requests name it in `mcp-session-id`. Plain Node, so the extension and tests
 * in plain Node serve it the same way.
 */
import { randomUUID } from 'crypto';
import * as http from 'http';
import type { AddressInfo } from 'net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { checkRequest } from './requestCheck';

export const MCP_PATH = '/mcp';

/** Tool calls carry whole files (`readgate_write`); the guard refuses files beyond its own size cap anyway. */
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Sessions a client forgot to close do not pile up: the least recently used beyond this are closed. */
const MAX_SESSIONS = 64;

export interface HttpServeOptions {
  /** The secret clients send as `Authorization: Bearer <token>`. */
  token: string;
  /** The MCP server for a new MCP session; `close` runs when the session ends (DELETE, eviction, shutdown). */
  openSession(sessionId: string): { server: Server; close(): void };
  log?(message: string): void;
  /** 0 (default): any free port. */
  port?: number;
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
}

function sendError(response: http.ServerResponse, status: number, message: string): void {
  if (response.headersSent) return void response.end();
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: status === 413 ? -32600 : -32000, message }, id: null }));
}

/** Reads a JSON body; beyond the cap the rest is drained unkept (the client then reads the 413, not a reset). */
function readBody(request: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
      else chunks.length = 0;
    });
    request.on('end', () => {
      if (size > MAX_BODY_BYTES) return reject(Object.assign(new Error(`The request is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB.`), { status: 413 }));
      try {
        resolve(chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
      } catch {
        reject(Object.assign(new Error('Parse error: the body is not JSON.'), { status: 400 }));
      }
    });
    request.on('error', reject);
  });
}

export async function serveHttp(options: HttpServeOptions): Promise<HttpMcpServer> {
  const sessions = new Map<string, OpenSession>();
  let port = 0;

  const end = (id: string): void => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    session.close();
    void session.transport.close().catch(() => undefined);
  };

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse): Promise<void> => {
    const header = (name: string): string | undefined => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const verdict = checkRequest({ host: header('host'), origin: header('origin'), authorization: header('authorization'), path: request.url ?? '/' }, port, options.token, MCP_PATH);
    if (!verdict.ok) {
      options.log?.(`refused ${request.method} ${request.url}: ${verdict.status}`);
      return sendError(response, verdict.status, verdict.message);
    }
    const body = request.method === 'POST' ? await readBody(request) : undefined;
    const sessionId = header('mcp-session-id');
    if (sessionId) {
      const session = sessions.get(sessionId);
      if (!session) return sendError(response, 404, 'Session not found: the MCP session ended (the window reloaded or the session was closed). Initialize a new one.');
      // Most recently used last, for eviction.
      sessions.delete(sessionId);
      sessions.set(sessionId, session);
      return session.transport.handleRequest(request, response, body);
    }
    if (request.method !== 'POST' || !isInitializeRequest(body)) return sendError(response, 400, 'Bad request: start with an initialize request (without an mcp-session-id header).');
    const id = randomUUID();
    const opened = options.openSession(id);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: () => {
        sessions.set(id, { transport, close: opened.close });
        while (sessions.size > MAX_SESSIONS) end(sessions.keys().next().value as string);
      },
      onsessionclosed: (closedId) => end(closedId),
    });
    transport.onclose = () => end(id);
    await opened.server.connect(transport);
    await transport.handleRequest(request, response, body);
    if (!sessions.has(id)) opened.close(); // the initialize failed: nothing to keep
  };

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: Error & { status?: number }) => {
      options.log?.(`request failed: ${error.message}`);
      sendError(response, error.status ?? 500, error.status ? error.message : `Internal error: ${error.message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}${MCP_PATH}`,
    sessionIds: () => [...sessions.keys()],
    close: async () => {
      for (const id of [...sessions.keys()]) end(id);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
