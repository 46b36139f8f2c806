/**
 * One pending review: what the panel shows for an approval request (files, hunks, numbered lines), and the
 * decision that results from what the user accepted. Pure over the core's request; no `vscode` import.
 */
import { type ApprovalDecision, type ApprovalRequest, applyHunks, type Hunk, indexLines, type LineIndex } from '../../core/index';
import type { DiffLine, FileView, HunkView, RequestView } from './protocol';

export interface ReviewFile {
  path: string;
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

export function reviewFile(file: ApprovalRequest['files'][number], displayPath: string): ReviewFile {
  const beforeIndex = indexLines(file.before);
  const afterIndex = indexLines(file.after);
  // The core's own hunks: the change is diffed once, where it is planned.
  const hunks = file.hunks;
  return {
    path: file.path,
    before: file.before,
    after: file.after,
    hunks,
    view: {
      path: file.path,
      displayPath,
      created: file.created,
      hunks: hunks.map((hunk) => hunkView(hunk, file.before, beforeIndex, file.after, afterIndex)),
      totalOldLines: beforeIndex.count,
      totalNewLines: afterIndex.count,
    },
  };
}

export function requestView(id: string, sessionLabel: string, request: Pick<ApprovalRequest, 'operation' | 'explanation'>, files: ReviewFile[], notice?: string, revision = 0, oneCall = false): RequestView {
  return {
    id,
    revision,
    sessionLabel,
    ...(oneCall ? { oneCall } : {}),
    operation: request.operation,
    ...(request.explanation ? { explanation: request.explanation } : {}),
    files: files.map((file) => file.view),
    ...(notice ? { notice } : {}),
  };
}

/**
 * The decision for an approval with some hunks rejected: the exact proposal when none is, otherwise the final
 * content of each file with rejections (the guard reports that final content as what was applied).
 */
export function approvalWith(files: ReviewFile[], rejectedHunks: Readonly<Record<string, readonly number[]>>): ApprovalDecision {
  const changed: { path: string; content: string }[] = [];
  for (const file of files) {
    const rejected = new Set((rejectedHunks[file.path] ?? []).filter((index) => Number.isInteger(index) && index >= 0 && index < file.hunks.length));
    if (rejected.size > 0) changed.push({ path: file.path, content: applyHunks(file.before, file.after, file.hunks, rejected) });
  }
  return changed.length ? { approved: true, files: changed } : { approved: true };
}
