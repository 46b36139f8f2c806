/**
 * A stdio MCP server (dist/mcp.js or the bridge) as a real child process spoken to in raw JSON lines, so a test
 * can send what the SDK's client never would (a line of any size, a line that is not JSON) and see exactly what
 * comes back. An answer is awaited by request id; the child exiting first fails the wait with its stderr.
 */
import { type SpawnOptions, spawn } from 'child_process';

export interface JsonLineChild {
  /** Writes one line (an object is serialized); resolves once the pipe took it all. */
  send(message: object | string): Promise<void>;
  /** The message whose `id` is `id`, waiting up to `timeoutMs`. */
  answer(id: number | string | null, timeoutMs?: number): Promise<JsonRpcAnswer>;
  /** initialize + notifications/initialized, as a client starts. */
  initialize(): Promise<void>;
  stderr(): string;
  exitCode(): number | null;
  close(): Promise<void>;
}

export interface JsonRpcAnswer {
  id: number | string | null;
  result?: { content?: { text?: string }[]; isError?: boolean; [key: string]: unknown };
  error?: { code: number; message: string };
}

export function startJsonLineChild(script: string, args: string[], options: SpawnOptions = {}): JsonLineChild {
  const child = spawn(process.execPath, [script, ...args], { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
  const answers: JsonRpcAnswer[] = [];
  let pending = Buffer.alloc(0);
  let stderr = '';
  let exited = false;
  const waiters = new Set<() => void>();
  const wake = (): void => waiters.forEach((waiter) => waiter());
  child.stdout!.on('data', (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    for (let end = pending.indexOf(10); end !== -1; end = pending.indexOf(10)) {
      answers.push(JSON.parse(pending.subarray(0, end).toString('utf8')));
      pending = pending.subarray(end + 1);
    }
    wake();
  });
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.on('exit', () => {
    exited = true;
    wake();
  });
  child.stdin!.on('error', () => undefined); // a child that exited early: the wait reports it

  const answer = (id: number | string | null, timeoutMs = 20_000): Promise<JsonRpcAnswer> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = answers.find((message) => message.id === id && ('result' in message || 'error' in message));
        if (found) return done(() => resolve(found));
        if (exited) done(() => reject(new Error(`the server exited (code ${child.exitCode}) before answering ${id}; stderr: ${stderr.slice(0, 2000)}`)));
      };
      const timer = setTimeout(() => done(() => reject(new Error(`no answer to ${id} within ${timeoutMs} ms; stderr: ${stderr.slice(0, 2000)}`))), timeoutMs);
      const done = (then: () => void): void => {
        clearTimeout(timer);
        waiters.delete(check);
        then();
      };
      waiters.add(check);
      check();
    });

  const send = (message: object | string): Promise<void> =>
    new Promise((resolve) => {
      const line = `${typeof message === 'string' ? message : JSON.stringify(message)}\n`;
      // A child that stopped reading never drains: its exit ends the wait (and `answer` reports it).
      if (exited || child.stdin!.write(line)) return resolve();
      child.stdin!.once('drain', resolve);
      child.once('exit', resolve);
    });

  return {
    send,
    answer,
    async initialize() {
      await send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-test', version: '1.0' } } });
      const initialized = await answer('init');
      if (!initialized.result) throw new Error(`initialize failed: ${JSON.stringify(initialized)}`);
      await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    },
    stderr: () => stderr,
    exitCode: () => child.exitCode,
    async close() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      const timer = setTimeout(() => child.kill(), 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}
