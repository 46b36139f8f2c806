/**
 * Processes that share one history folder: each runs `children/historyWorker` (a guard with a history, from the
 * built bundle) and does what it is sent, one command at a time, so tests interleave real processes exactly. A
 * worker can run as another user, or under `prlimit`; every worker still running is killed in a teardown.
 */
import { type ChildProcess, spawn } from 'child_process';
import * as os from 'os';
import { childProgram, coreBundle, type Identity, readableBy } from '../helpers/childGuard';

export interface WorkerConfig {
  roots: string[];
  dir: string;
  sessionId: string;
  label?: string;
  maxBytes?: number;
}

export interface WorkerRecord {
  id: string;
  sessionId: string;
  time: number;
  previous?: string;
  files: { path: string; before: string | null; after: string | null }[];
}

export interface Worker {
  pid: number;
  /** Sends a command and resolves with its result (rejects when the worker fails it or exits first). */
  call<T = Record<string, unknown>>(op: string, args?: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  /** Warnings the worker's history logged so far. */
  warnings(): { warn: string; data?: Record<string, unknown> }[];
  stderr(): string;
  /** Resolves when the worker has exited (it exits on its own after `crash`, or after `end`). */
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Closes stdin: the worker disposes its guard (waiting for its records) and exits. */
  end(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): Promise<void>;
}

const running = new Set<ChildProcess>();

export interface StartOptions {
  as?: Identity;
  /** Runs the worker under `prlimit --nofile=<n>:<n>`. */
  nofile?: number;
}

export async function startWorker(config: WorkerConfig, options: StartOptions = {}): Promise<Worker> {
  let [core, program] = [coreBundle(), childProgram('historyWorker')];
  if (options.as) [core, program] = readableBy(options.as, [core, program]).paths;
  const node = [program, core, JSON.stringify(config)];
  const [command, args] = options.nofile ? ['prlimit', [`--nofile=${options.nofile}:${options.nofile}`, process.execPath, ...node]] : [process.execPath, node];
  const child = spawn(command, args, {
    cwd: options.as ? '/' : os.tmpdir(),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.as ? { uid: options.as.uid, gid: options.as.gid } : {}),
  });
  running.add(child);
  const answers = new Map<number, { result?: unknown; error?: string }>();
  const warnings: { warn: string; data?: Record<string, unknown> }[] = [];
  const waiters = new Set<() => void>();
  let stdout = '';
  let stderr = '';
  let ready = false;
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const wake = (): void => [...waiters].forEach((waiter) => waiter());
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (let end = stdout.indexOf('\n'); end !== -1; end = stdout.indexOf('\n')) {
      const line = JSON.parse(stdout.slice(0, end)) as { id?: number; ready?: boolean; warn?: string; data?: Record<string, unknown>; result?: unknown; error?: string };
      stdout = stdout.slice(end + 1);
      if (line.ready) ready = true;
      else if (line.warn !== undefined) warnings.push({ warn: line.warn, ...(line.data ? { data: line.data } : {}) });
      else if (line.id !== undefined) answers.set(line.id, line);
    }
    wake();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin!.on('error', () => undefined);
  const gone = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => {
      running.delete(child);
      exit = { code, signal };
      wake();
      resolve(exit);
    }),
  );
  const until = <T>(found: () => T | undefined, timeoutMs: number, what: string): Promise<T> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(() => reject(new Error(`worker ${config.sessionId}: no ${what} within ${timeoutMs} ms; stderr: ${stderr.slice(-2000)}`))), timeoutMs);
      const check = (): void => {
        const value = found();
        if (value !== undefined) return done(() => resolve(value));
        if (exit) done(() => reject(new Error(`worker ${config.sessionId} exited (${JSON.stringify(exit)}) before ${what}; stderr: ${stderr.slice(-2000)}`)));
      };
      const done = (then: () => void): void => {
        clearTimeout(timer);
        waiters.delete(check);
        then();
      };
      waiters.add(check);
      check();
    });
  await until(() => (ready ? true : undefined), 30_000, 'start');
  let nextId = 1;
  return {
    pid: child.pid ?? -1,
    async call<T>(op: string, args: Record<string, unknown> = {}, timeoutMs = 60_000): Promise<T> {
      const id = nextId++;
      child.stdin!.write(`${JSON.stringify({ id, op, ...args })}\n`);
      const answer = await until(() => answers.get(id), timeoutMs, `answer to ${op}`);
      if (answer.error !== undefined) throw new Error(`worker ${config.sessionId} failed ${op}: ${answer.error}`);
      return answer.result as T;
    },
    warnings: () => warnings,
    stderr: () => stderr,
    exited: () => gone,
    end() {
      child.stdin!.end();
      return gone;
    },
    async kill() {
      if (!exit) child.kill('SIGKILL');
      await gone;
    },
  };
}

teardown(async () => {
  for (const child of [...running]) child.kill('SIGKILL');
  running.clear();
});
