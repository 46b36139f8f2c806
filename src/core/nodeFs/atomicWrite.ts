/**
 * The one atomic write of a small file (a discovery entry, a marker, the bridge, a history file): a reader sees
 * the old file or the new one, never part of either, and a secret is never readable beyond its mode. The history's
 * batches (`historyWrites.ts`) use the same temp names, exclusive open and folder sync.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as nodePath from 'node:path';

/** `.<name>.<pid>-<random hex>.tmp`: hidden, never a name readers look for, and it says which process wrote it. */
const TEMP_NAME = /^\.(.+)\.(\d+)-[0-9a-f]+\.tmp$/;

/** A fresh temp path in `target`'s folder (a rename within one folder is atomic; across file systems it is not). */
export function atomicTempPath(target: string): string {
  return nodePath.join(nodePath.dirname(target), `.${nodePath.basename(target)}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

/** The writer's pid of a name `atomicTempPath` made, or undefined for any other name (a sweep removes only those). */
export function atomicTempWriter(name: string): number | undefined {
  const match = TEMP_NAME.exec(name);
  return match ? Number(match[2]) : undefined;
}

/** Creates a temp file for writing; fails when anything is at the path, so a planted file or link is never written through. */
export function openTempFile(temp: string, mode: number): number {
  return fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, mode);
}

/** Errors of a folder's fsync that mean the file system cannot sync folders, not that anything failed. */
export function cannotSyncFolder(code: string | undefined): boolean {
  return code === 'EINVAL' || code === 'ENOTSUP' || code === 'EISDIR' || code === 'EBADF';
}

/** Best effort: the rename is done, so a folder that cannot be opened or synced costs durability, not the write. */
function syncFolder(folder: string): void {
  try {
    const fd = fs.openSync(folder, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    // Not possible here (a file system without folder sync, a folder this process may not open).
  }
}

/**
 * Writes `data` to `target` whole, with exactly `mode`: a temp file created exclusively beside it, written,
 * given its mode (the umask may have narrowed it), synced and renamed over the target; then the folder is
 * synced where possible. On any failure the temp file is removed and the target is left as it was.
 */
export function writeFileAtomic(target: string, data: string | Uint8Array, mode: number): void {
  const temp = atomicTempPath(target);
  const fd = openTempFile(temp, mode);
  try {
    try {
      fs.fchmodSync(fd, mode);
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  syncFolder(nodePath.dirname(target));
}
