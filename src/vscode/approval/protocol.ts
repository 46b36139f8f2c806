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
}

/**
 * Extension → webview. `focusRequest` shows that request; with `moveFocus` it also puts keyboard focus on its
 * title, for a change the user started themselves (never for an agent's: the panel does not steal focus).
 */
export type ToWebview =
  | { type: 'requests'; requests: RequestView[] }
  | { type: 'focusRequest'; id: string; moveFocus?: boolean };

/** Webview → extension. `rejectedHunks` maps a file path to the indexes of hunks the user rejected. */
export type FromWebview =
  | { type: 'ready' }
  /** `allowFurtherEdits`: later changes to these files by the same session skip review (never protected files). */
  | { type: 'approve'; id: string; rejectedHunks: Record<string, number[]>; allowFurtherEdits?: boolean; revision: number }
  | { type: 'reject'; id: string; reason?: string }
  | { type: 'openDiff'; id: string; path: string };
