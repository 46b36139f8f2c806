/**
 * The lines an agent's own read tool showed the model, from how its client cuts a read (`ReadCut`): the range
 * clamped to the file and turned round when given backwards, as the client does; lines the client shortens left
 * out (only part of them was shown); and nothing from where the result passes what the client is sure to show.
 * Pure: the cut and the file's line lengths in, the fully shown lines out.
 */
import { EMPTY, merged, type Ranges } from '../text/lineRanges';
import type { ReadCut } from '../types';

/** The range a cut asks for in a file of `total` lines, as the client clamps it; undefined for an empty file. */
export function cutRange(cut: ReadCut, total: number): { from: number; to: number } | undefined {
  if (total <= 0) return undefined;
  const clamp = (line: number): number => Math.min(total, Math.max(1, Math.floor(line)));
  const a = clamp(cut.startLine);
  const b = clamp(cut.endLine ?? total);
  return a <= b ? { from: a, to: b } : { from: b, to: a };
}

/**
 * `lengthOf(line)`: the line's length in UTF-16 code units without its break, as the client measures it. Stops
 * at the first line past `maxChars`: a client that leaves out lines under its budget keeps the first ones.
 */
export function shownLines(cut: ReadCut, total: number, lengthOf: (line: number) => number): { shown: Ranges; stoppedAt?: number; shortened: number[] } {
  const range = cutRange(cut, total);
  if (!range) return { shown: EMPTY, shortened: [] };
  const pairs: number[] = [];
  const shortened: number[] = [];
  let chars = 0;
  for (let line = range.from; line <= range.to; line++) {
    const length = lengthOf(line);
    chars += length + 1;
    if (cut.maxChars !== undefined && chars > cut.maxChars) return { shown: merged(pairs), stoppedAt: line, shortened };
    if (cut.maxLineChars !== undefined && length > cut.maxLineChars) {
      shortened.push(line);
      continue;
    }
    pairs.push(line, line);
  }
  return { shown: merged(pairs), shortened };
}
