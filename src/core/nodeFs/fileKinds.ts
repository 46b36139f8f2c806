/** `fs.Stats` → the port's FileKind and FileStat. */
import type * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileKind, FileStat } from '../ports';
import { identityOf } from '../version/fileIdentity';

export function kindOf(stats: fs.Stats): FileKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'characterDevice';
  if (stats.isBlockDevice()) return 'blockDevice';
  return 'other';
}

export function identityOfStats(stats: fs.Stats, filePath: string): string {
  return identityOf(stats.dev, stats.ino, path.normalize(filePath), stats.birthtimeMs);
}

export function toFileStat(stats: fs.Stats, filePath: string): FileStat {
  return {
    kind: kindOf(stats),
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    mode: stats.mode & 0o7777,
    nlink: stats.nlink,
    identity: identityOfStats(stats, filePath),
  };
}
