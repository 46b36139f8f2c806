/**
 * Hunks: line changes grouped the way a unified diff shows them (changes whose context would overlap form one
 * hunk), and the text that results from accepting only some of them. Pure. The approval panel lets the user
 * reject hunks; the guard then writes exactly the accepted ones and reports that as what was applied.
 */
import type { LineChange } from '../text/lineRanges';
import { indexLines, type LineIndex } from '../text/lineEndings';

export interface Hunk {
  index: number;
  /** The changes this hunk shows, in order. */
  changes: LineChange[];
  /** First and last old/new lines the hunk shows, context included (1-based, inclusive; a count may be 0). */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export function hunksOf(changes: readonly LineChange[], oldLineCount: number, newLineCount: number, context = 3): Hunk[] {
  const hunks: Hunk[] = [];
  for (let i = 0; i < changes.length;) {
    let j = i;
    while (j + 1 < changes.length && changes[j + 1].oldFrom - changes[j].oldTo <= 2 * context) j++;
    const first = changes[i];
    const last = changes[j];
    const oldStart = Math.max(1, first.oldFrom - context);
    const oldEnd = Math.min(oldLineCount, last.oldTo - 1 + context);
    const newStart = Math.max(1, first.newFrom - (first.oldFrom - oldStart));
    const newEnd = Math.min(newLineCount, last.newTo - 1 + (oldEnd - (last.oldTo - 1)));
    hunks.push({ index: hunks.length, changes: changes.slice(i, j + 1), oldStart, oldLines: oldEnd - oldStart + 1, newStart, newLines: newEnd - newStart + 1 });
    i = j + 1;
  }
  return hunks;
}

function lineSlice(text: string, index: LineIndex, from: number, to: number): string {
  if (to < from) return '';
  const start = index.start(from);
  const end = to < index.count ? index.start(to + 1) : text.length;
  return text.slice(start, end);
}

/** The text with only the changes of accepted hunks applied; rejected hunks keep the old lines. */
export function applyHunks(oldText: string, newText: string, hunks: readonly Hunk[], rejected: ReadonlySet<number>): string {
  const oldIndex = indexLines(oldText);
  const newIndex = indexLines(newText);
  let out = '';
  let oldLine = 1;
  for (const hunk of hunks) {
    for (const change of hunk.changes) {
      out += lineSlice(oldText, oldIndex, oldLine, change.oldFrom - 1);
      out += rejected.has(hunk.index)
        ? lineSlice(oldText, oldIndex, change.oldFrom, change.oldTo - 1)
        : lineSlice(newText, newIndex, change.newFrom, change.newTo - 1);
      oldLine = change.oldTo;
    }
  }
  return out + lineSlice(oldText, oldIndex, oldLine, oldIndex.count);
}
