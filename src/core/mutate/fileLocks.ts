/**
 * The locks a mutation holds: one per path and one per file identity, so calls on one file through two names
 * (a hard link, a case variant on a case-insensitive disk) wait for each other as calls through one name do.
 * An identity can change while a call waits (an atomic replacement gives the file a new inode), so the keys are
 * checked again once held, and taken anew if they moved. The port's synchronous check before each write is the
 * last line either way: the locks make refusals precise, they are not what keeps bytes safe.
 */
import type { FileStat, FileSystem } from '../ports';
import type { GuardContext } from '../context/guardContext';

const RETRY = Symbol('retry');
const MAX_RETAKES = 3;

/** A file a call locks: its target, and its identity when the path check found one. */
export interface LockTarget {
  target: string;
  identity?: string;
}

function keysOf(targets: readonly LockTarget[]): string[] {
  return targets.flatMap(({ target, identity }) => [`path:${target}`, ...(identity ? [`id:${identity}`] : [])]).sort();
}

/** Each target's stat where it could be taken (a stat that failed is left out: the plan takes it again and fails). */
async function look(fs: FileSystem, targets: readonly LockTarget[]): Promise<{ held: LockTarget[]; stats: Map<string, FileStat | undefined> }> {
  const stats = new Map<string, FileStat | undefined>();
  const held: LockTarget[] = [];
  for (const { target } of targets) {
    const stat = await fs.stat(target).then(
      (found) => (stats.set(target, found), found),
      () => undefined,
    );
    held.push({ target, ...(stat ? { identity: stat.identity } : {}) });
  }
  return { held, stats };
}

/**
 * Runs `work` under the locks of `targets`, keyed by the identities their path checks found (no stat before the
 * lock is held). Once held, each target is stat'ed once: `work` gets those stats, the files as the call plans
 * against them; if an identity moved meanwhile, the locks are taken anew under the new keys.
 */
export async function runLocked<T>(
  ctx: GuardContext,
  targets: readonly LockTarget[],
  signal: AbortSignal | undefined,
  work: (stats: ReadonlyMap<string, FileStat | undefined>) => Promise<T>,
): Promise<T> {
  let keys = keysOf(targets);
  for (let attempt = 0; ; attempt++) {
    const taken = keys;
    const result = await ctx.locks.run(
      taken,
      async () => {
        const now = await look(ctx.fs, targets);
        keys = keysOf(now.held);
        if (attempt < MAX_RETAKES && keys.join('\0') !== taken.join('\0')) return RETRY;
        return work(now.stats);
      },
      signal,
    );
    if (result !== RETRY) return result as T;
  }
}
