/**
 * One pending review: what the panel shows for an approval request (files, hunks, numbered lines), and the
 * decision that results from what the user accepted. Pure over the core's request; no `vscode` import.
 *
 * Deleting and moving a file are approved or rejected whole, with the request: a deleted file's hunk (its whole
 * old content) is never partly accepted and no content is ever sent for it; a moved file's hunks are its content
 * changes only, and rejecting some of them sends the content it gets at its new place (keyed by its old path,
 * which is how the guard names it).
 */
import { type ApprovalDecision, type ApprovalRequest, applyHunks, type Hunk, indexLines, type LineIndex } from '../../core/index';
import type { ConflictView, DiffLine, FileView, HunkView, RequestView } from './protocol';

export interface ReviewFile {
  path: string;
  deleted: boolean;
  movedTo?: string;
  before: string;
  after: string;
  hunks: Hunk[];
  view: FileView;
}

function lineText(text: string, index: LineIndex, line: number): string {
  return text.slice(index.start(line), index.end(line));
}

function hunkView(hunk: Hunk, before: string, beforeIndex: LineIndex, after: string, afterIndex: LineIndex): HunkView {
  const lines: DiffLine[] = [];
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  const oldEnd = hunk.oldStart + hunk.oldLines - 1;
  for (const change of hunk.changes) {
    for (; oldLine < change.oldFrom; oldLine++, newLine++) lines.push({ kind: 'context', text: lineText(before, beforeIndex, oldLine), oldLine, newLine });
    for (let n = change.oldFrom; n < change.oldTo; n++) lines.push({ kind: 'removed', text: lineText(before, beforeIndex, n), oldLine: n });
    for (let n = change.newFrom; n < change.newTo; n++) lines.push({ kind: 'added', text: lineText(after, afterIndex, n), newLine: n });
    oldLine = change.oldTo;
    newLine = change.newTo;
  }
  for (; oldLine <= oldEnd; oldLine++, newLine++) lines.push({ kind: 'context', text: lineText(before, beforeIndex, oldLine), oldLine, newLine });
  return { index: hunk.index, oldStart: hunk.oldStart, oldLines: hunk.oldLines, newStart: hunk.newStart, newLines: hunk.newLines, lines };
}

/** `display` gives the short name of a path (the file's, and for a move its destination's). */
export function reviewFile(file: ApprovalRequest['files'][number], display: (path: string) => string): ReviewFile {
  const beforeIndex = indexLines(file.before);
  const afterIndex = indexLines(file.after);
  // The core's own hunks: the change is diffed once, where it is planned.
  const hunks = file.hunks;
  const deleted = file.deleted === true;
  const movedTo = !deleted && typeof file.movedTo === 'string' ? file.movedTo : undefined;
  return {
    path: file.path,
    deleted,
    ...(movedTo !== undefined ? { movedTo } : {}),
    before: file.before,
    after: file.after,
    hunks,
    view: {
      path: file.path,
      displayPath: display(file.path),
      created: file.created,
      ...(deleted ? { deleted } : {}),
      ...(movedTo !== undefined ? { movedTo, movedToDisplay: display(movedTo) } : {}),
      hunks: hunks.map((hunk) => hunkView(hunk, file.before, beforeIndex, file.after, afterIndex)),
      totalOldLines: beforeIndex.count,
      totalNewLines: afterIndex.count,
    },
  };
}

export interface RequestFlags {
  /** Shown above the diff (e.g. the file changed on disk during review). */
  notice?: string;
  revision?: number;
  /** The session lives for this call only. */
  oneCall?: boolean;
  /** The user's own change (`isUsersOwnSession`). */
  own?: boolean;
  /** A revert (the guard's `revert`): "Your revert" when the user started it, else whose it is. */
  revert?: boolean;
  /** A revert's conflicts, as the panel shows them (`conflictModel.ts`). */
  conflicts?: ConflictView[];
}

export function requestView(
  id: string,
  sessionLabel: string,
  request: Pick<ApprovalRequest, 'operation' | 'explanation'>,
  files: ReviewFile[],
  flags: RequestFlags = {},
): RequestView {
  const { notice, revision = 0, oneCall = false, own = false, conflicts = [] } = flags;
  const { operation } = request;
  const revert = operation === 'revert' || flags.revert === true;
  return {
    id,
    revision,
    sessionLabel,
    ...(oneCall ? { oneCall } : {}),
    // A revert is the user's own only when the user started it (an extension can ask for one through the API).
    ...(own ? { own: true } : {}),
    // A revert shows as the multi-file change it is.
    operation: operation === 'revert' ? 'multiEdit' : operation,
    ...(revert ? { revert } : {}),
    ...(conflicts.length ? { conflicts } : {}),
    ...(request.explanation ? { explanation: request.explanation } : {}),
    files: files.map((file) => file.view),
    ...(notice ? { notice } : {}),
  };
}

/**
 * The decision for an approval with some hunks rejected: the exact proposal when none is, otherwise the final
 * content of each file with rejections (the guard reports that final content as what was applied). A deleted
 * file is deleted whole: rejections named for it are ignored and no content is ever sent for it.
 */
export function approvalWith(files: ReviewFile[], rejectedHunks: Readonly<Record<string, readonly number[]>>): Extract<ApprovalDecision, { approved: true }> {
  const changed: { path: string; content: string }[] = [];
  for (const file of files) {
    if (file.deleted) continue;
    const rejected = new Set((rejectedHunks[file.path] ?? []).filter((index) => Number.isInteger(index) && index >= 0 && index < file.hunks.length));
    if (rejected.size > 0) changed.push({ path: file.path, content: applyHunks(file.before, file.after, file.hunks, rejected) });
  }
  return changed.length ? { approved: true, files: changed } : { approved: true };
}
