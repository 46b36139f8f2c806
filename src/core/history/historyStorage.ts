/**
 * The storage port of the change history: two flat areas of named files, `versions` (compressed contents,
 * named after their hash) and `records` (one JSON file per change record). The history decides every name
 * and every byte; a storage only keeps them. `nodeFs/historyStorage.ts` is the Node implementation (a
 * folder, files mode 0600 in folders mode 0700, atomic writes, a lock file); tests wrap it to inject faults.
 *
 * Every method may reject (a full disk, a permission, any I/O error): the history catches it, drops what it
 * was recording and logs a warning. A rejected `read` is trouble, not damage: the history skips that file for
 * the call and keeps it. Within one `History` calls come one at a time; several processes may use one storage
 * at once (a folder several guards record into): `exclusive` then orders the calls that change it.
 *
 * The optional methods have fallbacks, so a storage written for an earlier version keeps working: `writeAll`
 * one `write` after another, `names` the names of `list`, `stat` a `read`, and without `setAside` a damaged
 * file is left where it is (skipped, never deleted). Without `exclusive` the storage must be one process's.
 */

export type HistoryArea = 'versions' | 'records';

export interface StoredFile {
  name: string;
  /** Bytes it takes (counted against the history's budget). */
  size: number;
  /** When it was last written (ms since the epoch), where the storage knows: a version no record names is
   * removed only once it is older than the grace period. */
  mtimeMs?: number;
}

export interface StoredWrite {
  area: HistoryArea;
  name: string;
  data: Uint8Array;
}

export interface HistoryStorage {
  /** Every complete file of the area (never a half-written one). A missing area is empty. */
  list(area: HistoryArea): Promise<StoredFile[]>;
  /** The file's bytes, or undefined when there is no such file. */
  read(area: HistoryArea, name: string): Promise<Uint8Array | undefined>;
  /**
   * Stores the file whole or not at all: on a rejection no part of it may be left under `name` (a file already
   * there with that name stays as it was).
   */
  write(area: HistoryArea, name: string, data: Uint8Array): Promise<void>;
  /** Removes the file; a missing file is not an error. */
  remove(area: HistoryArea, name: string): Promise<void>;
  /**
   * Stores several files, each whole or not at all, and all of them durably before it resolves (one sync round
   * for the lot). On a rejection, files this call already placed may remain: the caller removes them.
   */
  writeAll?(files: readonly StoredWrite[]): Promise<void>;
  /** The names `list` would give, without their sizes (cheaper: no stat per file). */
  names?(area: HistoryArea): Promise<string[]>;
  /** The file's size and time, or undefined when there is no such file. */
  stat?(area: HistoryArea, name: string): Promise<StoredFile | undefined>;
  /** Moves a damaged file out of its area, keeping its bytes (a `damaged/` folder); never deletes it. */
  setAside?(area: HistoryArea, name: string): Promise<void>;
  /** Runs `work` while no other process (or `History`) runs one on this storage: the storage's lock. */
  exclusive?<T>(work: () => Promise<T>): Promise<T>;
}

/** Names the history uses: letters, digits, `-`, `_` and one `.` before an extension; never a path. */
export const STORED_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)?$/;
