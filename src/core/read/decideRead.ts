/**
 * Whether a read returns content or the short "unchanged" placeholder. Pure.
 *
 * The placeholder must never lie: it is given only when every requested line was shown to this session in
 * this exact version (decided by content hash, not mtime), the read is not truncated (a truncated read means
 * the model never saw everything it asked for), and dedup is on and not bypassed with `force`. Lines the
 * session only wrote are seen but were never shown, so reading them returns content.
 */
import { covers } from '../text/lineRanges';
import { displayPath } from '../path/displayPath';
import type { LedgerEntry } from '../ledger/sessionLedger';
import type { LineIndex } from '../text/lineEndings';
import type { ReadLimits } from '../text/resultBudget';
import { mayHaveLongLines, shortensLines } from '../text/longLines';

/**
 * Whether the caps cut the requested range (fewer lines, or a line shortened): `'no'` only when proven, `'yes'`
 * once formatting cut it, `'unknown'` while only a bound was checked and the bound did not prove it.
 */
export type CutFact = 'no' | 'yes' | 'unknown';

export interface ReadRequestFacts {
  version: string;
  from: number;
  to: number;
  cut: CutFact;
  dedup: boolean;
  force: boolean;
}

/** `'content'` also while the cut is unknown: the caller formats the range and asks again with what it cut. */
export function decideRead(entry: LedgerEntry | undefined, facts: ReadRequestFacts): 'placeholder' | 'content' {
  if (!facts.dedup || facts.force || facts.cut !== 'no') return 'content';
  if (!entry || entry.version !== facts.version) return 'content';
  if (facts.to < facts.from) return 'content';
  return covers(entry.shown, facts.from, facts.to) ? 'placeholder' : 'content';
}

/** Digits and a tab before each line, its break after. */
const framing = (range: { from: number; to: number }): number => (range.to - range.from + 1) * (String(range.to).length + 2);

/**
 * Before decoding, from the bytes alone: rendered UTF-8 is at most twice the file's bytes (Latin-1 → UTF-8), and
 * a range of several lines can only be shortened if some line of the file is long.
 */
export function cutBeforeDecoding(bytes: Uint8Array, range: { from: number; to: number }, limits: ReadLimits, longest?: number): CutFact {
  if (range.to - range.from >= limits.maxLines || bytes.length * 2 + framing(range) > limits.maxBytes) return 'unknown';
  // The version's line index, when kept, knows its longest line: no scan of the bytes (a dedup hit's largest cost).
  const long = longest === undefined ? mayHaveLongLines(bytes, limits.maxLineLength) : longest > limits.maxLineLength;
  return range.from === range.to || !long ? 'no' : 'unknown';
}

/** Before formatting, from the line index: few enough lines, a byte bound that fits, and no long line among shorter ones. */
export function cutBeforeFormatting(file: { bytes: Uint8Array; index: LineIndex }, range: { from: number; to: number }, limits: ReadLimits): CutFact {
  const { from, to } = range;
  if (to < from || to - from + 1 > limits.maxLines) return 'unknown';
  if (shortensLines(from, to, (line) => file.index.end(line) - file.index.start(line), limits.maxLineLength, file.index.longest)) return 'unknown';
  const chars = file.index.end(to) - file.index.start(from);
  return Math.min(file.bytes.length * 2, chars * 3) + framing(range) <= limits.maxBytes ? 'no' : 'unknown';
}

/**
 * Names the result that showed the lines (reads are numbered in their headers) and says how to get them back,
 * because a client may have summarized or cut that result since.
 */
export function placeholderText(path: string, from: number, to: number, readNumber: number, version: string): string {
  const source =
    readNumber > 0
      ? `your read #${readNumber} (version ${version}), which showed them to you`
      : `a refusal showed them to you in its diff (version ${version})`;
  return `${displayPath(path)}: lines ${from}-${to} are unchanged since ${source}; their content is exactly as shown then. If that result is no longer in your context (it was summarized or cut, or another agent made that read), read again with force: true to get the lines back.`;
}
