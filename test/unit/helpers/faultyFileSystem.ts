/**
 * The real Node file system with chosen writes failing, for rollback tests that run everywhere (the
 * directory-locking tests need chattr or a non-root user, and skip without them).
 */
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import type { FileSystem } from '../../../src/core/ports';

export interface FaultyFileSystem {
  fileSystem: FileSystem;
  /** Paths passed to writeFile, in order, failed or not. */
  writes: string[];
}

/** `fails(path, n)` decides whether the n-th writeFile call (0-based) for `path` rejects, with `code`. */
export function faultyWrites(fails: (path: string, n: number) => boolean, code = 'ENOSPC', beforeFault: (path: string) => void = () => {}): FaultyFileSystem {
  const real = createNodeFileSystem();
  const writes: string[] = [];
  const counts = new Map<string, number>();
  const fileSystem: FileSystem = {
    ...real,
    async writeFile(path, data, options) {
      writes.push(path);
      const n = counts.get(path) ?? 0;
      counts.set(path, n + 1);
      if (fails(path, n)) {
        beforeFault(path);
        throw Object.assign(new Error(`${code}: injected failure, write '${path}'`), { code, syscall: 'write' });
      }
      return real.writeFile(path, data, options);
    },
    // The one-pass write of several files gets the same fault at the same write: the real pass runs the writes
    // before it, and reports the faulty one as failed with those done.
    async writeInOnePass(batch) {
      for (let i = 0; i < batch.length; i++) {
        const { path, remove } = batch[i];
        if (remove) continue;
        writes.push(path);
        const n = counts.get(path) ?? 0;
        counts.set(path, n + 1);
        if (!fails(path, n)) continue;
        const before = await real.writeInOnePass!(batch.slice(0, i));
        if ('failed' in before) return before;
        beforeFault(path);
        return { done: i, failed: i, error: Object.assign(new Error(`${code}: injected failure, write '${path}'`), { code, syscall: 'write' }) };
      }
      return real.writeInOnePass!(batch);
    },
  };
  return { fileSystem, writes };
}
