/**
 * `dist/mcp.js hook-guard --root <dir> … [server options]`: the headless guard of agents' own tools, for hooks with
 * no ReadGate window on their folder (started by the first such hook, `hookGuardStart.ts`). One process holds the
 * ledgers of every conversation and subagent whose hooks reach it, so what a `Read` showed counts for the `Edit`
 * that a later hook process judges; it serves them on a private socket, as a window does, and publishes itself
 * where hooks find windows (a window on the folder is preferred to it). Changes are approved by policy (the
 * client's own permission prompt is the review) and recorded in `--history <dir>` when given.
 *
 * It ends when no hook has reached it for READGATE_HOOK_GUARD_IDLE_MS (default four hours), on SIGTERM, or when
 * its lock is taken from it; its ledgers end with it, which only ever makes the guard stricter (a file must be
 * read again), never looser.
 */
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import { createGuard, type Guard } from '../core/index';
import { claudeAdapter } from '../hooks/claudeHooks';
import { codexAdapter } from '../hooks/codexHooks';
import { geminiAdapter } from '../hooks/geminiHooks';
import { qwenAdapter } from '../hooks/qwenHooks';
import { guardHookSessions } from '../hooks/guardHookSessions';
import { HookJudge } from '../hooks/hookJudge';
import { serveHooks } from '../hooks/hookServer';
import { publishHookWindow } from '../hooks/hookWindowFile';
import { hookWindowsDir } from '../hooks/hookWindows';
import { parseCliArguments } from './cliArguments';
import { readgateHome } from './discovery';
import { hookGuardLock, lockHolder } from './hookGuardStart';
import { serverArguments } from './setup/setupArguments';

const DEFAULT_IDLE_MS = 4 * 60 * 60 * 1000;

/** Takes the lock for this process, or returns false when a live process holds it. */
export function claimLock(lock: string): boolean {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (lockHolder(lock) !== undefined) return false;
    // A stale lock: moved aside first, so of two guards that found it stale only one removes it.
    const aside = `${lock}.${process.pid}.stale`;
    try {
      fs.renameSync(lock, aside);
      fs.rmSync(aside, { force: true });
    } catch {
      // Another guard moved it first; try again.
    }
  }
  return false;
}

/** Appends the guard's warnings to a log beside its lock (a detached process has no terminal). */
function logTo(file: string): (message: string) => void {
  return (message) => {
    try {
      fs.appendFileSync(file, `${new Date().toISOString()} ${message}\n`, { mode: 0o600 });
    } catch {
      // Logging never stands in the way.
    }
  };
}

/** Ends (`done`) when `touch` was not called for `ms`, or when `ended` is called. */
function idleTimer(ms: number): { touch(): void; ended(): void; done: Promise<void>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  let ended: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (ended = resolve));
  return {
    touch: () => {
      clearTimeout(timer);
      timer = setTimeout(ended, ms);
    },
    ended: () => ended(),
    done,
    stop: () => clearTimeout(timer),
  };
}

export async function runHookGuard(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const parsed = parseCliArguments(argv, process.cwd());
  if (parsed.kind !== 'run') {
    process.stderr.write(`readgate-mcp hook-guard: ${parsed.kind === 'error' ? parsed.message : 'name --root <dir>'}\n`);
    return 2;
  }
  const { roots, deny, dedup, history } = parsed.options;
  const dir = hookWindowsDir(env);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const lock = hookGuardLock(dir, serverArguments(parsed.options));
  if (!claimLock(lock)) return 0;
  const say = logTo(lock.replace(/\.lock$/, '.log'));
  const quiet = (): void => undefined;
  const guard: Guard = createGuard({
    roots,
    deny,
    dedup,
    logger: { trace: quiet, debug: quiet, info: quiet, warn: say, error: say },
    ...(history ? { history: { dir: history } } : {}),
  });
  const judge = new HookJudge(
    { 'claude-code': claudeAdapter(), codex: codexAdapter(), 'gemini-cli': geminiAdapter(), 'qwen-code': qwenAdapter() },
    guardHookSessions(guard),
    (message, data, level) => {
      if (level === 'warn') say(`${message} ${JSON.stringify(data)}`);
    },
  );
  const idle = idleTimer(Number(env.READGATE_HOOK_GUARD_IDLE_MS) > 0 ? Number(env.READGATE_HOOK_GUARD_IDLE_MS) : DEFAULT_IDLE_MS);
  const { touch, ended, done } = idle;
  const server = await serveHooks(
    readgateHome(env),
    (request, wait, signal) => {
      touch();
      // Its lock taken (removed, or another guard's now): this one steps aside after answering.
      if (lockHolder(lock) !== process.pid) setImmediate(ended);
      return judge.handle(request, wait, signal);
    },
    (error) => say(`a hook call failed; it was allowed: ${String((error as Error)?.message ?? error)}`),
  );
  const entry = publishHookWindow(dir, randomBytes(6).toString('hex'), {
    version: 1,
    pid: process.pid,
    socket: server.socket,
    token: server.token,
    folders: roots,
    started: Date.now(),
    headless: true,
  });
  touch();
  process.once('SIGTERM', ended);
  process.once('SIGINT', ended);
  await done;
  idle.stop();
  entry.remove();
  if (lockHolder(lock) === process.pid) fs.rmSync(lock, { force: true });
  await server.close();
  await guard.dispose();
  return 0;
}

/** For tests: where a guard with these options keeps its lock and log. */
export const hookGuardFiles = (env: NodeJS.ProcessEnv, args: readonly string[]): { lock: string; log: string } => {
  const lock = hookGuardLock(hookWindowsDir(env), args);
  return { lock, log: lock.replace(/\.lock$/, '.log') };
};
