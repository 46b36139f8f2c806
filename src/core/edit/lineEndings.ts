/**
 * Line structure of decoded text: where lines start and end, which line endings a file uses, and a view of
 * the text with CRLF folded to LF that maps positions back to the raw text.
 *
 * Line rules, shared with `read/scanRange.ts` so numbers agree across small and huge files: lines are split
 * at '\n'; a final '\n' does not start another line; the empty text has no lines. A '\r' belongs to the line
 * break only directly before a '\n'; a lone '\r' (old Mac style, or at the very end) is line content.
 *
 * Not here: encodings (`encoding.ts`) and where an edit matches (`matchEdit.ts`, which uses `matchView` so an
 * LF-only oldString finds text in a CRLF file while every untouched '\r' stays where it was).
 */

export interface LineIndex {
  /** Number of lines. */
  readonly count: number;
  /** Length of the longest line, counting a '\r' before its '\n' (an upper bound, for cheap cap checks). */
  readonly longest: number;
  /** UTF-16 offset where 1-based `line` starts. */
  start(line: number): number;
  /** UTF-16 offset where 1-based `line` ends, excluding its '\n' and a '\r' right before it. */
  end(line: number): number;
  /**
   * 1-based line containing a UTF-16 offset. Offsets past the last line's start (its line break, or the end
   * of the text) belong to the last line; in the empty text everything is line 1, the line an insert creates.
   */
  lineOf(offset: number): number;
}

export type EolStyle = 'lf' | 'crlf' | 'mixed' | 'none';

export interface MatchView {
  /** The raw text with every "\r\n" turned into "\n". */
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

export function indexLines(text: string): LineIndex {
  const starts = new GrowableOffsets(text.length >>> 5);
  if (text.length > 0) starts.push(0);
  let longest = 0;
  let lineStart = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
    if (nl - lineStart > longest) longest = nl - lineStart;
    lineStart = nl + 1;
    if (nl + 1 < text.length) starts.push(nl + 1);
  }
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
      if (text.charCodeAt(next - 1) !== 10) return next;
      return next - 2 >= starts.get(line - 1) && text.charCodeAt(next - 2) === 13 ? next - 2 : next - 1;
    },
    lineOf(offset) {
      return Math.max(1, starts.countBelow(offset + 1));
    },
  };
}

export function eolStyle(text: string): EolStyle {
  let lf = false;
  let crlf = false;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
    if (nl > 0 && text.charCodeAt(nl - 1) === 13) crlf = true;
    else lf = true;
    if (lf && crlf) return 'mixed';
  }
  return crlf ? 'crlf' : lf ? 'lf' : 'none';
}

export function matchView(raw: string): MatchView {
  if (raw.indexOf('\r') === -1) return { text: raw, toRaw: (offset) => offset };
  const folded = new GrowableOffsets(64);
  let removed = 0;
  for (let at = raw.indexOf('\r\n'); at !== -1; at = raw.indexOf('\r\n', at + 2)) {
    folded.push(at - removed++);
  }
  if (removed === 0) return { text: raw, toRaw: (offset) => offset };
  return {
    text: raw.replaceAll('\r\n', '\n'),
    toRaw: (offset) => offset + folded.countBelow(offset),
  };
}

/** Converts every line break of `text` (LF or CRLF) to `eol`; a lone '\r' is content and stays. */
export function withEol(text: string, eol: '\n' | '\r\n'): string {
  const lf = text.indexOf('\r') === -1 ? text : text.replaceAll('\r\n', '\n');
  return eol === '\n' ? lf : lf.replaceAll('\n', '\r\n');
}
