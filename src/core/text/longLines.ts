/**
 * When a long line is shortened, when it can be shown in full, and when it never can (no message may send
 * the agent into a loop). A read of several lines shortens those longer than `maxLineLength` when the
 * range also has shorter lines; a read of only long lines (one alone: `offset: N, limit: 1`) shows them in
 * full, unless a line by itself is over `maxBytes`. Such a line can be neither shown nor seen, so edits
 * touching it must not be told to read it: only raising the cap helps. Pure.
 */
import { Buffer } from 'node:buffer';
import type { Ranges } from './lineRanges';
import type { ReadLimits } from './resultBudget';

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Bytes a line costs in a read of that line alone: its number, a tab, its text and the line break. */
export function fullLineCost(line: number, content: string): number {
  return String(line).length + 1 + utf8Length(content) + 1;
}

/**
 * Whether a read of lines from..to shortens some: it holds a line longer than maxLineLength and one that is
 * not. `longest` (the longest line's length, when known) skips the scan when no line is long.
 */
export function shortensLines(from: number, to: number, lengthOf: (line: number) => number, maxLineLength: number, longest = Infinity): boolean {
  if (from >= to || longest <= maxLineLength) return false;
  let long = false;
  let short = false;
  for (let line = from; line <= to && !(long && short); line++) {
    if (lengthOf(line) > maxLineLength) long = true;
    else short = true;
  }
  return long && short;
}

/**
 * False only when no line of these undecoded bytes can be longer than maxLineLength characters: no run
 * between line-break bytes is longer, as a character takes at least one byte. In UTF-16 (BOM) break bytes can
 * sit inside other characters, so there only the whole size counts.
 */
export function mayHaveLongLines(bytes: Uint8Array, maxLineLength: number): boolean {
  if (bytes.length <= maxLineLength) return false;
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let lf = view.indexOf(10);
  let cr = view.indexOf(13);
  for (let start = 0; ;) {
    if (lf !== -1 && lf < start) lf = view.indexOf(10, start);
    if (cr !== -1 && cr < start) cr = view.indexOf(13, start);
    const next = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
    if ((next === -1 ? view.length : next) - start > maxLineLength) return true;
    if (next === -1) return false;
    start = next + 1;
  }
}

/** A line no read can show in full under these caps. */
export function isBeyondReadCap(line: number, content: string, limits: ReadLimits): boolean {
  return content.length > limits.maxLineLength && fullLineCost(line, content) > limits.maxBytes;
}

/**
 * The lines of `ranges` no read can show in full, at most `max` of them. `longest` (the longest line's
 * length, when the caller knows it) skips the scan when no line is long at all.
 */
export function linesBeyondReadCap(ranges: Ranges, lineAt: (line: number) => string, limits: ReadLimits, longest = Infinity, max = 20): number[] {
  const found: number[] = [];
  if (longest <= limits.maxLineLength) return found;
  for (let i = 0; i < ranges.length && found.length < max; i += 2) {
    for (let line = ranges[i]; line <= ranges[i + 1] && found.length < max; line++) {
      if (isBeyondReadCap(line, lineAt(line), limits)) found.push(line);
    }
  }
  return found;
}

/**
 * The long lines of `ranges` a read of that line alone shows in full (those a read of several lines shortens),
 * at most `max` of them.
 */
export function linesToReadAlone(ranges: Ranges, lineAt: (line: number) => string, limits: ReadLimits, longest = Infinity, max = 20): number[] {
  const found: number[] = [];
  if (longest <= limits.maxLineLength) return found;
  for (let i = 0; i < ranges.length && found.length < max; i += 2) {
    for (let line = ranges[i]; line <= ranges[i + 1] && found.length < max; line++) {
      const content = lineAt(line);
      if (content.length > limits.maxLineLength && !isBeyondReadCap(line, content, limits)) found.push(line);
    }
  }
  return found;
}
