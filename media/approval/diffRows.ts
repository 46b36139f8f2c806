/**
 * Turns the hunks of one file (protocol `HunkView`s) into display rows: inline rows (one per diff line) and
 * side-by-side rows (old and new text on one row, removed lines paired with the added lines that replace them),
 * plus the number of unchanged lines the view collapses before each hunk and after the last one. Pure data in,
 * data out: no DOM, so the renderer stays a straight loop and the rules here can be read in one place.
 *
 * Line numbers come from the protocol's `oldLine`/`newLine`; when a line lacks one, it is counted from the
 * hunk's start, so a sparse message still shows aligned numbers. Paired lines carry the span where they differ
 * (common prefix and suffix removed) for the word-level highlight.
 */
import type { DiffLine, FileView, HunkView } from '../../src/vscode/approval/protocol';

export type Layout = 'inline' | 'sideBySide';

/** Where a paired line differs from its partner: `[start, end)` in UTF-16 units of its own text. */
export type Span = readonly [number, number];

export interface InlineRow {
  kind: DiffLine['kind'];
  oldLine?: number;
  newLine?: number;
  text: string;
  change?: Span;
}

export interface SideCell {
  kind: DiffLine['kind'];
  line?: number;
  text: string;
  change?: Span;
}

/** One side-by-side row; a missing side is filler (a removed line with no added partner, or the reverse). */
export interface SideBySideRow {
  old?: SideCell;
  new?: SideCell;
}

interface NumberedLine {
  kind: DiffLine['kind'];
  oldLine?: number;
  newLine?: number;
  text: string;
}

function numbered(hunk: HunkView): NumberedLine[] {
  let oldNext = hunk.oldStart;
  let newNext = hunk.newStart;
  return hunk.lines.map((line) => {
    const out: NumberedLine = { kind: line.kind, text: line.text };
    if (line.kind !== 'added') {
      out.oldLine = line.oldLine ?? oldNext;
      oldNext = out.oldLine + 1;
    }
    if (line.kind !== 'removed') {
      out.newLine = line.newLine ?? newNext;
      newNext = out.newLine + 1;
    }
    return out;
  });
}

/** The differing middle of two similar lines; undefined when they share nothing (the whole line is changed). */
export function changedSpans(oldText: string, newText: string): { old: Span; new: Span } | undefined {
  const max = Math.min(oldText.length, newText.length);
  let prefix = 0;
  while (prefix < max && oldText.charCodeAt(prefix) === newText.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < max - prefix && oldText.charCodeAt(oldText.length - 1 - suffix) === newText.charCodeAt(newText.length - 1 - suffix)) suffix++;
  if (prefix === 0 && suffix === 0) return undefined;
  return { old: [prefix, oldText.length - suffix], new: [prefix, newText.length - suffix] };
}

/**
 * Walks a hunk as blocks: a context line, or a run of changed lines split into its removed and added lines
 * (a run may interleave them; each side keeps its order). The i-th removed line pairs with the i-th added one.
 */
function walkBlocks(lines: NumberedLine[], onContext: (line: NumberedLine) => void, onRun: (removed: NumberedLine[], added: NumberedLine[]) => void): void {
  for (let i = 0; i < lines.length; ) {
    if (lines[i].kind === 'context') {
      onContext(lines[i++]);
      continue;
    }
    const removed: NumberedLine[] = [];
    const added: NumberedLine[] = [];
    for (; i < lines.length && lines[i].kind !== 'context'; i++) (lines[i].kind === 'removed' ? removed : added).push(lines[i]);
    onRun(removed, added);
  }
}

function spansOf(removed: NumberedLine[], added: NumberedLine[], i: number): { old: Span; new: Span } | undefined {
  return i < removed.length && i < added.length ? changedSpans(removed[i].text, added[i].text) : undefined;
}

export function inlineRows(hunk: HunkView): InlineRow[] {
  const rows: InlineRow[] = [];
  walkBlocks(
    numbered(hunk),
    (line) => rows.push({ kind: 'context', oldLine: line.oldLine, newLine: line.newLine, text: line.text }),
    (removed, added) => {
      const spans = removed.map((_, i) => spansOf(removed, added, i));
      removed.forEach((line, i) => rows.push({ kind: 'removed', oldLine: line.oldLine, text: line.text, change: spans[i]?.old }));
      added.forEach((line, i) => rows.push({ kind: 'added', newLine: line.newLine, text: line.text, change: spans[i]?.new }));
    },
  );
  return rows;
}

export function sideBySideRows(hunk: HunkView): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  walkBlocks(
    numbered(hunk),
    (line) => rows.push({ old: { kind: 'context', line: line.oldLine, text: line.text }, new: { kind: 'context', line: line.newLine, text: line.text } }),
    (removed, added) => {
      for (let i = 0; i < Math.max(removed.length, added.length); i++) {
        const spans = spansOf(removed, added, i);
        const row: SideBySideRow = {};
        if (i < removed.length) row.old = { kind: 'removed', line: removed[i].oldLine, text: removed[i].text, change: spans?.old };
        if (i < added.length) row.new = { kind: 'added', line: added[i].newLine, text: added[i].text, change: spans?.new };
        rows.push(row);
      }
    },
  );
  return rows;
}

export interface UnchangedRegions {
  /** `before[i]`: unchanged lines between hunk i-1 (or the start of the file) and hunk i. */
  before: number[];
  /** Unchanged lines after the last hunk. */
  after: number;
}

function firstLine(hunk: HunkView, side: 'oldLine' | 'newLine', start: number): number {
  for (const line of hunk.lines) {
    const n = line[side];
    if (n !== undefined) return n;
  }
  return start;
}

/**
 * Unchanged lines between hunks, counted on the old side (the new side when a hunk has no old lines, as in a
 * created file). A hunk with a count of 0 gives its start as a position, which is all the count needs.
 */
export function unchangedRegions(file: FileView): UnchangedRegions {
  const before: number[] = [];
  let oldCursor = 0;
  let newCursor = 0;
  for (const hunk of file.hunks) {
    const gap = hunk.oldLines > 0 || file.totalOldLines > 0 ? firstLine(hunk, 'oldLine', hunk.oldStart) - 1 - oldCursor : firstLine(hunk, 'newLine', hunk.newStart) - 1 - newCursor;
    const unchanged = Math.max(0, gap);
    before.push(unchanged);
    oldCursor += unchanged + hunk.oldLines;
    newCursor += unchanged + hunk.newLines;
  }
  const after = file.hunks.length === 0 ? 0 : Math.max(0, file.totalOldLines - oldCursor);
  return { before, after };
}

export function lineStats(file: FileView): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const hunk of file.hunks) {
    for (const line of hunk.lines) {
      if (line.kind === 'added') added++;
      else if (line.kind === 'removed') removed++;
    }
  }
  return { added, removed };
}

/** Digits of the largest line number shown, for the gutter width. */
export function gutterDigits(file: FileView): number {
  return String(Math.max(file.totalOldLines, file.totalNewLines, 1)).length;
}
