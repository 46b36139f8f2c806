/**
 * Line structure of decoded text: where lines start and end, which line endings a file uses, and a view of
 * the text with every line break folded to LF that maps positions back to the raw text.
 *
 * Line rules, shared with `scanRange.ts` so numbers agree across small and huge files, and the same as
 * VS Code's text model: "\r\n", "\n" and a lone "\r" each end a line (a CR-only file has as many lines as
 * an editor shows); a final line break does not start another line; the empty text has no lines. Each line
 * keeps its own ending: edits rewrite only the endings they replace (`edit/replacementText.ts`).
 *
 * Not here: encodings (`encoding.ts`) and where an edit matches (`edit/applyEdits.ts`, which uses `matchView` so an
 * LF-only oldString finds text in a CRLF or CR file while every untouched line ending stays where it was).
 */

export interface LineIndex {
  /** Number of lines. */
  readonly count: number;
  /** Length of the longest line, without its line break (for cheap cap checks). */
  readonly longest: number;
  /** UTF-16 offset where 1-based `line` starts. */
  start(line: number): number;
  /** UTF-16 offset where 1-based `line` ends, excluding its line break. */
  end(line: number): number;
  /**
   * 1-based line containing a UTF-16 offset. Offsets past the last line's start (its line break, or the end
   * of the text) belong to the last line; in the empty text everything is line 1, the line an insert creates.
   */
  lineOf(offset: number): number;
}

export type Eol = '\n' | '\r\n' | '\r';

export type EolStyle = 'lf' | 'crlf' | 'cr' | 'mixed' | 'none';

export interface MatchView {
  /** The raw text with every line break ("\r\n", "\n", lone "\r") turned into "\n". */
  text: string;
  /**
   * Maps an offset in `text` to the raw text. An offset at a folded '\n' maps to its '\r', so a range that
   * ends before a line break ends before the '\r' and a range that starts with the '\n' takes the '\r' too.
   */
  toRaw(offset: number): number;
}

class GrowableOffsets {
  private values: Uint32Array;
  length = 0;

  constructor(capacity: number) {
    this.values = new Uint32Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.length === this.values.length) {
      const grown = new Uint32Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    this.values[this.length++] = value;
  }

  get(index: number): number {
    return this.values[index];
  }

  /** Number of leading values that are `< limit` (values are ascending). */
  countBelow(limit: number): number {
    let low = 0;
    let high = this.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.values[mid] < limit) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/**
 * Calls `onBreak(at, next)` for each line break, in order: the line's content ends at `at`, the next line
 * starts at `next`. Two native scans (for '\n' and '\r') instead of a loop over every character.
 */
export function forEachBreak(text: string, onBreak: (at: number, next: number) => void): void {
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  while (lf !== -1 || cr !== -1) {
    if (cr === -1 || (lf !== -1 && lf < cr)) {
      onBreak(lf, lf + 1);
      lf = text.indexOf('\n', lf + 1);
    } else {
      const next = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
      onBreak(cr, next);
      if (next === cr + 2) lf = text.indexOf('\n', next);
      cr = text.indexOf('\r', cr + 1);
    }
  }
}

/**
 * A line index as two arrays: where each line starts, and how long its line break is (0, 1 or 2). It answers
 * without the text, so an index can be built for a text that was never scanned (`withLines`).
 */
export class FlatLineIndex implements LineIndex {
  constructor(
    private readonly starts: Uint32Array,
    private readonly breaks: Uint8Array,
    readonly count: number,
    private readonly textLength: number,
    readonly longest: number,
  ) {}

  start(line: number): number {
    this.check(line);
    return this.starts[line - 1];
  }

  end(line: number): number {
    this.check(line);
    return (line < this.count ? this.starts[line] : this.textLength) - this.breaks[line - 1];
  }

  lineOf(offset: number): number {
    let low = 0;
    let high = this.count;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.starts[mid] <= offset) low = mid + 1;
      else high = mid;
    }
    return Math.max(1, low);
  }

  /** Lines from..to (inclusive) as (start, break length) pairs, each start moved by `shift`, for `withLines`. */
  copyInto(target: LineIndexBuilder, from: number, to: number, shift: number): void {
    for (let line = from; line <= to; line++) target.push(this.starts[line - 1] + shift, this.breaks[line - 1]);
  }

  private check(line: number): void {
    if (!Number.isInteger(line) || line < 1 || line > this.count) throw new RangeError(`line ${line} is outside 1..${this.count}`);
  }
}

/** Builds a `FlatLineIndex` line by line. */
export class LineIndexBuilder {
  private starts: Uint32Array;
  private breaks: Uint8Array;
  private count = 0;

  constructor(capacity: number) {
    this.starts = new Uint32Array(Math.max(16, capacity));
    this.breaks = new Uint8Array(this.starts.length);
  }

  /** A line starting at `start` whose line break (if any) is `breakLength` long. */
  push(start: number, breakLength: number): void {
    if (this.count === this.starts.length) {
      const starts = new Uint32Array(this.count * 2);
      starts.set(this.starts);
      this.starts = starts;
      const breaks = new Uint8Array(this.count * 2);
      breaks.set(this.breaks);
      this.breaks = breaks;
    }
    this.starts[this.count] = start;
    this.breaks[this.count++] = breakLength;
  }

  /** The index of a text `textLength` long; every line's length is measured from the arrays. */
  build(textLength: number): FlatLineIndex {
    let longest = 0;
    for (let i = 0; i < this.count; i++) {
      const end = (i + 1 < this.count ? this.starts[i + 1] : textLength) - this.breaks[i];
      if (end - this.starts[i] > longest) longest = end - this.starts[i];
    }
    return new FlatLineIndex(this.starts, this.breaks, this.count, textLength, longest);
  }
}

export function indexLines(text: string): FlatLineIndex {
  const builder = new LineIndexBuilder(text.length >>> 5);
  let lineStart = 0;
  forEachBreak(text, (at, next) => {
    builder.push(lineStart, next - at);
    lineStart = next;
  });
  if (lineStart < text.length) builder.push(lineStart, 0);
  return builder.build(text.length);
}

/** Number of lines of `text` by the rules above. */
export function countLines(text: string): number {
  let count = 0;
  let next = 0;
  forEachBreak(text, (_at, after) => {
    count++;
    next = after;
  });
  return next < text.length ? count + 1 : count;
}

/** The line breaks of `text` in order, as written. */
export function lineBreaks(text: string): Eol[] {
  const breaks: Eol[] = [];
  forEachBreak(text, (at, next) => breaks.push(next - at === 2 ? '\r\n' : text[at] === '\r' ? '\r' : '\n'));
  return breaks;
}

export function eolStyle(text: string): EolStyle {
  const kinds = new Set(lineBreaks(text));
  if (kinds.size > 1) return 'mixed';
  const [only] = kinds;
  return only === '\r\n' ? 'crlf' : only === '\r' ? 'cr' : only === '\n' ? 'lf' : 'none';
}

/** `text` with every line break turned into '\n'. */
export function toLf(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
}

export function matchView(raw: string): MatchView {
  if (raw.indexOf('\r') === -1) return { text: raw, toRaw: (offset) => offset };
  const text = toLf(raw);
  // A lone '\r' becomes one '\n' in place; only each "\r\n" shortens the view, by one.
  const folded = new GrowableOffsets(64);
  let removed = 0;
  for (let at = raw.indexOf('\r\n'); at !== -1; at = raw.indexOf('\r\n', at + 2)) {
    folded.push(at - removed++);
  }
  if (removed === 0) return { text, toRaw: (offset) => offset };
  return { text, toRaw: (offset) => offset + folded.countBelow(offset) };
}

/** Converts every line break of `text` ("\r\n", "\n" or a lone "\r") to `eol`. */
export function withEol(text: string, eol: Eol): string {
  const lf = toLf(text);
  return eol === '\n' ? lf : lf.replaceAll('\n', eol);
}
