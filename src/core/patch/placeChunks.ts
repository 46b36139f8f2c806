/**
 * Where the chunks of an apply_patch `*** Update File:` section go, decided by codex's rules
 * (`codex-rs/apply-patch/src/lib.rs`: `compute_replacements`, `seek_sequence.rs`) with exact matching only:
 *
 * - All chunks are placed in the file as the section finds it, one after another from the top: each
 *   `@@ <line>` context is the first line equal to it at or after the current position, and the position
 *   moves past it; then the chunk's old lines (context and removed) are their first occurrence at or after
 *   the position, and the position moves past them. Chunks never overlap.
 * - `*** End of File`: the old lines must be the file's last lines.
 * - If old lines ending with an empty line are not found, they are searched again without it (and the new
 *   lines lose a trailing empty line too): models write the file's final line break as an empty line.
 * - A chunk without old lines (only "+" lines) is added at the end of the file, before a last empty line if
 *   there is one, whatever its `@@` context (codex does the same).
 *
 * Unlike codex's `seek_sequence`, which goes on to match lines with trailing whitespace ignored, then with
 * all surrounding whitespace ignored, then with typographic dashes, quotes and spaces folded to ASCII,
 * ReadGate takes exact matches only and refuses otherwise, showing the first line that differs (and saying
 * when the lines match but for that). Codex also ends every file it writes with a line break; ReadGate keeps
 * a missing final line break when a chunk replaces the last line.
 */
import type { Refusal } from '../refusals/refusal';
import type { Line, LineImage } from './lineImage';
import { closestPlace, differences, exactPlaces, type LineEquality, lineName, range, spanName, stale } from './mismatch';
import { appendLines } from './placeBlocks';
import type { UpdateChunk } from './patchTypes';

const sameText: LineEquality = (file, wanted) => file.text === wanted.text;
const trimmedText: LineEquality = (file, wanted) => file.text.trim() === wanted.text.trim();
const asLines = (texts: readonly string[]): Line[] => texts.map((text) => ({ text, eol: true }));

interface Replacement {
  at: number;
  count: number;
  lines: Line[];
  chunk: number;
  append: boolean;
}

export function placeChunks(path: string, image: LineImage, chunks: readonly UpdateChunk[]): Refusal | undefined {
  const partName = (): string => 'an earlier section of the patch';
  const replacements: Replacement[] = [];
  let position = 0;
  for (let n = 0; n < chunks.length; n++) {
    const chunk = chunks[n];
    for (const context of chunk.contexts) {
      const found = firstFrom(image, [{ text: context, eol: true }], position, false);
      if (found === undefined) return stale(path, contextMissing(image, context, n + 1, chunk, position, partName));
      position = found + 1;
    }
    if (chunk.oldLines.length === 0) {
      const end = image.length > 0 && image.line(image.length - 1).text === '' ? image.length - 1 : image.length;
      replacements.push({ at: end, count: 0, lines: asLines(chunk.newLines), chunk: n + 1, append: true });
      continue;
    }
    let old = asLines(chunk.oldLines);
    let fresh = asLines(chunk.newLines);
    let at = firstFrom(image, old, position, chunk.endOfFile);
    if (at === undefined && chunk.oldLines[chunk.oldLines.length - 1] === '') {
      old = old.slice(0, -1);
      if (chunk.newLines[chunk.newLines.length - 1] === '') fresh = fresh.slice(0, -1);
      at = firstFrom(image, old, position, chunk.endOfFile);
    }
    if (at === undefined) return stale(path, linesMissing(image, asLines(chunk.oldLines), n + 1, chunk, position, partName));
    const previous = replacements.filter((r) => !r.append).at(-1);
    if (previous && at < previous.at + previous.count) {
      return stale(
        path,
        `chunk ${n + 1} (line ${chunk.patchLine} of the patch) ends the file ("*** End of File"), but its lines there, ${spanName(image, at, old.length, partName)}, overlap those of chunk ${previous.chunk}: chunks must not overlap.`,
      );
    }
    replacements.push({ at, count: old.length, lines: fresh, chunk: n + 1, append: false });
    position = at + old.length;
  }
  // Applied from the bottom up, so each place is still where it was found.
  const ordered = replacements.map((r, i) => ({ r, i })).sort((a, b) => b.r.at - a.r.at || b.i - a.i);
  for (const { r } of ordered) {
    const part = image.newPart();
    if (r.append && r.at === image.length) appendLines(image, r.lines, part);
    else {
      const lines = [...r.lines];
      if (r.count > 0 && r.at + r.count === image.length && !image.line(image.length - 1).eol && lines.length > 0) {
        lines[lines.length - 1] = { ...lines[lines.length - 1], eol: false };
      }
      image.replace(r.at, r.count, lines, part);
    }
  }
  return undefined;
}

/** codex's `seek_sequence`, exact pass only: the first place at or after `start` (with `endOfFile`, only the last one). */
function firstFrom(image: LineImage, wanted: readonly Line[], start: number, endOfFile: boolean): number | undefined {
  if (wanted.length === 0) return start;
  if (wanted.length > image.length) return undefined;
  const from = endOfFile ? image.length - wanted.length : start;
  for (let at = from; at + wanted.length <= image.length; at++) {
    if (wanted.every((line, i) => sameText(image.line(at + i), line, false))) return at;
  }
  return undefined;
}

function contextMissing(image: LineImage, context: string, n: number, chunk: UpdateChunk, position: number, partName: () => string): string {
  const after = position === 0 ? '' : ` after ${lineName(image, position - 1, partName)}`;
  const loose = exactPlaces(image, [{ text: context, eol: true }], trimmedText).find((at) => at >= position);
  const hint =
    loose === undefined
      ? ''
      : ` ${lineName(image, loose, partName)} has ${image.quote(loose)}, equal but for spaces at its start or end (codex would take it); ReadGate matches exactly.`;
  return `the "@@ ${context}" line of chunk ${n} (line ${chunk.patchLine} of the patch) is not in the file${after}.${hint}`;
}

function linesMissing(image: LineImage, old: Line[], n: number, chunk: UpdateChunk, position: number, partName: () => string): string {
  const what = `the lines of chunk ${n} (line ${chunk.patchLine} of the patch)`;
  const last = Math.max(0, image.length - old.length);
  const candidates = chunk.endOfFile ? [last] : range(Math.min(position, last), last);
  const at = closestPlace(image, old, candidates, position, sameText);
  const loose = exactPlaces(image, old, trimmedText).find((place) => (chunk.endOfFile ? place === last : place >= position));
  const hint =
    loose === undefined
      ? ''
      : ` They are at ${spanName(image, loose, old.length, partName)} if spaces at the start and end of lines are ignored (codex would apply the chunk there); ReadGate matches exactly.`;
  const where = chunk.endOfFile ? ' at the end of the file ("*** End of File")' : position > 0 ? ` after ${lineName(image, position - 1, partName)}` : '';
  return `${what} are not in the file${where}. Closest place, from ${lineName(image, at, partName)}: ${differences(image, old, at, sameText, partName).join('; ')}.${hint}`;
}
