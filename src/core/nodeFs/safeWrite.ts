/**
 * Writing a file so that, whatever fails or crashes at any step, it holds its old content or its new content and
 * nothing else (the guard's "every byte kept" promise, issue: the write path keeps every byte).
 *
 * Steps: the new content goes to a temp file beside the target (every write's byte count checked, mode and owner
 * set, fsync'ed, closed; any error so far removes the temp file and leaves the target untouched). Then, with no
 * await until the end: the folders on the way are checked to be the real directories the guard checked, the temp
 * file to be ours and still in that folder, and the target to be exactly the file and bytes the guard planned
 * against (or, for a create, still absent). Then one call replaces the target (`rename`) or creates it without
 * ever replacing anything (`link`, which fails if the name was taken). Afterwards the old file is read once more
 * through the descriptor opened for the check: a writer that changed it in between has its content put back.
 *
 * Temp files that crashed writers left in the folder are removed after a successful write (`strayTemps.ts`).
 *
 * A writer holding the old file open that appends to it after that last read is watched for a little longer
 * (`lateAppends.ts`): its appends are carried over to the new file.
 *
 * What remains, because POSIX has no compare-and-rename: a file replaced or deleted by name in the instant between
 * the last check (an lstat of the name) and rename() itself is lost to the rename; a write into the old file that
 * is not an append, or comes later than the watch, is reported but not carried over; and a folder swapped for a
 * link between rename()'s own two lookups sends the new file where the link leads (reported, never silent).
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { errnoOf, isMissing, isWriteConflict, notWritable, writeConflict } from '../fileErrors';
import type { FolderExpectation, WriteExpectation, WriteOptions } from '../ports';
import { identityOfStats, kindOf } from './fileKinds';
import { holdsExactly, openRegularFile, readRegularFile, readToEnd } from './openRegular';
import { type FolderHandle, openFolder } from './folderHandle';
import { APPEND_RACE_TRIES, watchLateAppends } from './lateAppends';
import { sweepStrayTemps } from './strayTemps';
import type { Syscalls } from './syscalls';

const TEMP_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;
/** Errors of `link` that mean "this file system has no hard links", not "something is wrong". */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

let tempCounter = 0;

/** The temp file's name: in the same folder (rename must not cross devices), hidden, unique, short enough for NAME_MAX. */
export function tempNameFor(target: string): string {
  const base = nodePath.basename(target).slice(0, 80);
  return `.${base}.readgate-${process.pid}-${Date.now().toString(36)}-${(tempCounter++).toString(36)}.tmp`;
}

/** How the write path names things in its system calls, and how it names them to people. */
interface Names {
  /** The target's real path, for messages (and what the guard checked). */
  target: string;
  /** The target as named in system calls (through the held folder when there is one). */
  targetAt: string;
  temp: string;
  /** The calls reach the checked folder itself, wherever its path leads now (so nothing can escape it). */
  pinned: boolean;
}

function lstatOrUndefined(sys: Syscalls, path: string): fs.Stats | undefined {
  try {
    return sys.lstatSync(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

function writeFully(sys: Syscalls, fd: number, data: Uint8Array): void {
  let offset = 0;
  while (offset < data.length) {
    const written = sys.writeSync(fd, data, offset, data.length - offset, offset);
    if (!(written > 0)) {
      throw Object.assign(new Error(`the write stopped short: ${offset} of ${data.length} bytes written`), { code: 'ESHORTWRITE', syscall: 'write' });
    }
    offset += written;
  }
}

/** Owner and group of the replaced file, where this process may set them (root may; others keep what they can). */
function keepOwner(sys: Syscalls, fd: number, owner: fs.Stats): void {
  try {
    sys.fchownSync(fd, owner.uid, owner.gid);
  } catch {
    try {
      sys.fchownSync(fd, -1, owner.gid);
    } catch {
      // Not permitted: the file gets this process's owner, as any editor's safe-save would give it.
    }
  }
}

/** Refuses files that must not be replaced, whatever the user approved. */
function checkWritable(sys: Syscalls, { target, targetAt }: Names, stats: fs.Stats): void {
  if (stats.nlink > 1) {
    throw notWritable('hardLinked', `${target} has ${stats.nlink} hard links`);
  }
  if ((stats.mode & 0o222) === 0) {
    throw notWritable('readOnly', `${target} is read-only (mode ${(stats.mode & 0o7777).toString(8).padStart(4, '0')})`);
  }
  try {
    sys.accessSync(targetAt, fs.constants.W_OK);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'EACCES' || code === 'EPERM') throw notWritable('notWritableByUser', `${target} is not writable by this user`);
    throw error;
  }
}

export function verifyFolders(sys: Syscalls, folders: readonly FolderExpectation[]): void {
  for (const folder of folders) {
    const stats = lstatOrUndefined(sys, folder.path);
    if (!stats) throw writeConflict('folder', `the folder ${folder.path} is gone`);
    if (!stats.isDirectory()) throw writeConflict('folder', `the folder ${folder.path} was replaced by a ${kindOf(stats)}`);
    if (identityOfStats(stats, folder.path) !== folder.identity) throw writeConflict('folder', `the folder ${folder.path} was replaced by another folder`);
  }
}

function sameFile(a: fs.Stats, b: fs.Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function removeQuietly(sys: Syscalls, path: string): void {
  try {
    sys.unlinkSync(path);
  } catch {
    // Already gone, or its folder was moved away: nothing of the target was touched.
  }
}

export interface SafeWriteOptions extends WriteOptions {
  /** Where to report what happened to the old file after a replacement (late appends); without it, nothing is watched. */
  warn?: (message: string) => void;
  /** When the old file is looked at again after a replacement (`lateAppends.ts`); empty: never. */
  lateChecksMs?: readonly number[];
}

interface Attempt {
  /** The target now holds the new content (the temp file is no longer ours to remove). */
  committed: boolean;
}

/**
 * Writes `data` to `target` (see the file comment). Rejects with nothing changed unless it says otherwise; returns
 * the stats of the file it placed (the temp file, now at the target's name).
 */
export function writeFileSafely(sys: Syscalls, target: string, data: Uint8Array, options: SafeWriteOptions = {}, restoring = false): fs.Stats {
  const expect = options.expect;
  let folder: FolderHandle | undefined;
  if (expect) {
    verifyFolders(sys, expect.folders);
    const own = expect.folders[expect.folders.length - 1];
    if (own?.path === nodePath.dirname(target)) folder = openFolder(sys, own);
  }
  const tempName = tempNameFor(target);
  const names: Names = folder
    ? { target, targetAt: folder.at(nodePath.basename(target)), temp: folder.at(tempName), pinned: folder.pinned }
    : { target, targetAt: target, temp: nodePath.join(nodePath.dirname(target), tempName), pinned: false };
  try {
    const placed = writeThrough(sys, names, data, options, restoring);
    const dir = nodePath.dirname(target);
    afterCommit(() => sweepStrayTemps(sys, { folder: dir, at: folder ? (name) => folder!.at(name) : (name) => nodePath.join(dir, name) }));
    return placed;
  } finally {
    folder?.close();
  }
}

function writeThrough(sys: Syscalls, names: Names, data: Uint8Array, options: SafeWriteOptions, restoring: boolean): fs.Stats {
  const { target, targetAt, temp } = names;
  const expect = options.expect;
  // Refused before anything is written.
  let old: fs.Stats | undefined;
  if (expect?.current) {
    old = lstatOrUndefined(sys, targetAt);
    if (!old) throw writeConflict('deleted', `${target} was deleted`);
    if (!old.isFile()) throw writeConflict('changed', `${target} was replaced by a ${kindOf(old)}`);
    checkWritable(sys, names, old);
  } else if (expect && lstatOrUndefined(sys, targetAt)) {
    throw writeConflict('created', `${target} was created by someone else`);
  }

  const fd = sys.openSync(temp, TEMP_FLAGS, options.mode ?? 0o666);
  const attempt: Attempt = { committed: false };
  try {
    let tempStats: fs.Stats;
    let ok = false;
    try {
      writeFully(sys, fd, data);
      // open() applies the umask; the old file's mode must survive exactly.
      if (options.mode !== undefined) sys.fchmodSync(fd, options.mode);
      tempStats = sys.fstatSync(fd);
      if (old && (old.uid !== tempStats.uid || old.gid !== tempStats.gid)) keepOwner(sys, fd, old);
      sys.fsyncSync(fd);
      ok = true;
    } finally {
      try {
        sys.closeSync(fd);
      } catch (error) {
        // A failed close can mean the data never reached the disk (network file systems): a failure too.
        if (ok) throw error;
      }
    }
    if (!expect) {
      sys.renameSync(temp, targetAt);
      attempt.committed = true;
      return tempStats;
    }
    // From here to the replacing call: synchronous, nothing in between.
    verifyFolders(sys, expect.folders);
    const here = lstatOrUndefined(sys, temp);
    if (!here || !sameFile(here, tempStats)) throw writeConflict('folder', `the folder of ${target} was moved while the new content was written`);
    if (expect.current) replaceVerified(sys, names, tempStats, data, expect, options, attempt, restoring);
    else createVerified(sys, names, tempStats, expect, attempt);
    return tempStats;
  } catch (error) {
    if (!attempt.committed) removeQuietly(sys, temp);
    throw error;
  }
}

function openCurrent(sys: Syscalls, at: string, target: string) {
  try {
    return openRegularFile(sys, at);
  } catch (error) {
    if (isMissing(error)) throw writeConflict('deleted', `${target} was deleted`);
    if (errnoOf(error) === 'ELOOP') throw writeConflict('changed', `${target} was replaced by a symbolic link`);
    if ((error as { code?: string }).code === 'READGATE_NOT_REGULAR') {
      throw writeConflict('changed', `${target} was replaced by a ${(error as { kind: string }).kind}`);
    }
    throw error;
  }
}

/** A rename whose source vanished: the folder moved under us (or the temp file was taken). */
function renameOrConflict(sys: Syscalls, run: () => void, folders: readonly FolderExpectation[]): void {
  try {
    run();
  } catch (error) {
    if (isMissing(error)) verifyFolders(sys, folders);
    throw error;
  }
}

/**
 * Before the rename: the file behind `fd` is still the one planned against (its identity and exact bytes), this
 * user may replace it, and its name still leads to it (replaced or deleted by name since it was opened, it does not).
 */
function checkStillExpected(sys: Syscalls, names: Names, fd: number, stats: fs.Stats, current: NonNullable<WriteExpectation['current']>): void {
  const { target, targetAt } = names;
  if (current.identity !== undefined && identityOfStats(stats, target) !== current.identity) {
    throw writeConflict('changed', `${target} was replaced by another file`);
  }
  checkWritable(sys, names, stats);
  if (!holdsExactly(sys, fd, current.bytes)) throw writeConflict('changed', `${target} changed`);
  const named = lstatOrUndefined(sys, targetAt);
  if (!named) throw writeConflict('deleted', `${target} was deleted`);
  if (!sameFile(named, stats)) throw writeConflict('changed', `${target} was replaced by another file`);
}

/** Watched from what stays in place: later appends to the old file are carried over to the new one. */
function watchOldFile(sys: Syscalls, fd: number, target: string, before: Buffer, options: SafeWriteOptions, folders: WriteExpectation['folders']): void {
  const { warn, lateChecksMs } = options;
  const again: SafeWriteOptions = { warn, ...(lateChecksMs ? { lateChecksMs } : {}) };
  watchLateAppends({
    sys,
    fd,
    target,
    before,
    warn: warn!,
    ...(lateChecksMs ? { checks: lateChecksMs } : {}),
    replace: (next, expected, mode) => writeFileSafely(sys, target, next, { ...again, mode, expect: { current: { bytes: expected }, folders } }),
  });
}

function replaceVerified(
  sys: Syscalls,
  names: Names,
  tempStats: fs.Stats,
  data: Uint8Array,
  expect: WriteExpectation,
  options: SafeWriteOptions,
  attempt: Attempt,
  restoring: boolean,
): void {
  const { target, targetAt, temp } = names;
  const current = expect.current!;
  const { fd, stats } = openCurrent(sys, targetAt, target);
  let watched = false;
  try {
    checkStillExpected(sys, names, fd, stats, current);
    const before = Buffer.from(current.bytes.buffer, current.bytes.byteOffset, current.bytes.byteLength);
    renameOrConflict(sys, () => sys.renameSync(temp, targetAt), expect.folders);
    attempt.committed = true;
    // A writer that wrote to the old file between the check and the rename wrote to a file that has no name now.
    const theirs = afterCommit(() => (holdsExactly(sys, fd, before) ? before : readToEnd(sys, fd, Math.max(stats.size, sys.fstatSync(fd).size))));
    const raced = theirs !== undefined && theirs !== before && !theirs.equals(before);
    // A put-back does not put back again: what raced it is carried over by the watch, from what it verified.
    const puttingBack = raced && !restoring;
    const watching = options.warn !== undefined && options.lateChecksMs?.length !== 0;
    if (watching) {
      watchOldFile(sys, fd, target, puttingBack ? theirs : before, options, expect.folders);
      watched = true;
    }
    if (puttingBack) putBack(sys, target, theirs, data, stats, expect.folders, options);
    else if (raced && !watching) throw writeConflict('changedDuringWrite', `${target} was changed again while ReadGate put another writer's content back`);
  } finally {
    if (!watched) {
      try {
        sys.closeSync(fd);
      } catch {
        // Read-only descriptor: nothing to lose.
      }
    }
  }
  if (!names.pinned && escaped(sys, target, expect.folders, tempStats)) {
    // rename looks up both names separately: a folder swapped for a link between the two lookups is the one window left.
    throw writeConflict(
      'escaped',
      `a folder on the way to ${target} was swapped for a link at the instant the file was replaced, and the new content went where that link leads`,
    );
  }
}

/** Checks after the file is written are best effort: their own failure must not report a written file as unwritten. */
function afterCommit<T>(check: () => T): T | undefined {
  try {
    return check();
  } catch {
    return undefined;
  }
}

/**
 * Whether the file just placed went somewhere else than the checked folder: a folder on the way is no longer
 * the one checked and the path now leads to the new file. (A folder merely renamed away, with the new file in
 * it, is where the guard checked: not an escape.)
 */
function escaped(sys: Syscalls, target: string, folders: readonly FolderExpectation[], tempStats: fs.Stats): boolean {
  return (
    afterCommit(() => {
      try {
        verifyFolders(sys, folders);
        return false;
      } catch (error) {
        // An I/O error says nothing about the folders: only a folder found changed counts.
        if (!isWriteConflict(error)) return false;
        const at = lstatOrUndefined(sys, target);
        return at !== undefined && sameFile(at, tempStats);
      }
    }) ?? false
  );
}

/**
 * Gives the other writer's content back its name, unless our content was changed too meanwhile. Appends to our
 * content (a log written every millisecond) are carried over to theirs, as that writer meant them to be.
 */
function putBack(
  sys: Syscalls,
  target: string,
  theirs: Buffer,
  ours: Uint8Array,
  old: fs.Stats,
  folders: readonly FolderExpectation[],
  options: SafeWriteOptions,
): never {
  let content = theirs;
  let expected: Uint8Array = ours;
  for (let attempt = 1; ; attempt++) {
    let failure: unknown;
    try {
      writeFileSafely(
        sys,
        target,
        content,
        { warn: options.warn, lateChecksMs: options.lateChecksMs, mode: old.mode & 0o7777, expect: { current: { bytes: expected }, folders } },
        true,
      );
    } catch (error) {
      failure = error;
    }
    if (failure === undefined) {
      throw writeConflict('changedDuringWrite', `another writer changed ${target} at the instant ReadGate replaced it; their content was put back`);
    }
    if (isWriteConflict(failure) && failure.reason === 'changedDuringWrite') {
      // The put-back itself was placed, and raced once more: theirs is in place, a further write may not be.
      throw writeConflict(
        'changedDuringWrite',
        `another writer changed ${target} at the instant ReadGate replaced it and again while their content was put back; theirs was put back, but that last write may be lost`,
      );
    }
    const now =
      attempt < APPEND_RACE_TRIES && isWriteConflict(failure) && failure.reason === 'changed' ? afterCommit(() => readRegularFile(sys, target)) : undefined;
    if (!now || now.length <= expected.length || !now.subarray(0, expected.length).equals(expected)) {
      throw writeConflict(
        'putBackFailed',
        `another writer changed ${target} at the instant ReadGate replaced it, and the file changed again before their content could be put back (${(failure as Error).message})`,
      );
    }
    content = Buffer.concat([content, now.subarray(expected.length)]);
    expected = now;
  }
}

function createVerified(sys: Syscalls, names: Names, tempStats: fs.Stats, expect: WriteExpectation, attempt: Attempt): void {
  const { target, targetAt, temp } = names;
  try {
    // link never replaces an existing name: a file created by someone else in the meantime is kept.
    renameOrConflict(sys, () => sys.linkSync(temp, targetAt), expect.folders);
    attempt.committed = true;
    removeQuietly(sys, temp);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'EEXIST') throw writeConflict('created', `${target} was created by someone else`);
    if (!code || !NO_HARD_LINKS.has(code)) throw error;
    // No hard links here: the name was free an instant ago, and rename is the closest this file system allows.
    if (lstatOrUndefined(sys, targetAt)) throw writeConflict('created', `${target} was created by someone else`);
    renameOrConflict(sys, () => sys.renameSync(temp, targetAt), expect.folders);
    attempt.committed = true;
  }
  // The created path must be where the guard checked it; if it went through a folder swapped at that instant, undo.
  if (!names.pinned && escaped(sys, target, expect.folders, tempStats)) {
    removeQuietly(sys, target);
    throw writeConflict('folder', `a folder on the way to ${target} was swapped for a link at the instant the file was created; the file was removed again`);
  }
}

/**
 * Removes a file. With `expect`, only while it still holds exactly the expected bytes (and is the expected file,
 * when an identity is given) and its name still leads to it, with the folders on the way as checked: a deletion
 * the user approved, or an undo, never removes someone else's file. A file this process may not write, or with
 * several hard links, is refused like a replacement (removing one name of several would split the file).
 */
export function removeFileSafely(sys: Syscalls, target: string, expect?: WriteExpectation): void {
  if (!expect?.current) {
    sys.unlinkSync(target);
    return;
  }
  verifyFolders(sys, expect.folders);
  const own = expect.folders[expect.folders.length - 1];
  // Named through the held folder, as writes are: a folder swapped for a link cannot redirect the removal.
  const folder = own?.path === nodePath.dirname(target) ? openFolder(sys, own) : undefined;
  const targetAt = folder ? folder.at(nodePath.basename(target)) : target;
  try {
    const { fd, stats } = openCurrent(sys, targetAt, target);
    try {
      if (expect.current.identity !== undefined && identityOfStats(stats, target) !== expect.current.identity) {
        throw writeConflict('changed', `${target} was replaced by another file`);
      }
      if (expect.current.identity !== undefined) checkWritable(sys, { target, targetAt, temp: '', pinned: folder?.pinned ?? false }, stats);
      if (!holdsExactly(sys, fd, expect.current.bytes)) throw writeConflict('changed', `${target} changed`);
      const named = lstatOrUndefined(sys, targetAt);
      if (!named) throw writeConflict('deleted', `${target} was deleted`);
      if (!sameFile(named, stats)) throw writeConflict('changed', `${target} was replaced by another file`);
      sys.unlinkSync(targetAt);
      // A writer that wrote to the file between the check and the removal: its content is put back and the
      // removal reported as refused (theirs kept), as a replacement does.
      const theirs = afterCommit(() =>
        holdsExactly(sys, fd, expect.current!.bytes) ? undefined : readToEnd(sys, fd, Math.max(stats.size, sys.fstatSync(fd).size)),
      );
      if (theirs !== undefined) {
        writeFileSafely(sys, target, theirs, { mode: stats.mode & 0o7777, expect: { folders: expect.folders } }, true);
        throw writeConflict('changedDuringWrite', `${target} was changed by another writer at the instant it was removed; their content was put back`);
      }
    } finally {
      // Closing a descriptor only read from cannot lose data; once the name is gone its failure must not report
      // the removal as failed (the caller would then leave the file removed while undoing the rest).
      try {
        sys.closeSync(fd);
      } catch {
        // nothing to do
      }
    }
  } finally {
    folder?.close();
  }
}

/**
 * Checks, without changing anything, that a write or removal with `expect` would find what it expects now: the
 * folders as checked, and the file holding exactly the expected bytes (or, for a create, the name still free).
 * Throws the `WriteConflict` the write itself would. A pass over several files checks every one first.
 */
export function checkExpectation(sys: Syscalls, target: string, expect: WriteExpectation): void {
  verifyFolders(sys, expect.folders);
  if (!expect.current) {
    if (lstatOrUndefined(sys, target)) throw writeConflict('created', `${target} was created by someone else`);
    return;
  }
  const { fd, stats } = openCurrent(sys, target, target);
  try {
    if (expect.current.identity !== undefined && identityOfStats(stats, target) !== expect.current.identity) {
      throw writeConflict('changed', `${target} was replaced by another file`);
    }
    if (!holdsExactly(sys, fd, expect.current.bytes)) throw writeConflict('changed', `${target} changed`);
  } finally {
    try {
      sys.closeSync(fd);
    } catch {
      // Read-only descriptor: nothing to lose.
    }
  }
}

/** Makes `dir` and its missing parents; with `expect`, each level only while every folder above it is as expected. */
export function makeFoldersSafely(sys: Syscalls, dir: string, expect?: { folders: readonly FolderExpectation[] }): void {
  const missing: string[] = [];
  let at = dir;
  for (; !lstatOrUndefined(sys, at); at = nodePath.dirname(at)) {
    missing.unshift(at);
    if (nodePath.dirname(at) === at) break;
  }
  const chain = [...(expect?.folders ?? [])];
  for (const level of missing) {
    if (expect) verifyFolders(sys, chain);
    try {
      sys.mkdirSync(level);
    } catch (error) {
      // The folder above vanished or turned into a file meanwhile: a folder swap, not a disk problem.
      if (isMissing(error)) throw writeConflict('folder', `the folder ${nodePath.dirname(level)} is gone`);
      if (errnoOf(error) !== 'EEXIST') throw error;
    }
    const stats = lstatOrUndefined(sys, level);
    if (!stats) throw writeConflict('folder', `${level} vanished while it was made`);
    if (!stats.isDirectory()) throw writeConflict('folder', `${level} was replaced by a ${kindOf(stats)} while it was made`);
    chain.push({ path: level, identity: identityOfStats(stats, level) });
  }
  if (expect) verifyFolders(sys, chain);
}
