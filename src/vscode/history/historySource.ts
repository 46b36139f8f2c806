/**
 * What the VS Code side needs of the change history, as one narrow port: the records, a version's bytes, the
 * JSON Lines export, a revert (through the guard's approval like any change) and an event when a change is
 * recorded. The view, the documents of past versions and the commands depend on this port only, so they read
 * the same whether the guard or a test serves it; `guardHistory.ts` implements it over the guard.
 */
import type { ChangeRecord, MutationResult } from '../../core/index';

export interface HistoryFilter {
  sessionId?: string;
  /** A file's path (a changed file's `path`, or a move's old name). */
  path?: string;
}

/** What a revert undoes: one change, or everything a session did. */
export type RevertTarget = { changeId: string } | { sessionId: string };

export interface HistorySource {
  /** Records, newest first. */
  list(filter?: HistoryFilter): Promise<ChangeRecord[]>;
  /** A version's exact bytes; undefined once the budget dropped it (or it was damaged). */
  versionBytes(versionId: string): Promise<Uint8Array | undefined>;
  /** Writes the log as JSON Lines, oldest first; resolves to the number of lines. */
  exportJsonLines(write: (line: string) => void | Promise<void>, options: { contents: boolean }): Promise<number>;
  revert(target: RevertTarget, options: { explanation: string; signal?: AbortSignal }): Promise<MutationResult>;
  /**
   * Undoes what one session did to one file (its changes to it, newest first, through its moves), leaving its
   * other files alone: `Guard.revert({ sessionId, path })`.
   */
  revertFile(sessionId: string, path: string, options: { explanation: string; signal?: AbortSignal }): Promise<MutationResult>;
  /**
   * What each path holds now, as a version id (the SHA-256 of its bytes; an unsaved buffer's, when it has one), or
   * null when no file is there; a path it could not tell is left out. Optional: without it, no revert counts as
   * undone until it is reverted itself.
   */
  versionsNow?(paths: readonly string[]): Promise<Map<string, string | null>>;
  /** Hears every change once it is on record; returns the unsubscribe function. */
  onDidRecord(listener: () => void): () => void;
}
