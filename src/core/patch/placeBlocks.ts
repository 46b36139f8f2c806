/**
 * Where search/replace blocks go, decided by aider's rules (`do_replace`, `replace_most_similar_chunk`,
 * `perfect_replace`) with exact matching only. Blocks of one file apply in order, each to the text the
 * blocks before it left:
 *
 * - A blank (empty or whitespace-only) SEARCH appends REPLACE to the end of the file, or creates the file
 *   with it when the file does not exist (planPatch.ts decides which).
 * - Otherwise SEARCH's lines are replaced where they first occur, line for line, from the top of the file.
 *   Only an exact occurrence counts: where aider goes on to match with leading whitespace ignored, without a
 *   leading blank line, across `...` elisions or in other files of its chat, ReadGate refuses and shows the
 *   closest place and the first line that differs (and says when the lines match but for whitespace).
 *
 * Line breaks at the end of the file, where aider's `prep` adds a final line break to every file it edits,
 * are kept as the file has them: a file without a final line break keeps that when a block replaces its last
 * line (REPLACE's last line then goes without one), and text appended after such a line first gets that
 * line its break (aider would glue the appended text onto the last line). A file a block empties is left
 * empty (aider reports an empty result as a failed block).
 */
import type { Refusal } from '../refusals/refusal';
import type { Line, LineImage } from './lineImage';
import { splitLines } from './lineImage';
import { closestPlace, differences, exactPlaces, type LineEquality, lineName, range, spanName, stale } from './mismatch';
import type { SearchReplaceBlock } from './patchTypes';
import { pyStrip } from './searchReplace';

/** A SEARCH line ending with '\n' also matches the file's last line when that has no line break. */
const aiderLines: LineEquality = (file, wanted, last) => file.text === wanted.text && (file.eol === wanted.eol || (last && !file.eol));
const trimmedLines: LineEquality = (file, wanted) => file.text.trim() === wanted.text.trim();

export const isBlank = (search: string): boolean => pyStrip(search) === '';

export function placeBlocks(path: string, image: LineImage, blocks: readonly SearchReplaceBlock[]): Refusal | undefined {
  const names = new Map<number, string>();
  const partName = (part: number): string => names.get(part) ?? 'an earlier part of the patch';
  for (let n = 0; n < blocks.length; n++) {
    const block = blocks[n];
    const replace = splitLines(block.replace);
    const part = image.newPart();
    names.set(part, `block ${n + 1}`);
    if (isBlank(block.search)) {
      appendLines(image, replace, part);
      continue;
    }
    const search = splitLines(block.search);
    const at = exactPlaces(image, search, aiderLines)[0];
    if (at === undefined) return stale(path, describe(image, search, n + 1, block, partName));
    const end = at + search.length;
    if (end === image.length && !image.line(end - 1).eol && replace.length > 0) replace[replace.length - 1] = { ...replace[replace.length - 1], eol: false };
    image.replace(at, search.length, replace, part);
  }
  return undefined;
}

/** Appends lines after the file's last line (giving that line a line break if it has none). */
export function appendLines(image: LineImage, lines: readonly Line[], part: number): void {
  if (lines.length === 0) return;
  const last = image.length - 1;
  if (last >= 0 && !image.line(last).eol) image.replace(last, 1, [{ text: image.line(last).text, eol: true }, ...lines], part);
  else image.replace(image.length, 0, lines, part);
}

function describe(image: LineImage, search: Line[], n: number, block: SearchReplaceBlock, partName: (part: number) => string): string {
  const what = `the SEARCH text of block ${n} (line ${block.patchLine} of the patch)`;
  const loose = exactPlaces(image, search, trimmedLines)[0];
  const hint =
    loose === undefined
      ? ''
      : ` Its lines are at ${spanName(image, loose, search.length, partName)} if spaces at the start and end of lines are ignored (aider would apply the block there); ReadGate matches exactly: copy the lines as they are in the file.`;
  const at = closestPlace(image, search, range(0, Math.max(0, image.length - search.length)), 0, aiderLines);
  return `${what} is not in the file. Closest place, from ${lineName(image, at, partName)}: ${differences(image, search, at, aiderLines, partName).join('; ')}.${hint}`;
}
