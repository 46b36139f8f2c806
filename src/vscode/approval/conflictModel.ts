/**
 * What the review panel shows of a revert's conflicts (`ConflictView`): for each conflict the approval request
 * names (`ApprovalRequest.conflicts`), its file, where it is in words, what happened and what taking the merged
 * parts does with it, and both sides of its lines: what the file holds there now and what the revert wanted
 * there. Pure: the conflicts and a way to name paths in, views out; no `vscode` import.
 *
 * Lines are cut at the guard's line breaks (LF, CRLF, a lone CR) and shown without them. A side longer than
 * `MAX_LINES` shows its first lines and says so in `where`: a conflict over a whole file taken by another must
 * not flood the panel.
 */
import type { ConflictRangeView, ConflictReason, ConflictView } from './protocol';

/** Most lines shown of one side of one place. */
export const MAX_LINES = 40;

/** A conflict as the approval request names it (the core's `ApprovalConflict`): per range, both sides as text. */
export interface ConflictInput {
  reason: ConflictReason;
  path: string;
  ranges: readonly { start: number; end: number; current: string; wanted?: string }[];
}

/** The text's lines without their breaks; a final break ends the last line (no empty line after it). */
export function splitTextLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\r|\n/);
  if (/(\r\n|\r|\n)$/.test(text)) lines.pop();
  return lines;
}

/**
 * "Lines 12–14", "Line 3"; for a place between lines, "At the start of the file", "At the end of the file" or
 * "Between lines 4 and 5" (just "Before line 5" when the file's length is not known).
 */
export function whereText(start: number, end: number, lineCount: number | undefined): string {
  if (end >= start) return end === start ? `Line ${start}` : `Lines ${start}–${end}`;
  if (start <= 1) return 'At the start of the file';
  if (lineCount === undefined) return `Before line ${start}`;
  if (start > lineCount) return 'At the end of the file';
  return `Between lines ${start - 1} and ${start}`;
}

const SUMMARIES: Record<ConflictReason, string> = {
  lines: 'These lines were changed after the change you revert. Taking the merged parts leaves them as they are now.',
  alreadyReverted: 'A later change already put this back as it was before. Nothing is written here; it is shown so that you decide, not the revert.',
  changedSinceCreated:
    'The change created this file, and it was changed since (the lines below), so the revert does not delete it. Taking the merged parts keeps the file.',
  pathTaken: 'The revert would bring a file back at this path, but another file is there now. Taking the merged parts leaves that file as it is.',
  missing: 'The file this change edited is gone, so this part cannot be reverted. Taking the merged parts reverts the rest.',
};

function capped(lines: string[]): { lines: string[]; cut: boolean } {
  return lines.length > MAX_LINES ? { lines: lines.slice(0, MAX_LINES), cut: true } : { lines, cut: false };
}

function rangeView(range: ConflictInput['ranges'][number], lineCount: number | undefined): ConflictRangeView {
  const now = capped(splitTextLines(range.current));
  const want = range.wanted === undefined ? undefined : capped(splitTextLines(range.wanted));
  const where = whereText(range.start, range.end, lineCount);
  const cut = now.cut || want?.cut ? ` (the first ${MAX_LINES} lines shown)` : '';
  return { start: range.start, end: range.end, where: `${where}${cut}`, now: now.lines, ...(want ? { wanted: want.lines } : {}) };
}

/**
 * `display(path)` is a file's short name; `lineCount(path)` how many lines it has now, when known (the request's
 * own files), to say "At the end of the file".
 */
export function conflictViews(
  conflicts: readonly ConflictInput[],
  display: (path: string) => string,
  lineCount: (path: string) => number | undefined = () => undefined,
): ConflictView[] {
  return conflicts.map((conflict) => {
    const ranges = conflict.ranges.map((range) => rangeView(range, lineCount(conflict.path)));
    return { path: conflict.path, displayPath: display(conflict.path), reason: conflict.reason, summary: SUMMARIES[conflict.reason], ranges };
  });
}
