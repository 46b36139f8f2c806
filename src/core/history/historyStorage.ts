/**
 * The storage port of the change history: two flat areas of named files, `versions` (compressed contents,
 * named after their hash) and `records` (one JSON file per change record). The history decides every name
 * and every byte; a storage only keeps them. `nodeFs/historyStorage.ts` is the Node implementation (a
 * folder, files mode 0600 in folders mode 0700, atomic writes); tests wrap it to inject faults at any call.
 *
 * Every method may reject (a full disk, a permission, any I/O error): the history catches it, drops what it
 * was recording and logs a warning. A storage never needs to be safe for concurrent calls on one name: the
 * history makes one call at a time.
 */

export type HistoryArea = 'versions' | 'records';

export interface StoredFile {
  name: string;
  /** Bytes it takes (counted against the history's budget). */
  size: number;
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
}

/** Names the history uses: letters, digits, `-`, `_` and one `.` before an extension; never a path. */
export const STORED_NAME = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9]+)?$/;
