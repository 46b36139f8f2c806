/**
 * The hook's side of the headless hook guard (`hookGuard.ts`): a hook set up by `dist/mcp.js setup … --own-tools
 * --root <dir>` that finds no ReadGate window on its folder starts the guard for its roots, once, detached, and
 * waits for it to publish itself where hooks find windows. Several hooks at once start at most one: the guard
 * claims a lock file named after its options, and one that finds the lock held by a live process leaves.
 *
 * Runs in the hook process, before a judged tool call: only Node's own modules and the argument parser.
 */
import { spawn } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { findHookWindow, type HookWindowEntry } from '../hooks/hookWindows';
import { parseCliArguments } from './cliArguments';
import { serverArguments } from './setup/setupArguments';

/** How long a hook waits for a guard it started to publish itself (loading the core takes a fraction of it). */
export const HOOK_GUARD_START_MS = 5000;
const POLL_MS = 20;

/** The hook's own words on its command line; the rest are the server's options (its roots first). */
const HOOK_FLAGS = new Set(['--own-tools']);
const HOOK_FLAGS_WITH_VALUE = new Set(['--client']);

/** The server options of a hook's command line, normalized, or undefined when it names no root. */
export function hookGuardArguments(argv: readonly string[], cwd: string): string[] | undefined {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (HOOK_FLAGS.has(argv[i])) continue;
    if (HOOK_FLAGS_WITH_VALUE.has(argv[i])) {
      i++;
      continue;
    }
    if (HOOK_FLAGS_WITH_VALUE.has(argv[i].split('=')[0])) continue;
    rest.push(argv[i]);
  }
  const parsed = parseCliArguments(rest, cwd);
  return parsed.kind === 'run' ? serverArguments(parsed.options) : undefined;
}

/** The lock file of the guard with these options: one guard per set of roots and options. */
export function hookGuardLock(dir: string, args: readonly string[]): string {
  return path.join(dir, `headless-${createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 16)}.lock`);
}

/** The live process holding a lock, or undefined. */
export function lockHolder(lock: string): number | undefined {
  let pid: number;
  try {
    pid = Number.parseInt(fs.readFileSync(lock, 'utf8'), 10);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : undefined;
  }
}

const rootsOf = (args: readonly string[]): string[] => args.flatMap((arg, i) => (args[i - 1] === '--root' ? [arg] : []));
const real = (file: string): string => {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
};
function holds(root: string, folder: string): boolean {
  const relative = path.relative(real(root), real(folder));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The headless guard serving `folder`: started (by `script hook-guard <args>`) unless one is running or starting,
 * then awaited. Undefined when it did not come within HOOK_GUARD_START_MS: the call is then allowed, as with no
 * window at all.
 */
export async function startHookGuard(options: {
  dir: string;
  script: string;
  args: readonly string[];
  folder: string;
  env: NodeJS.ProcessEnv;
  waitMs?: number;
}): Promise<HookWindowEntry | undefined> {
  const { dir, script, args, folder, env } = options;
  // The guard judges within its roots only: an agent working elsewhere has no guard to wait for.
  if (!rootsOf(args).some((root) => holds(root, folder))) return undefined;
  if (lockHolder(hookGuardLock(dir, args)) === undefined) {
    try {
      spawn(process.execPath, [script, 'hook-guard', ...args], { detached: true, stdio: 'ignore', env, cwd: path.dirname(script) }).unref();
    } catch {
      return undefined;
    }
  }
  const until = Date.now() + (options.waitMs ?? HOOK_GUARD_START_MS);
  for (;;) {
    const found = findHookWindow(dir, folder);
    if (found) return found;
    if (Date.now() >= until) return undefined;
    await sleep(POLL_MS);
  }
}
