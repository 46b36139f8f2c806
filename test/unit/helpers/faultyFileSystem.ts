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
export function faultyWrites(fails: (path: string, n: number) => boolean, code = 'ENOSPC', before: (path: string) => void = () => {}): FaultyFileSystem {
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
        before(path);
        throw Object.assign(new Error(`${code}: injected failure, write '${path}'`), { code, syscall: 'write' });
      }
      return real.writeFile(path, data, options);
    },
  };
  return { fileSystem, writes };
}
