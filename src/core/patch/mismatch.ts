/**
 * What a refusal to place part of a patch says: the file, the part (hunk, block, chunk) and the first lines
 * where the patch and the file really differ ("line 12: the patch expects "x", the file has "y""), found at
 * the place most like the part among the places it may go. Line numbers are the file's own (as the user
 * and the agent see it), not positions shifted by the parts placed before.
 */
import { displayPath } from '../path/displayPath';
import type { Refusal } from '../refusals/refusal';
import type { Line, LineImage } from './lineImage';

/** Whether a line of the file equals a line of the patch; `last` is the part's last line. */
export type LineEquality = (file: Line, wanted: Line, last: boolean) => boolean;

export const exactLines: LineEquality = (file, wanted) => file.text === wanted.text && file.eol === wanted.eol;

export const show = (text: string | undefined): string =>
  text === undefined ? '(the end of the file)' : JSON.stringify(text.length > 120 ? `${text.slice(0, 117)}…` : text);

export function stale(path: string, detail: string): Refusal {
  return {
    ok: false,
    code: 'NO_OCCURRENCE_FOUND',
    message: `The patch no longer matches ${displayPath(path)}: ${detail} Nothing was changed. Make the patch again from the file as it is now.`,
  };
}

/** "line 12", or, for a line an earlier part wrote, what wrote it. */
export function lineName(image: LineImage, index: number, partName: (part: number) => string): string {
  if (index >= image.length) return 'the end of the file';
  const orig = image.originOf(index);
  return orig === -1 ? `a line ${partName(image.partOf(index))} wrote` : `line ${orig + 1}`;
}

/** Each line where `wanted` placed at `at` differs from the file, described. */
export function differences(image: LineImage, wanted: readonly Line[], at: number, same: LineEquality, partName: (part: number) => string, max = 3): string[] {
  const found: string[] = [];
  for (let i = 0; i < wanted.length && found.length < max; i++) {
    const index = at + i;
    const file = index < image.length ? image.line(index) : undefined;
    const where = lineName(image, index, partName);
    // Whether an unread line equals the patch's is itself its content: named, never compared.
    if (file && !image.shown(index)) {
      found.push(`${where}: a line you have not read (read it, then retry)`);
      continue;
    }
    if (file && same(file, wanted[i], i === wanted.length - 1)) continue;
    if (file && file.text === wanted[i].text) {
      found.push(
        wanted[i].eol
          ? `${where}: the patch expects a line break after ${show(file.text)}, the file ends without one`
          : `${where}: the patch expects ${show(file.text)} to end the file without a line break, the file goes on after it`,
      );
    } else found.push(`${where}: the patch expects ${show(wanted[i].text)}, the file has ${image.quote(index)}`);
  }
  if (found.length === 0 && at + wanted.length > image.length) found.push(`${lineName(image, image.length, partName)}: the patch expects more lines`);
  return found;
}

/** The candidate where most lines of `wanted` are equal, a line equal but for surrounding whitespace counting half (ties: nearest `hint`). */
export function closestPlace(image: LineImage, wanted: readonly Line[], candidates: Iterable<number>, hint: number, same: LineEquality): number {
  let best = { at: -1, score: -1, distance: Infinity };
  for (const at of candidates) {
    let score = 0;
    for (let i = 0; i < wanted.length; i++) {
      if (at + i >= image.length) break;
      // Unread lines count as different, so which place is closest says nothing of them.
      if (!image.shown(at + i)) continue;
      const file = image.line(at + i);
      if (same(file, wanted[i], i === wanted.length - 1)) score += 2;
      else if (file.text.trim() === wanted[i].text.trim()) score += 1;
    }
    const distance = Math.abs(at - hint);
    if (score > best.score || (score === best.score && distance < best.distance)) best = { at, score, distance };
  }
  return best.at;
}

export function* range(from: number, to: number): Iterable<number> {
  for (let at = from; at <= to; at++) yield at;
}

/** Every place where all lines of `wanted` are equal, patched lines included. */
export function exactPlaces(image: LineImage, wanted: readonly Line[], same: LineEquality): number[] {
  const places: number[] = [];
  for (let at = 0; at + wanted.length <= image.length; at++) {
    let all = true;
    for (let i = 0; i < wanted.length && all; i++) all = same(image.line(at + i), wanted[i], i === wanted.length - 1);
    if (all) places.push(at);
  }
  return places;
}

/** "lines 4–6" of the file for a place of `count` lines at `at`. */
export function spanName(image: LineImage, at: number, count: number, partName: (part: number) => string): string {
  const first = lineName(image, at, partName);
  if (count <= 1) return first;
  const last = lineName(image, at + count - 1, partName);
  return first.startsWith('line ') && last.startsWith('line ') ? `lines ${first.slice(5)}–${last.slice(5)}` : `${first} to ${last}`;
}
