/**
 * When a long line can be shown in full, and when it never can (SPEC: no message may send the agent into a
 * loop). A line longer than `maxLineLength` is shortened only when the read's full lines would not fit the
 * byte cap, so a read of that line alone (`offset: N, limit: 1`) shows it in full, unless the line by itself
 * is over `maxBytes`. Such a line can be neither shown nor seen, so edits touching it must not be told to
 * read it: only raising the cap helps. Pure.
 */
import type { Ranges } from '../ledger/coverage';
import type { ReadLimits } from './formatRead';

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

/** Bytes a line costs in a read of that line alone: its number, a tab, its text and the line break. */
export function fullLineCost(line: number, content: string): number {
  return String(line).length + 1 + utf8Length(content) + 1;
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

/** "the user can raise …": the cap's name on every surface (VS Code setting, library option). */
export const RAISE_READ_CAP = 'ask the user to raise the read byte cap (the readgate.read.maxBytes setting, or limits.maxBytes of the library)';
