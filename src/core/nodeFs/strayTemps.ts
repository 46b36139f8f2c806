/**
 * Temp files a crashed writer left behind. A write killed between creating its temp file and renaming it (a
 * SIGKILL, a power cut, a crash of VS Code) leaves `.name.readgate-<pid>-<time>-<n>.tmp` beside the file: the
 * file itself is intact, but the temp name would stay forever. After a successful write the folder is looked
 * through (at most once in a while per folder) and such names are removed when their writer cannot still be
 * writing them: its process is gone (or it is this process, whose writes are synchronous and clean up after
 * themselves), and the file has not been touched for a minute. The minute keeps a writer this process cannot see
 * (another container or machine sharing the folder) safe; at worst such a writer's write fails, with nothing lost.
 */
import { processAlive } from './processAlive';
import type { Syscalls } from './syscalls';

/** How long a temp file must be untouched before it counts as left behind. */
export const STRAY_MIN_AGE_MS = 60_000;
/** How often one folder is looked through again by the same process. */
export const SWEEP_INTERVAL_MS = 10 * 60_000;
const TRACKED_FOLDERS = 4096;

const TEMP_NAME = /^\..+\.readgate-(\d+)-[0-9a-z]+-[0-9a-z]+\.tmp$/;

/** The writer's process id in a temp file name of the write path, or undefined for any other name. */
export function tempWriterPid(name: string): number | undefined {
  const match = TEMP_NAME.exec(name);
  return match ? Number(match[1]) : undefined;
}

export interface StrayFacts {
  name: string;
  /** The entry is a regular file with one link (never a directory, link or someone's hard-linked file). */
  plainFile: boolean;
  mtimeMs: number;
  nowMs: number;
  ownPid: number;
  isAlive(pid: number): boolean;
}

/** Whether a folder entry is a temp file its writer left behind (a pure decision; see the file comment). */
export function isStrayTemp(facts: StrayFacts): boolean {
  const pid = tempWriterPid(facts.name);
  if (pid === undefined || !facts.plainFile) return false;
  if (facts.nowMs - facts.mtimeMs < STRAY_MIN_AGE_MS) return false;
  return pid === facts.ownPid || !facts.isAlive(pid);
}

const lastSweep = new Map<string, number>();

/** Whether `folder` is due for a sweep now (and records that it is being swept). */
export function sweepDue(folder: string, nowMs: number): boolean {
  const last = lastSweep.get(folder);
  if (last !== undefined && nowMs - last < SWEEP_INTERVAL_MS) return false;
  if (lastSweep.size >= TRACKED_FOLDERS) lastSweep.clear();
  lastSweep.set(folder, nowMs);
  return true;
}

export interface SweepPlace {
  /** The folder's path, as the throttle knows it. */
  folder: string;
  /** How to name an entry of the folder in a system call (through the held folder where there is one). */
  at(name: string): string;
}

/** Removes the stray temp files of one folder when it is due; best effort: nothing here may fail the write that called it. */
export function sweepStrayTemps(sys: Syscalls, place: SweepPlace): void {
  const nowMs = Date.now();
  if (!sweepDue(place.folder, nowMs)) return;
  let names: string[];
  try {
    names = sys.readdirSync(place.at(''));
  } catch {
    return;
  }
  for (const name of names) {
    if (tempWriterPid(name) === undefined) continue;
    try {
      const at = place.at(name);
      const stats = sys.lstatSync(at);
      const facts = { name, plainFile: stats.isFile() && stats.nlink === 1, mtimeMs: stats.mtimeMs, nowMs, ownPid: process.pid, isAlive: processAlive };
      if (!isStrayTemp(facts)) continue;
      sys.unlinkSync(at);
    } catch {
      // Gone already, or not ours to remove: left as it is.
    }
  }
}
