/**
 * The text an edit call works on, cut into line-aligned chunks so that applying one edit rebuilds only the
 * chunks it touches. Applying N edits to a flat string re-indexed the whole text, folded its CRLFs again and
 * copied it whole for every edit: O(N × file size) of JavaScript work, over a second for 1,000 edits of a
 * 250 KB file (strings past 128 KB also cost a fresh large-object allocation each time).
 *
 * Every chunk but the last ends with a line break, and never with the '\r' of a "\r\n", so neither a line nor
 * a break spans two chunks; each chunk keeps its own LF view (`matchView`), its quote-normalized view and its
 * line index, built when first needed.
 * Offsets, line numbers and views mean exactly what they mean for the joined text (`text/lineEndings.ts` rules):
 * callers cannot tell the chunks apart from one string, and the chunk size changes only the speed.
 * Searching still scans every chunk natively; a match that crosses a chunk boundary must put one of its own
 * line breaks on the chunk's last character, so only those few alignments are compared.
 *
 * Not here: what to match or replace (`applyEdits.ts`). Mutable, and owned by one applyEdits call.
 */
import { countLines, FlatLineIndex, indexLines, LineIndexBuilder, type LineIndex, matchView, type MatchView } from '../text/lineEndings';
import { normalizeQuotes } from './quotes';

class Chunk {
  readonly view: MatchView;
  private quotedText: string | undefined;
  private indexCache: FlatLineIndex | undefined;

  constructor(
    readonly raw: string,
    /** Lines in this chunk, by the rules of `indexLines`. */
    readonly lines: number,
    /** Where this chunk starts in the original text, while it is an unchanged piece of it. */
    readonly origin?: number,
  ) {
    this.view = matchView(raw);
  }

  get quoted(): string {
    return (this.quotedText ??= normalizeQuotes(this.view.text));
  }

  get index(): FlatLineIndex {
    return (this.indexCache ??= indexLines(this.raw));
  }
}

/**
 * Where the first line break at or after `from` ends, or -1. A '\r' is looked for only up to the next '\n':
 * `indexOf('\r')` would scan to the end of a file without one on every call, quadratic over a split.
 */
function breakEndFrom(text: string, from: number): number {
  const lf = text.indexOf('\n', from);
  if (lf === -1) {
    const cr = text.indexOf('\r', from);
    return cr === -1 ? -1 : cr + 1;
  }
  for (let at = from; at < lf; at++) {
    if (text.charCodeAt(at) === 13) return at + 1 === lf ? lf + 1 : at + 1;
  }
  return lf + 1;
}

/** Whether a chunk may end with `text` when `next` follows it: on a break, and not between '\r' and '\n'. */
function endsOnBreak(text: string, next: string | undefined): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last === 10 || (last === 13 && next?.charCodeAt(0) !== 10);
}

interface NeedleSplit {
  /** The needle up to and including one of its '\n'. */
  head: string;
  rest: string;
}

/** The needle cut after each of its line breaks, longest head first. */
function splitsAtBreaks(needle: string): NeedleSplit[] {
  const splits: NeedleSplit[] = [];
  for (let at = needle.lastIndexOf('\n'); at !== -1; at = at === 0 ? -1 : needle.lastIndexOf('\n', at - 1)) {
    splits.push({ head: needle.slice(0, at + 1), rest: needle.slice(at + 1) });
  }
  return splits;
}

/** Largest k with `starts[k] <= value` (starts ascending, starts[0] = 0 <= value). */
function lastAtOrBelow(starts: readonly number[], value: number, count: number): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (starts[mid] <= value) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * More chunks cost a search call each per edit, bigger ones cost their rebuild and re-index per edit; 16·√length
 * (at least 4 KiB) measured within about 10% of the best size for 40 KB to 10 MB files, short lines and long.
 */
export function chunkSizeFor(textLength: number): number {
  return Math.max(4096, Math.round(16 * Math.sqrt(textLength)));
}

export class ChunkedText {
  private chunks: Chunk[] = [];
  /** Per chunk, plus one entry for the end: raw offset, folded (matchView) offset and first line number. */
  private rawStart: number[] = [0];
  private foldStart: number[] = [0];
  private firstLine: number[] = [1];
  private joined: string | undefined;

  /** `index`, when the caller has the text's line index, saves counting each chunk's lines. */
  constructor(
    private readonly original: string,
    private readonly chunkChars = chunkSizeFor(original.length),
    index?: LineIndex,
  ) {
    this.chunks = this.split(original, index, true);
    this.joined = original;
    this.measure();
  }

  get length(): number {
    return this.rawStart[this.chunks.length];
  }

  get lineCount(): number {
    return this.firstLine[this.chunks.length] - 1;
  }

  /**
   * The whole text. Runs of chunks still unchanged are one slice of the original each, joined by concatenation,
   * so an edit of a big file costs its changed chunks, not a copy of the file (the engine copies only if someone
   * reads the result character by character).
   */
  toString(): string {
    if (this.joined !== undefined) return this.joined;
    let text = '';
    for (let k = 0; k < this.chunks.length;) {
      const origin = this.chunks[k].origin;
      if (origin === undefined) {
        text += this.chunks[k++].raw;
        continue;
      }
      let end = origin + this.chunks[k].raw.length;
      for (k++; k < this.chunks.length && this.chunks[k].origin === end; k++) end += this.chunks[k].raw.length;
      text += this.original.slice(origin, end);
    }
    return (this.joined = text);
  }

  /**
   * Start offsets, in the LF view of the text, of the non-overlapping occurrences of `needle` (non-empty)
   * from left to right, exactly as repeated `indexOf` on the joined view would find them. With `quotes`, both
   * sides are quote-normalized (`quotes.ts`: one UTF-16 unit for one, so offsets are the same).
   */
  findAll(needle: string, quotes: boolean): number[] {
    const found: number[] = [];
    const count = this.chunks.length;
    const breaks = splitsAtBreaks(needle);
    let k = 0;
    let local = 0;
    while (k < count) {
      const text = this.viewOf(k, quotes);
      let at = text.indexOf(needle, local);
      if (at === -1 && breaks.length) at = this.crossing(k, local, breaks, quotes);
      if (at === -1) {
        k++;
        local = 0;
        continue;
      }
      const position = this.foldStart[k] + at;
      found.push(position);
      const next = position + needle.length;
      while (k < count && this.foldStart[k + 1] <= next) k++;
      local = next - this.foldStart[k];
    }
    return found;
  }

  /** Raw offset of an offset in the LF view (see `MatchView.toRaw`). */
  toRaw(folded: number): number {
    if (this.chunks.length === 0) return folded;
    const k = lastAtOrBelow(this.foldStart, folded, this.chunks.length);
    return this.rawStart[k] + this.chunks[k].view.toRaw(folded - this.foldStart[k]);
  }

  /** As `LineIndex.lineOf`. */
  lineOf(offset: number): number {
    if (this.chunks.length === 0) return 1;
    const k = lastAtOrBelow(this.rawStart, offset, this.chunks.length);
    return this.firstLine[k] - 1 + this.chunks[k].index.lineOf(offset - this.rawStart[k]);
  }

  /** As `LineIndex.start`. */
  lineStart(line: number): number {
    const k = this.chunkOfLine(line);
    return this.rawStart[k] + this.chunks[k].index.start(line - this.firstLine[k] + 1);
  }

  /** As `LineIndex.end`: where the line's content ends, before its line break. */
  lineEnd(line: number): number {
    const k = this.chunkOfLine(line);
    return this.rawStart[k] + this.chunks[k].index.end(line - this.firstLine[k] + 1);
  }

  /** Where the next line starts, or the end of the text after the last line. */
  lineEndWithTerminator(line: number): number {
    return line < this.lineCount ? this.lineStart(line + 1) : this.length;
  }

  /**
   * The line index of the text as it is now, without scanning it again: lines of unchanged chunks are copied
   * from the original's index (moved to where the chunk now starts), those of rebuilt chunks from theirs.
   */
  lineIndex(original?: LineIndex): LineIndex {
    if (this.joined === this.original && original) return original;
    const builder = new LineIndexBuilder(this.lineCount);
    for (let k = 0; k < this.chunks.length; k++) {
      const chunk = this.chunks[k];
      const at = this.rawStart[k];
      if (chunk.origin !== undefined && original instanceof FlatLineIndex) {
        const first = original.lineOf(chunk.origin);
        original.copyInto(builder, first, first + chunk.lines - 1, at - chunk.origin);
      } else {
        chunk.index.copyInto(builder, 1, chunk.lines, at);
      }
    }
    return builder.build(this.length);
  }

  lineText(line: number): string {
    return this.slice(this.lineStart(line), this.lineEnd(line));
  }

  charCodeAt(offset: number): number {
    if (offset < 0 || offset >= this.length) return NaN;
    const k = lastAtOrBelow(this.rawStart, offset, this.chunks.length);
    return this.chunks[k].raw.charCodeAt(offset - this.rawStart[k]);
  }

  slice(from: number, to: number): string {
    if (to <= from) return '';
    const first = lastAtOrBelow(this.rawStart, from, this.chunks.length);
    const last = lastAtOrBelow(this.rawStart, to - 1, this.chunks.length);
    if (first === last) return this.chunks[first].raw.slice(from - this.rawStart[first], to - this.rawStart[first]);
    const parts: string[] = [this.chunks[first].raw.slice(from - this.rawStart[first])];
    for (let k = first + 1; k < last; k++) parts.push(this.chunks[k].raw);
    parts.push(this.chunks[last].raw.slice(0, to - this.rawStart[last]));
    return parts.join('');
  }

  /**
   * Replaces raw ranges (ascending, not overlapping, not empty) with `texts`, rebuilding only the chunks they
   * touch (and a neighbour when a replacement removed the line break a chunk must end with, or put a '\n'
   * right after the '\r' the previous chunk ends with).
   */
  replace(ranges: readonly { start: number; end: number }[], texts: readonly string[]): void {
    if (ranges.length === 0) return;
    const count = this.chunks.length;
    const first = lastAtOrBelow(this.rawStart, ranges[0].start, count);
    let last = lastAtOrBelow(this.rawStart, ranges[ranges.length - 1].end - 1, count);
    const parts: string[] = [];
    let at = this.rawStart[first];
    for (let i = 0; i < ranges.length; i++) {
      parts.push(this.slice(at, ranges[i].start), texts[i]);
      at = ranges[i].end;
    }
    parts.push(this.slice(at, this.rawStart[last + 1]));
    let region = parts.join('');
    // Keep every chunk but the last ending on a break, and do not let chunks shrink to slivers.
    while (last + 1 < count && (region.length === 0 || !endsOnBreak(region, this.chunks[last + 1].raw) || region.length < this.chunkChars / 2)) {
      region += this.chunks[++last].raw;
    }
    let from = first;
    if (from > 0 && region.charCodeAt(0) === 10 && !endsOnBreak(this.chunks[from - 1].raw, region)) region = this.chunks[--from].raw + region;
    this.chunks = [...this.chunks.slice(0, from), ...this.split(region), ...this.chunks.slice(last + 1)];
    this.joined = undefined;
    this.measure();
  }

  /** `original`: `text` is the original text, so each chunk remembers where it came from. */
  private split(text: string, index?: LineIndex, original = false): Chunk[] {
    const chunks: Chunk[] = [];
    let from = 0;
    while (from < text.length) {
      const cut = breakEndFrom(text, from + this.chunkChars - 1);
      const to = cut === -1 || text.length - cut < this.chunkChars / 2 ? text.length : cut;
      const raw = from === 0 && to === text.length ? text : text.slice(from, to);
      const lines = index ? index.lineOf(to - 1) - index.lineOf(from) + 1 : countLines(raw);
      chunks.push(new Chunk(raw, lines, original ? from : undefined));
      from = to;
    }
    return chunks;
  }

  private measure(): void {
    const count = this.chunks.length;
    this.rawStart = new Array<number>(count + 1);
    this.foldStart = new Array<number>(count + 1);
    this.firstLine = new Array<number>(count + 1);
    this.rawStart[0] = 0;
    this.foldStart[0] = 0;
    this.firstLine[0] = 1;
    for (let k = 0; k < count; k++) {
      const chunk = this.chunks[k];
      this.rawStart[k + 1] = this.rawStart[k] + chunk.raw.length;
      this.foldStart[k + 1] = this.foldStart[k] + chunk.view.text.length;
      this.firstLine[k + 1] = this.firstLine[k] + chunk.lines;
    }
  }

  private chunkOfLine(line: number): number {
    if (!Number.isInteger(line) || line < 1 || line > this.lineCount) throw new RangeError(`line ${line} is outside 1..${this.lineCount}`);
    return lastAtOrBelow(this.firstLine, line, this.chunks.length);
  }

  private viewOf(k: number, quotes: boolean): string {
    return quotes ? this.chunks[k].quoted : this.chunks[k].view.text;
  }

  /**
   * The first occurrence that starts in chunk k at or after `local` and runs past its end, or -1. Such a match
   * puts one of the needle's line breaks on the chunk's final break (a '\n' in the view); shorter heads start
   * later, so the first alignment that matches is the first occurrence.
   */
  private crossing(k: number, local: number, breaks: readonly NeedleSplit[], quotes: boolean): number {
    if (k + 1 >= this.chunks.length) return -1;
    const text = this.viewOf(k, quotes);
    for (const { head, rest } of breaks) {
      const at = text.length - head.length;
      if (at < local || at < 0 || !text.startsWith(head, at)) continue;
      if (this.startsWith(k + 1, rest, quotes)) return at;
    }
    return -1;
  }

  /** Whether the view from the start of chunk k on begins with `text`. */
  private startsWith(k: number, text: string, quotes: boolean): boolean {
    let offset = 0;
    for (let c = k; c < this.chunks.length && offset < text.length; c++) {
      const view = this.viewOf(c, quotes);
      if (text.length - offset <= view.length) return view.startsWith(offset === 0 ? text : text.slice(offset));
      if (!text.startsWith(view, offset)) return false;
      offset += view.length;
    }
    return offset >= text.length;
  }
}
