/**
 * Opening a file for reading without ever blocking: non-blocking and without following a final link (a FIFO or
 * a link swapped in after the guard's stat must neither hang the extension host nor lead outside the roots),
 * then the kind checked on the opened descriptor.
 */
import * as fs from 'node:fs';
import { notRegularFile } from '../fileErrors';
import { kindOf } from './fileKinds';
import type { Syscalls } from './syscalls';

const READ_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW;

export interface OpenFile {
  fd: number;
  stats: fs.Stats;
}

export function openRegularFile(sys: Syscalls, path: string): OpenFile {
  const fd = sys.openSync(path, READ_FLAGS);
  try {
    const stats = sys.fstatSync(fd);
    if (!stats.isFile()) throw notRegularFile(kindOf(stats), path);
    return { fd, stats };
  } catch (error) {
    sys.closeSync(fd);
    throw error;
  }
}

/** Every byte to end of file, however the file grew since `sizeHint`. */
export function readToEnd(sys: Syscalls, fd: number, sizeHint: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.max(sizeHint + 1, 64));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const count = sys.readSync(fd, buffer, length, buffer.length - length, length);
    if (count === 0) return buffer.subarray(0, length);
    length += count;
  }
}

export function readRegularFile(sys: Syscalls, path: string): Buffer {
  const { fd, stats } = openRegularFile(sys, path);
  try {
    return readToEnd(sys, fd, stats.size);
  } finally {
    sys.closeSync(fd);
  }
}

/** One scratch buffer for comparisons: the write path's checks read the file again without allocating its size. */
const scratch = Buffer.allocUnsafe(256 * 1024);

/** Whether the file behind `fd` holds exactly `expected`, read in chunks (nothing is kept). */
export function holdsExactly(sys: Syscalls, fd: number, expected: Uint8Array): boolean {
  const want = Buffer.from(expected.buffer, expected.byteOffset, expected.byteLength);
  let at = 0;
  for (;;) {
    const count = sys.readSync(fd, scratch, 0, scratch.length, at);
    if (count === 0) return at === want.length;
    if (at + count > want.length || scratch.compare(want, at, at + count, 0, count) !== 0) return false;
    at += count;
  }
}
