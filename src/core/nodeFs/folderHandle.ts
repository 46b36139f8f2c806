/**
 * The folder a file is written in, held by a descriptor opened after its path was verified, so that creating the
 * temp file, checking the target and renaming all happen in exactly that directory. On Linux a name inside it is
 * reached as `/proc/self/fd/<fd>/<name>`, which the kernel resolves to the opened directory itself: a folder on
 * the way swapped for a link at any instant cannot redirect any of these calls (it could with the path, between
 * rename()'s two lookups, or when the temp file is created). Without /proc, names are plain paths again and the
 * synchronous checks around each call are what remains.
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { errnoOf, isMissing, writeConflict } from '../fileErrors';
import type { FolderExpectation } from '../ports';
import { identityOfStats, kindOf } from './fileKinds';
import type { Syscalls } from './syscalls';

const FOLDER_FLAGS = fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW;

let procFd: boolean | undefined;
/** Whether this system reaches open descriptors as /proc/self/fd/<fd> (checked once). */
function hasProcFd(): boolean {
  if (procFd === undefined) {
    try {
      procFd = process.platform === 'linux' && fs.statSync('/proc/self/fd').isDirectory();
    } catch {
      procFd = false;
    }
  }
  return procFd;
}

export interface FolderHandle {
  /** How to name `name` inside the folder in a system call. */
  at(name: string): string;
  /** Names reach the opened directory itself (/proc): no folder swap can redirect them. */
  pinned: boolean;
  close(): void;
}

/** Opens `expected` (the file's own folder, already verified with the folders above it) and checks it is that directory. */
export function openFolder(sys: Syscalls, expected: FolderExpectation): FolderHandle {
  let fd: number;
  try {
    fd = sys.openSync(expected.path, FOLDER_FLAGS);
  } catch (error) {
    if (isMissing(error)) throw writeConflict('folder', `the folder ${expected.path} is gone`);
    if (errnoOf(error) === 'ELOOP' || errnoOf(error) === 'ENOTDIR') throw writeConflict('folder', `the folder ${expected.path} was replaced by a symlink`);
    throw error;
  }
  try {
    const stats = sys.fstatSync(fd);
    if (!stats.isDirectory() || identityOfStats(stats, expected.path) !== expected.identity) {
      throw writeConflict('folder', `the folder ${expected.path} was replaced by ${stats.isDirectory() ? 'another folder' : `a ${kindOf(stats)}`}`);
    }
  } catch (error) {
    sys.closeSync(fd);
    throw error;
  }
  const pinned = hasProcFd();
  const base = pinned ? `/proc/self/fd/${fd}` : expected.path;
  return {
    at: (name) => nodePath.join(base, name),
    pinned,
    close: () => {
      try {
        sys.closeSync(fd);
      } catch {
        // A directory opened for reading: nothing to lose.
      }
    },
  };
}
