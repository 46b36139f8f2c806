/**
 * The lock of a history folder that several processes share: `<dir>/lock`, a file created exclusively (O_EXCL)
 * that holds its owner (process id, the process's start time from /proc so a reused pid is not taken for it,
 * host name, pid namespace, a random token). Whoever created it holds the lock until it removes it.
 *
 * Why a lock file: Node has no flock() or fcntl() locks, and an append-only store would still need one writer
 * at a time for its garbage collection. Every change of the folder that can lose something (a batch of records
 * checked against the versions it names, the budget, removing orphans) runs under it; reading needs no lock, as
 * every file is written whole and renamed into place.
 *
 * A lock whose owner died is broken, under a second file (`lock.break`, taken the same way) so that two
 * processes that find the same dead owner cannot both remove the lock (one would remove the other's fresh one).
 * The owner's liveness is only known on the same host and pid namespace; a lock of another one is stale once its
 * time was not refreshed for a minute (an owner refreshes it every 5 s). A lock file without an owner yet (its
 * maker died between create and write) is stale after 10 s. Waiting is bounded (30 s, then ELOCKED).
 *
 * Taken and released with synchronous calls: each `await` is a turn of the event loop, which a busy server
 * (whose every edit runs as one synchronous pass) hands out about once per call.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { errnoOf } from '../fileErrors';
import { processAlive } from './processAlive';

const LOCK = 'lock';
const BREAKER = 'lock.break';
const WAIT_MS = 30_000;
const REFRESH_MS = 5_000;
const FOREIGN_STALE_MS = 60_000;
const UNWRITTEN_STALE_MS = 10_000;

interface Owner {
  pid: number;
  start?: string;
  host: string;
  ns?: string;
  token: string;
}

interface Found {
  owner?: Owner;
  ino: number;
  mtimeMs: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Field 22 of /proc/<pid>/stat: when the process started (clock ticks since boot). */
function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function pidNamespace(): string | undefined {
  try {
    return fs.readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

const ownerNow = (): Owner => ({
  pid: process.pid,
  start: processStart(process.pid),
  host: os.hostname(),
  ns: pidNamespace(),
  token: randomBytes(8).toString('hex'),
});

/** Whether the owner runs; undefined when this process cannot tell (another host or pid namespace). */
function isAlive(owner: Owner): boolean | undefined {
  if (owner.host !== os.hostname() || owner.ns !== pidNamespace()) return undefined;
  if (!processAlive(owner.pid)) return false;
  // A pid is reused once its process ends: the start time tells the owner from a newer process with its pid.
  const start = owner.start === undefined ? undefined : processStart(owner.pid);
  return start === undefined || start === owner.start;
}

/** Creates `file` holding `owner`, or returns false when it exists. */
function tryCreate(file: string, owner: Owner): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
  } catch (error) {
    if (errnoOf(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeSync(fd, JSON.stringify(owner));
    fs.closeSync(fd);
  } catch (error) {
    // A full disk can refuse the bytes after the file was made: leave no ownerless lock behind.
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
    throw error;
  }
  return true;
}

function readLock(file: string): Found | undefined {
  let text: string;
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw error;
  }
  let owner: Owner | undefined;
  try {
    const parsed = JSON.parse(text) as Owner;
    if (typeof parsed?.pid === 'number' && typeof parsed.token === 'string' && typeof parsed.host === 'string') owner = parsed;
  } catch {
    owner = undefined;
  }
  return { ...(owner ? { owner } : {}), ino: stat.ino, mtimeMs: stat.mtimeMs };
}

function isStale(found: Found): boolean {
  const age = Date.now() - found.mtimeMs;
  if (!found.owner) return age > UNWRITTEN_STALE_MS;
  const alive = isAlive(found.owner);
  return alive === undefined ? age > FOREIGN_STALE_MS : !alive;
}

/** Removes `file` if it is still the one `found` describes (same inode, time and owner). */
function removeIfSame(file: string, found: Found): boolean {
  const now = readLock(file);
  if (!now || now.ino !== found.ino || now.mtimeMs !== found.mtimeMs || now.owner?.token !== found.owner?.token) return false;
  fs.rmSync(file, { force: true });
  return true;
}

/** Breaks the stale lock `found`, holding the breaker file while it looks again and removes it. */
function breakStale(dir: string, found: Found, me: Owner): boolean {
  const breaker = nodePath.join(dir, BREAKER);
  if (!tryCreate(breaker, me)) {
    // A breaker that died mid-break (a window of a few system calls) leaves its file: stale the same way.
    const other = readLock(breaker);
    if (other && isStale(other)) removeIfSame(breaker, other);
    return false;
  }
  try {
    return removeIfSame(nodePath.join(dir, LOCK), found);
  } finally {
    fs.rmSync(breaker, { force: true });
  }
}

function release(file: string, token: string): void {
  try {
    if (readLock(file)?.owner?.token === token) fs.rmSync(file, { force: true });
  } catch {
    // Gone or unreadable: nothing of ours to remove.
  }
}

/** Runs `work` holding the lock of the history folder `dir` (created mode 0700 when missing). */
export async function withFolderLock<T>(dir: string, work: () => Promise<T>, waitMs = WAIT_MS): Promise<T> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = nodePath.join(dir, LOCK);
  const me = ownerNow();
  const deadline = Date.now() + waitMs;
  for (let pause = 1; !tryCreate(file, me); pause = Math.min(pause * 2, 50)) {
    const found = readLock(file);
    if (!found) continue;
    if (isStale(found) && breakStale(dir, found, me)) continue;
    if (Date.now() > deadline) {
      throw Object.assign(new Error(`the history folder is locked by process ${found.owner?.pid ?? '(unknown)'} for more than ${waitMs / 1000} s`), {
        code: 'ELOCKED',
      });
    }
    await sleep(pause);
  }
  const refresh = setInterval(() => fs.utimes(file, new Date(), new Date(), () => undefined), REFRESH_MS);
  refresh.unref();
  try {
    return await work();
  } finally {
    clearInterval(refresh);
    release(file, me.token);
  }
}
