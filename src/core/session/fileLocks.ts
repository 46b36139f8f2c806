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

/** The lock keys of `targets`, and each one's stat where it could be taken (a stat that failed is left out). */
async function look(fs: FileSystem, targets: readonly string[]): Promise<{ keys: string[]; stats: Map<string, FileStat | undefined> }> {
  const keys: string[] = [];
  const stats = new Map<string, FileStat | undefined>();
  for (const target of targets) {
    keys.push(`path:${target}`);
    const stat = await fs.stat(target).then(
      (found) => (stats.set(target, found), found),
      () => undefined,
    );
    if (stat) keys.push(`id:${stat.identity}`);
  }
  return { keys: keys.sort(), stats };
}

/** `work` gets the stats taken once the locks were held: the files as the call plans against them. */
export async function runLocked<T>(ctx: GuardContext, targets: readonly string[], signal: AbortSignal | undefined, work: (stats: ReadonlyMap<string, FileStat | undefined>) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const before = await look(ctx.fs, targets);
    const result = await ctx.locks.run(
      before.keys,
      async () => {
        const held = await look(ctx.fs, targets);
        if (attempt < MAX_RETAKES && held.keys.join('\0') !== before.keys.join('\0')) return RETRY;
        return work(held.stats);
      },
      signal,
    );
    if (result !== RETRY) return result as T;
  }
}
