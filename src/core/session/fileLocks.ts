/**
 * The locks a mutation holds: one per path and one per file identity, so calls on one file through two names
 * (a hard link, a case variant on a case-insensitive disk) wait for each other as calls through one name do.
 * An identity can change while a call waits (an atomic replacement gives the file a new inode), so the keys are
 * checked again once held, and taken anew if they moved. The port's synchronous check before each write is the
 * last line either way: the locks make refusals precise, they are not what keeps bytes safe.
 */
import type { FileSystem } from '../ports';
import type { GuardContext } from '../context/guardContext';

const RETRY = Symbol('retry');
const MAX_RETAKES = 3;

async function keysOf(fs: FileSystem, targets: readonly string[]): Promise<string[]> {
  const keys: string[] = [];
  for (const target of targets) {
    keys.push(`path:${target}`);
    const stat = await fs.stat(target).catch(() => undefined);
    if (stat) keys.push(`id:${stat.identity}`);
  }
  return keys.sort();
}

export async function runLocked<T>(ctx: GuardContext, targets: readonly string[], signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    const keys = await keysOf(ctx.fs, targets);
    const result = await ctx.locks.run(
      keys,
      async () => {
        if (attempt < MAX_RETAKES && (await keysOf(ctx.fs, targets)).join('\0') !== keys.join('\0')) return RETRY;
        return work();
      },
      signal,
    );
    if (result !== RETRY) return result as T;
  }
}
