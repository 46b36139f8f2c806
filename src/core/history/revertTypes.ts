/**
 * What a revert is planned from and what the plan says to write (`planRevert.ts`, `planSessionRevert`). Plain
 * data: the history supplies the change's contents (`History.revertInput`), the guard the files as they are now,
 * and the guard's mutation path carries out the plan's operations through approval, all or none.
 *
 * Content is a file's bytes (`Uint8Array`, exact for every encoding) or its text (`string`, taken as UTF-8
 * where it meets bytes). Operations come back as bytes if any content given was bytes, else as text.
 */
import type { ChangeKind } from './changeRecord';

export type Content = string | Uint8Array;

/**
 * What `Guard.revert` undoes: one change of the history, every change one session made, or one file to before
 * a session: the session's changes restricted to that file (`path`, absolute or relative to the first root, as
 * `history({ path })` takes it) and, through its moves, to the names it had before (a rename's `from`). Exactly
 * these fields: any other is refused.
 */
export type RevertTarget = { changeId: string } | { sessionId: string } | { sessionId: string; path: string };

/** One file of a change, with its content before and after the change (null: the file did not exist). */
export interface RevertFile {
  path: string;
  kind: ChangeKind;
  /** A rename's old name. */
  from?: string;
  before: Content | null;
  after: Content | null;
  /** A deleted file's permission bits (`ChangedFile.mode`), for the file its revert recreates. */
  mode?: number;
}

export interface RevertChange {
  /** The record's id, named in the plan's conflicts. */
  id?: string;
  files: readonly RevertFile[];
}

/** A file as it is now: its content, or null when there is no file at that path. */
export type CurrentFiles = (path: string) => Content | null;

/**
 * What to write. `current` is what the file holds now, as the plan saw it: the guard must write only while the
 * file still holds exactly that (null: the path must still be free), else plan again. A write that creates a
 * file (`current` null) carries the permission bits of the deleted file it brings back, when they are known.
 */
export type RevertOp =
  | { type: 'write'; path: string; current: Content | null; content: Content; mode?: number }
  | { type: 'delete'; path: string; current: Content }
  /** Moves the file at `from` (holding `current`) to the free path `to`, with `content`. */
  | { type: 'move'; from: string; to: string; current: Content; content: Content };

/**
 * Lines of a file as it is now, 1-based and inclusive. An empty range (`end === start - 1`) is the place
 * before line `start` (after the last line when `start` is one past it).
 */
export interface LineRange {
  start: number;
  end: number;
}

/**
 * Why (part of) a revert cannot be applied as planned:
 * - `lines`: lines the revert must restore were changed since (`lines` in the file now; `wanted` is what the
 *   revert would put there, line by line);
 * - `changedSinceCreated`: a created file was changed since, so it is not deleted (`lines`: what changed);
 * - `pathTaken`: a deleted file's path, or a renamed file's old name, holds another file now;
 * - `missing`: the file the change edited or renamed is gone;
 * - `alreadyReverted`: a change made since already put back what the revert would (the lines, in `lines`, hold
 *   exactly `wanted`; a created file is gone; a deleted file is back with the same bytes). Nothing would be
 *   written there, yet it is not decided silently: had another agent's change undone this one, reverting that
 *   change later would bring this one back.
 */
export interface RevertConflict {
  reason: 'lines' | 'changedSinceCreated' | 'pathTaken' | 'missing' | 'alreadyReverted';
  /** The file now (for lines, the file they are in; for a file the revert would bring back, its path). */
  path: string;
  /** The change whose revert conflicts (its `RevertChange.id`). */
  changeId?: string;
  lines: LineRange[];
  /** For `lines` and `alreadyReverted` in an edit: per range, the content the revert wanted there. */
  wanted?: Content[];
}

export interface RevertPlan {
  /** No conflict: `ops` restore what the change(s) replaced and keep every later change. */
  clean: boolean;
  /**
   * All or none. With conflicts these are the merged parts: every part that does not conflict is reverted and
   * conflicting lines keep their current content; a caller applies them only when the user takes them.
   */
  ops: RevertOp[];
  conflicts: RevertConflict[];
}
