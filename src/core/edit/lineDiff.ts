/**
 * Line-level differences between two texts, and their unified-diff rendering.
 *
 * `computeLineChanges` strips the common leading and trailing lines first (cheap, and most real changes are
 * small), then diffs the middle with the `diff` package under a bounded edit length; past the bound it falls
 * back to one change covering the whole middle, which is coarse but never wrong (measured: an unbounded diff of
 * a 20k-line rewrite takes over a minute). Lines are compared with their terminators, so an EOL-only change
 * is a change.
 */
import { diffArrays } from 'diff';
import { type LineChange, type Ranges, EMPTY, add } from '../text/lineRanges';
import { displayPath } from '../path/displayPath';
import { formatCount } from '../text/formatCount';
import { utf8Size } from '../text/resultBudget';
import { hunksOf } from './hunks';
import { indexLines, type LineIndex } from '../text/lineEndings';

const MAX_EDIT_LENGTH = 1000;

const TRUNCATED = '\n… (diff truncated)';

/** Line `n` (1-based) of `text` including its terminator. */
function lineAt(text: string, index: LineIndex, n: number): string {
  return text.slice(index.start(n), n < index.count ? index.start(n + 1) : text.length);
}

export function computeLineChanges(oldText: string, newText: string, indices: { old?: LineIndex; new?: LineIndex } = {}): LineChange[] {
  if (oldText === newText) return [];
  const oldIndex = indices.old ?? indexLines(oldText);
  const newIndex = indices.new ?? indexLines(newText);
  const oldCount = oldIndex.count;
  const newCount = newIndex.count;
  let prefix = 0;
  while (prefix < oldCount && prefix < newCount && lineAt(oldText, oldIndex, prefix + 1) === lineAt(newText, newIndex, prefix + 1)) prefix++;
  let suffix = 0;
  while (
    suffix < oldCount - prefix &&
    suffix < newCount - prefix &&
    lineAt(oldText, oldIndex, oldCount - suffix) === lineAt(newText, newIndex, newCount - suffix)
  ) {
    suffix++;
  }
  const oldFrom = prefix + 1;
  const oldTo = oldCount - suffix + 1;
  const newFrom = prefix + 1;
  const newTo = newCount - suffix + 1;
  if (oldFrom === oldTo || newFrom === newTo) return [{ oldFrom, oldTo, newFrom, newTo }];
  const oldLines: string[] = [];
  for (let n = oldFrom; n < oldTo; n++) oldLines.push(lineAt(oldText, oldIndex, n));
  const newLines: string[] = [];
  for (let n = newFrom; n < newTo; n++) newLines.push(lineAt(newText, newIndex, n));
  const parts = diffArrays(oldLines, newLines, { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) return [{ oldFrom, oldTo, newFrom, newTo }];
  const changes: LineChange[] = [];
  let oldLine = oldFrom;
  let newLine = newFrom;
  let open: LineChange | undefined;
  for (const part of parts) {
    const count = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      if (open) changes.push(open);
      open = undefined;
      oldLine += count;
      newLine += count;
      continue;
    }
    open ??= { oldFrom: oldLine, oldTo: oldLine, newFrom: newLine, newTo: newLine };
    if (part.removed) {
      oldLine += count;
      open.oldTo = oldLine;
    } else {
      newLine += count;
      open.newTo = newLine;
    }
  }
  if (open) changes.push(open);
  return changes;
}

export interface UnifiedDiff {
  text: string;
  /** New-side lines the rendering shows (context and added lines): what a reader of it has now seen. */
  shownNew: Ranges;
  /** True when `maxLines` cut the rendering. */
  truncated: boolean;
}

export interface DiffOptions {
  context?: number;
  /** Line indices the caller already has (saves indexing big texts again). */
  oldIndex?: LineIndex;
  newIndex?: LineIndex;
  /** Caps the number of body lines rendered (refusal messages stay bounded). */
  maxLines?: number;
  /** Caps the characters of the whole rendering (a client's result budget): it stops at a line, marked. */
  maxChars?: number;
  /** Lines longer than this are shortened and marked; a shortened new-side line does not count as shown. */
  maxLineLength?: number;
}

/** The line without its break: "\r\n", "\n" or a lone "\r" (`text/lineEndings.ts`). */
function display(line: string): string {
  let end = line.length;
  if (end > 0 && line.charCodeAt(end - 1) === 10) end--;
  if (end > 0 && line.charCodeAt(end - 1) === 13) end--;
  return line.slice(0, end);
}

function hasTerminator(line: string): boolean {
  const last = line.charCodeAt(line.length - 1);
  return last === 10 || last === 13;
}

/** The body of a diff being written, within its line and size caps. */
class DiffBody {
  readonly lines: string[] = [];
  shownNew: Ranges = EMPTY;
  truncated = false;

  constructor(
    private room: number,
    private readonly counted: boolean,
    private readonly maxLines: number,
    private readonly maxLineLength: number,
  ) {}

  fits(text: string): boolean {
    const size = this.counted ? utf8Size(text) + 1 : 0;
    if (this.lines.length >= this.maxLines || size > this.room) {
      this.truncated = true;
      return false;
    }
    this.room -= size;
    this.lines.push(text);
    return true;
  }

  /** Emits one line; true when it was shown whole (a shortened line was not really seen). */
  emit(prefix: string, line: string): boolean {
    if (this.truncated) return false;
    const content = display(line);
    const whole = content.length <= this.maxLineLength;
    const shown = whole ? content : `${content.slice(0, this.maxLineLength)} … [line shortened: ${formatCount(content.length)} characters]`;
    const noNewline = hasTerminator(line) ? '' : '\n\\ No newline at end of file';
    return this.fits(prefix + shown + noNewline) && whole;
  }

  /** Emits a line of the new text, which is seen when shown whole. */
  emitNew(prefix: string, text: string, index: LineIndex, line: number): void {
    if (this.emit(prefix, lineAt(text, index, line))) this.shownNew = add(this.shownNew, line, line);
  }
}

interface Sides {
  oldText: string;
  newText: string;
  oldIndex: LineIndex;
  newIndex: LineIndex;
}

function writeHunk(out: DiffBody, hunk: ReturnType<typeof hunksOf>[number], s: Sides): void {
  const { oldStart, oldLines: oldLen, newStart, newLines: newLen } = hunk;
  const header = `@@ -${oldLen === 0 ? oldStart - 1 : oldStart}${oldLen === 1 ? '' : `,${oldLen}`} +${newLen === 0 ? newStart - 1 : newStart}${newLen === 1 ? '' : `,${newLen}`} @@`;
  if (!out.fits(header)) return;
  const oldEnd = oldStart + oldLen - 1;
  const newEnd = newStart + newLen - 1;
  let oldLine = oldStart;
  let newLine = newStart;
  for (const change of hunk.changes) {
    if (out.truncated) return;
    for (; oldLine < change.oldFrom && !out.truncated; oldLine++, newLine++) out.emitNew(' ', s.newText, s.newIndex, newLine);
    for (let n = change.oldFrom; n < change.oldTo && !out.truncated; n++) out.emit('-', lineAt(s.oldText, s.oldIndex, n));
    for (let n = change.newFrom; n < change.newTo && !out.truncated; n++) out.emitNew('+', s.newText, s.newIndex, n);
    oldLine = change.oldTo;
    newLine = change.newTo;
  }
  for (; oldLine <= oldEnd && newLine <= newEnd && !out.truncated; oldLine++, newLine++) out.emitNew(' ', s.newText, s.newIndex, newLine);
}

/** Renders changes as a unified diff with `--- path` / `+++ path` headers. */
export function formatUnifiedDiff(label: string, oldText: string, newText: string, changes: readonly LineChange[], options: DiffOptions = {}): UnifiedDiff {
  if (changes.length === 0) return { text: '', shownNew: EMPTY, truncated: false };
  const sides: Sides = { oldText, newText, oldIndex: options.oldIndex ?? indexLines(oldText), newIndex: options.newIndex ?? indexLines(newText) };
  const headers = [`--- ${displayPath(label)}`, `+++ ${displayPath(label)}`];
  // Room for the body: the headers and the truncation mark are always there. Counted in UTF-8 bytes, as a
  // client's budget is (`text/resultBudget.ts`).
  const room = (options.maxChars ?? Number.POSITIVE_INFINITY) - utf8Size(headers.join('\n')) - utf8Size(TRUNCATED);
  const out = new DiffBody(
    room,
    options.maxChars !== undefined,
    options.maxLines ?? Number.POSITIVE_INFINITY,
    options.maxLineLength ?? Number.POSITIVE_INFINITY,
  );
  for (const hunk of hunksOf(changes, sides.oldIndex.count, sides.newIndex.count, options.context ?? 3)) {
    if (out.truncated) break;
    writeHunk(out, hunk, sides);
  }
  const text = [...headers, ...out.lines].join('\n') + (out.truncated ? TRUNCATED : '');
  return { text, shownNew: out.shownNew, truncated: out.truncated };
}
