/**
 * Appends that reach a file after ReadGate replaced it. A writer that opened the old file just before the rename
 * (a log appended to every millisecond) may write to it just after the last check: to a file that no longer has
 * a name. The call has returned by then, so it cannot be refused; instead the old file is watched a little longer
 * through the descriptor already open, and what was appended to it is appended to the file now at the name, as
 * that writer meant. Anything else written there, or an append that cannot be carried over, is reported.
 */
import type * as fs from 'node:fs';
import { readRegularFile, readToEnd } from './openRegular';
import type { Syscalls } from './syscalls';

/** When the old file is looked at again, in ms after the replacement (a writer descheduled mid-append resumes within a few ticks). */
export const LATE_CHECKS_MS: readonly number[] = [2, 20, 200];

export interface LateWatch {
  sys: Syscalls;
  fd: number;
  target: string;
  /** The old file's bytes when it was replaced. */
  before: Buffer;
  /** Writes `data` over the file at `target`, expecting exactly `expected` there (the port's safe write). */
  replace(data: Uint8Array, expected: Uint8Array, mode: number): void;
  warn(message: string): void;
  /** Increasing delays in ms (default LATE_CHECKS_MS). */
  checks?: readonly number[];
}

export function watchLateAppends(watch: LateWatch): void {
  const CHECKS_MS = watch.checks ?? LATE_CHECKS_MS;
  let carried = watch.before.length;
  // Read again only when size or mtime moved from what `before` describes: a check costs one fstat, not a read.
  let last = stamp({ size: watch.before.length, mtimeMs: watch.sys.fstatSync(watch.fd).mtimeMs });
  const check = (index: number): void => {
    let closing = index === CHECKS_MS.length - 1;
    try {
      const stats = watch.sys.fstatSync(watch.fd);
      if (stamp(stats) === last) {
        if (closing) close(watch);
        else setTimeout(() => check(index + 1), CHECKS_MS[index + 1] - CHECKS_MS[index]).unref();
        return;
      }
      last = stamp(stats);
      const now = readToEnd(watch.sys, watch.fd, stats.size);
      if (now.length !== carried || !now.subarray(0, watch.before.length).equals(watch.before)) {
        if (now.length < carried || !now.subarray(0, watch.before.length).equals(watch.before)) {
          closing = true;
          watch.warn(
            `another writer changed ${watch.target} in place just after ReadGate replaced it; what it wrote is in the replaced file, which no longer has a name`,
          );
        } else {
          carryOver(watch, now.subarray(carried));
          carried = now.length;
        }
      }
    } catch (error) {
      closing = true;
      watch.warn(`could not carry over what another writer appended to ${watch.target} just after ReadGate replaced it (${(error as Error).message})`);
    }
    if (closing) close(watch);
    else setTimeout(() => check(index + 1), CHECKS_MS[index + 1] - CHECKS_MS[index]).unref();
  };
  setTimeout(() => check(0), CHECKS_MS[0]).unref();
}

/** Tries to land an append while that writer keeps appending (each try syncs, so a busy log can win a few rounds). */
export const APPEND_RACE_TRIES = 32;

function carryOver(watch: LateWatch, appended: Buffer): void {
  for (let attempt = 1; attempt <= APPEND_RACE_TRIES; attempt++) {
    const current = readRegularFile(watch.sys, watch.target);
    const stats: fs.Stats = watch.sys.lstatSync(watch.target);
    try {
      watch.replace(Buffer.concat([current, appended]), current, stats.mode & 0o7777);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'READGATE_CONFLICT' || attempt === APPEND_RACE_TRIES) throw error;
    }
  }
}

function stamp(stats: Pick<fs.Stats, 'size' | 'mtimeMs'>): string {
  return `${stats.size}:${stats.mtimeMs}`;
}

function close(watch: LateWatch): void {
  try {
    watch.sys.closeSync(watch.fd);
  } catch {
    // Read-only descriptor: nothing to lose.
  }
}
