/**
 * Opening a file for reading without ever blocking: non-blocking and without following a final link (a FIFO or
 * a link swapped in after the guard's stat must neither hang the extension host nor lead outside the roots),
 * then the kind checked on the opened descriptor.
 */
import * as fs from 'node:fs';
import { notRegularFile } from '../fileErrors';
import { kindOf } from './fileKinds';
import type { ScratchSpace } from '../ports';
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

/**
 * Every byte to end of file, however the file grew since `sizeHint`. With `scratch`, into its buffer when the
 * file fits (one byte to spare, to see the end), else into a new one left there for the next read.
 */
export function readToEnd(sys: Syscalls, fd: number, sizeHint: number, scratch?: ScratchSpace): Buffer {
  const lent = scratch?.buffer;
  let buffer =
    lent && lent.length > sizeHint ? Buffer.from(lent.buffer, lent.byteOffset, lent.byteLength) : allocate(Math.max(sizeHint + 1, 64), scratch !== undefined);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const bigger = allocate(buffer.length * 2, scratch !== undefined);
      buffer.copy(bigger, 0, 0, length);
      buffer = bigger;
    }
    const count = sys.readSync(fd, buffer, length, buffer.length - length, length);
    if (count === 0) {
      if (scratch) scratch.buffer = buffer;
      return buffer.subarray(0, length);
    }
    length += count;
  }
}

/** A buffer to read into; one meant to be reused is its own allocation, not a slice of Node's shared pool. */
function allocate(size: number, reused: boolean): Buffer {
  return reused ? Buffer.allocUnsafeSlow(size) : Buffer.allocUnsafe(size);
}

export function readRegularFile(sys: Syscalls, path: string, scratch?: ScratchSpace): Buffer {
  const { fd, stats } = openRegularFile(sys, path);
  try {
    return readToEnd(sys, fd, stats.size, scratch);
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
