/**
 * Messages between the approval panel (webview, `media/approval/`) and the extension. Types only, no `vscode`
 * import: the webview bundle imports these types too. The extension validates every message it receives and
 * ignores anything not for a request it holds.
 */

export interface DiffLine {
  kind: 'context' | 'removed' | 'added';
  text: string;
  /** 1-based line number in the old text (context and removed lines). */
  oldLine?: number;
  /** 1-based line number in the new text (context and added lines). */
  newLine?: number;
}

export interface HunkView {
  /** Index of the hunk within its file (what accept/reject refers to). */
  index: number;
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

export interface FileView {
  /** The path as the agent named it. */
  path: string;
  /** Short, workspace-relative name for display. */
  displayPath: string;
  created: boolean;
  /** The change removes the file: its one hunk holds the whole old content as removed lines, with no toggle. */
  deleted?: boolean;
  /**
   * The change moves the file to this absolute path; its hunks are only the content changes made with the move
   * (none: moved, content unchanged). The move itself is approved or rejected with the whole request.
   */
  movedTo?: string;
  /** Short, workspace-relative name of `movedTo` for display (set with it). */
  movedToDisplay?: string;
  hunks: HunkView[];
  /** Line counts of the whole old and new text (the view collapses unchanged regions between hunks). */
  totalOldLines: number;
  totalNewLines: number;
}

/**
 * Lines of a file as it is now (1-based, inclusive) where a revert conflicts, with both sides: what is there now
 * (and stays, if the user takes the merged parts) and what the revert wanted there. `end === start - 1` is the
 * place before line `start`: the revert wanted to insert lines there, and `now` is empty.
 */
export interface ConflictRangeView {
  start: number;
  end: number;
  /** The place in words: "Lines 12–14", "Line 3", "Before line 12", "At the end of the file". */
  where: string;
  /** The file's lines there now, without their line breaks. */
  now: string[];
  /** The lines the revert would have put there; absent when the conflict is about the whole file. */
  wanted?: string[];
}

/**
 * Why part of a revert cannot be applied as planned (the core's `RevertConflict.reason`): lines changed since
 * the change, a created file changed since, a path taken by another file, a file gone, or a part already put back.
 */
export type ConflictReason = 'lines' | 'changedSinceCreated' | 'pathTaken' | 'missing' | 'alreadyReverted';

/** One conflict of a revert under review, as the panel shows it. */
export interface ConflictView {
  /** The file it is in (absolute), and its short name. */
  path: string;
  displayPath: string;
  reason: ConflictReason;
  /** What happened, and what taking the merged parts does with it, in one or two sentences. */
  summary: string;
  ranges: ConflictRangeView[];
}

export interface RequestView {
  id: string;
  sessionLabel: string;
  operation: 'edit' | 'write' | 'multiEdit' | 'delete' | 'rename';
  explanation?: string;
  files: FileView[];
  /** Shown above the diff when something happened during review (e.g. the file changed on disk). */
  notice?: string;
  /** Increases whenever the diff is recomputed; an approval names the revision the user saw. */
  revision: number;
  /** The session lives for this call only (a tool call without a chat session): no "don't ask again" to offer. */
  oneCall?: boolean;
  /**
   * The user's own change (a palette action such as Apply Patch), not an agent's: worded as "Your patch", its
   * explanation shown as the patch's source, and rejecting it a plain cancel with no reason to give.
   */
  own?: boolean;
  /**
   * The change is a revert from the change history: worded "Your revert" when the user started it (`own`), else
   * "Revert from <label>" (an extension asked through the API); its explanation shown as what it reverts.
   */
  revert?: boolean;
  /**
   * Parts of the revert that conflict with later changes. The change shown is then the merged parts: every part
   * that does not conflict, reverted; the conflicting lines stay as they are now. Approving it is "Take the
   * Merged Parts" (`takeMerged` in the approval); the extension applies nothing of it without that.
   */
  conflicts?: ConflictView[];
}

/**
 * Extension → webview. `focusRequest` shows that request; with `moveFocus` it also puts keyboard focus on its
 * title, for a change the user started themselves (never for an agent's: the panel does not steal focus).
 */
export type ToWebview = { type: 'requests'; requests: RequestView[] } | { type: 'focusRequest'; id: string; moveFocus?: boolean };

/** Webview → extension. `rejectedHunks` maps a file path to the indexes of hunks the user rejected. */
export type FromWebview =
  | { type: 'ready' }
  /** `allowFurtherEdits`: later changes to these files by the same session skip review (never protected files). */
  /** `takeMerged`: the user took the merged parts of a revert with conflicts (required to approve one). */
  | { type: 'approve'; id: string; rejectedHunks: Record<string, number[]>; allowFurtherEdits?: boolean; revision: number; takeMerged?: boolean }
  | { type: 'reject'; id: string; reason?: string }
  | { type: 'openDiff'; id: string; path: string };
