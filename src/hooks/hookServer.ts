/**
 * The window's end of the agent hooks (`hookProtocol.ts`): a local socket only this user can reach, in a folder of
 * mode 0700 under ReadGate's home (or, where that path is too long for a socket, under the system's temporary
 * folder), with a per-window secret checked on every request; on Windows a named pipe. Each connection carries
 * one request and its answer. The handler may say the user is reviewing (`wait`); a connection that closes
 * aborts the handler's signal (the client gave up on the call: its review closes).
 */
import { randomBytes, timingSafeEqual } from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { type HookReply, type HookRequest, MAX_HOOK_INPUT_BYTES } from './hookProtocol';

export interface HookHandler {
  (request: { client: string; input: unknown }, wait: (ms: number) => void, signal: AbortSignal): Promise<object | undefined>;
}

export interface HookServer {
  readonly socket: string;
  readonly token: string;
  close(): Promise<void>;
}

/** Socket paths are limited to about 108 bytes on Linux (104 on macOS). */
const MAX_SOCKET_PATH = 100;

/** A folder only this user can enter: made 0700 if new, refused if it is a link or another user's. */
function privateFolder(dir: string): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid)) throw new Error(`${dir} is not a folder of this user's`);
  fs.chmodSync(dir, 0o700);
  return dir;
}

/** Where the socket goes: `<home>/hooks/<pid>-<id>.sock`, else a folder of this user's under the temporary folder. */
export function socketPath(home: string, id: string): string {
  if (process.platform === 'win32') return `\\\\.\\pipe\\readgate-hooks-${process.pid}-${id}`;
  const name = `${process.pid}-${id}.sock`;
  const preferred = path.join(home, 'hooks', name);
  if (Buffer.byteLength(preferred) <= MAX_SOCKET_PATH) return path.join(privateFolder(path.dirname(preferred)), name);
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return path.join(privateFolder(path.join(os.tmpdir(), `readgate-hooks-${uid}`)), name);
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const send = (connection: net.Socket, reply: HookReply): void => {
  if (!connection.destroyed) connection.write(`${JSON.stringify(reply)}\n`);
};

function serveConnection(connection: net.Socket, token: string, handle: HookHandler, onError: (error: unknown) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let started = false;
  const controller = new AbortController();
  connection.on('close', () => controller.abort());
  connection.on('error', () => controller.abort());
  connection.on('data', (chunk: Buffer) => {
    if (started) return;
    size += chunk.length;
    if (size > MAX_HOOK_INPUT_BYTES) return void connection.destroy();
    const end = chunk.indexOf(10);
    chunks.push(end >= 0 ? chunk.subarray(0, end) : chunk);
    if (end < 0) return;
    started = true;
    let request: Partial<HookRequest>;
    try {
      request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<HookRequest>;
    } catch {
      return void connection.destroy();
    }
    if (request.v !== 1 || typeof request.token !== 'string' || !sameSecret(request.token, token) || typeof request.client !== 'string') {
      return void connection.destroy();
    }
    handle({ client: request.client, input: request.input }, (ms) => send(connection, { kind: 'wait', ms }), controller.signal).then(
      (output) => {
        send(connection, { kind: 'done', ...(output ? { output } : {}) });
        connection.end();
      },
      (error: unknown) => {
        onError(error);
        send(connection, { kind: 'done' });
        connection.end();
      },
    );
  });
}

/** Listens for the window's hooks; `onError` hears a handler that failed (its call is allowed). */
export function serveHooks(home: string, handle: HookHandler, onError: (error: unknown) => void): Promise<HookServer> {
  const token = randomBytes(32).toString('base64url');
  const socket = socketPath(home, randomBytes(6).toString('hex'));
  if (process.platform !== 'win32') fs.rmSync(socket, { force: true });
  const open = new Set<net.Socket>();
  const server = net.createServer((connection) => {
    open.add(connection);
    connection.on('close', () => open.delete(connection));
    serveConnection(connection, token, handle, onError);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socket, () => {
      server.off('error', reject);
      if (process.platform !== 'win32') fs.chmodSync(socket, 0o600);
      resolve({
        socket,
        token,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // A hook still waiting (a review) is let go: its handler's signal aborts, and the hook decides.
            for (const connection of open) connection.destroy();
            if (process.platform !== 'win32') fs.rmSync(socket, { force: true });
          }),
      });
    });
  });
}
