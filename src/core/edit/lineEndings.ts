/**
 * Line structure of decoded text: where lines start and end, which line endings a file uses, and a view of
 * the text with every line break folded to LF that maps positions back to the raw text.
 *
 * Line rules, shared with `read/scanRange.ts` so numbers agree across small and huge files, and the same as
 * VS Code's text model: "\r\n", "\n" and a lone "\r" each end a line (a CR-only file has as many lines as
 * an editor shows); a final line break does not start another line; the empty text has no lines. Each line
 * keeps its own ending: edits rewrite only the endings they replace (`replacementText.ts`).
 *
 * Not here: encodings (`encoding.ts`) and where an edit matches (`applyEdits.ts`, which uses `matchView` so an
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

export function indexLines(text: string): LineIndex {
  const starts = new GrowableOffsets(text.length >>> 5);
  if (text.length > 0) starts.push(0);
  let longest = 0;
  let lineStart = 0;
  forEachBreak(text, (at, next) => {
    if (at - lineStart > longest) longest = at - lineStart;
    lineStart = next;
    if (next < text.length) starts.push(next);
  });
  if (text.length - lineStart > longest) longest = text.length - lineStart;
  const count = starts.length;
  const check = (line: number): void => {
    if (!Number.isInteger(line) || line < 1 || line > count) throw new RangeError(`line ${line} is outside 1..${count}`);
  };
  return {
    count,
    longest,
    start(line) {
      check(line);
      return starts.get(line - 1);
    },
    end(line) {
      check(line);
      const next = line < count ? starts.get(line) : text.length;
      const last = text.charCodeAt(next - 1);
      if (last === 13) return next - 1;
      if (last !== 10) return next;
      return next - 2 >= starts.get(line - 1) && text.charCodeAt(next - 2) === 13 ? next - 2 : next - 1;
    },
    lineOf(offset) {
      return Math.max(1, starts.countBelow(offset + 1));
    },
  };
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
