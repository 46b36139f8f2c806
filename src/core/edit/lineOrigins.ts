/**
 * Line numbers of an edit call's intermediate text, mapped back to the text the call started from. Each edit
 * is matched against the result of the edits before it, but a refusal must number lines as the agent read
 * them: "touches line 23" for what it read as line 20 (an earlier edit added 3 lines above) sent it to read
 * the wrong lines, again and again. A line some edit of the call wrote has no number in the original, so it
 * is named by that edit. Unseen lines are never such lines (what a call writes is seen), so they are mapped
 * by offsets kept as edits apply; other lines (an ambiguity's places, the closest lines) walk back through
 * the edits. Pure; owned by one applyEdits call.
 */
import { type LineChange, type Ranges, gaps, merged } from '../text/lineRanges';

/** A line edit `writtenBy` (0-based) of the call wrote, where original line `at` was (when it was one). */
export interface WrittenLine {
  writtenBy: number;
  at?: number;
}

/** An original line, or one the call wrote. */
export type LineOrigin = { line: number } | WrittenLine;

export class EditHistory {
  private readonly steps: { editIndex: number; changes: readonly LineChange[] }[] = [];
  /**
   * The unseen lines as flat [from, to, original from] triples in current numbers. Walking each edit's unseen
   * lines back through every step instead cost half a second for a refusal naming 1,000 edits.
   */
  private unseen: number[];

  constructor(
    private readonly originalLines: number,
    seen: Ranges,
  ) {
    const gapsOfSeen = gaps(seen, 1, originalLines);
    this.unseen = [];
    for (let i = 0; i < gapsOfSeen.length; i += 2) this.unseen.push(gapsOfSeen[i], gapsOfSeen[i + 1], gapsOfSeen[i]);
  }

  record(editIndex: number, changes: readonly LineChange[]): void {
    if (!changes.length) return;
    this.steps.push({ editIndex, changes });
    if (this.unseen.length) this.unseen = shifted(this.unseen, changes);
  }

  /** Unseen lines of the current text in original numbers (other lines drop out). */
  toOriginal(ranges: Ranges): Ranges {
    const out: number[] = [];
    const pieces = this.unseen;
    for (let i = 0; i < ranges.length; i += 2) {
      for (let p = firstPieceEndingFrom(pieces, ranges[i]); p < pieces.length && pieces[p] <= ranges[i + 1]; p += 3) {
        const from = Math.max(ranges[i], pieces[p]);
        const to = Math.min(ranges[i + 1], pieces[p + 1]);
        out.push(pieces[p + 2] + from - pieces[p], pieces[p + 2] + to - pieces[p]);
      }
    }
    return merged(out);
  }

  /** Where a line of the text after the first `upTo` recorded edits came from. */
  originOf(line: number, upTo = this.steps.length): LineOrigin {
    for (let s = upTo - 1; s >= 0; s--) {
      const { editIndex, changes } = this.steps[s];
      const change = lastStartingAtOrBefore(changes, line);
      if (!change) continue;
      if (line < change.newTo) {
        const anchor = this.originOf(change.oldFrom, s);
        return 'line' in anchor && anchor.line <= this.originalLines ? { writtenBy: editIndex, at: anchor.line } : { writtenBy: editIndex };
      }
      line -= change.newTo - change.oldTo;
    }
    return { line };
  }
}

/** Unseen triples moved through one edit's changes (ascending); lines the edit replaced drop out. */
function shifted(pieces: readonly number[], changes: readonly LineChange[]): number[] {
  const out: number[] = [];
  let skipped = 0;
  let shift = 0;
  for (let i = 0; i < pieces.length; i += 3) {
    let from = pieces[i];
    const to = pieces[i + 1];
    let original = pieces[i + 2];
    while (skipped < changes.length && changes[skipped].oldTo <= from) {
      shift = changes[skipped].newTo - changes[skipped].oldTo;
      skipped++;
    }
    let delta = shift;
    for (let c = skipped; c < changes.length && changes[c].oldFrom <= to && from <= to; c++) {
      const change = changes[c];
      if (from < change.oldFrom) out.push(from + delta, change.oldFrom - 1 + delta, original);
      const next = Math.max(from, change.oldTo);
      original += next - from;
      from = next;
      delta = change.newTo - change.oldTo;
    }
    if (from <= to) out.push(from + delta, to + delta, original);
  }
  return out;
}

/** Index of the first triple that ends at or after `line`. */
function firstPieceEndingFrom(pieces: readonly number[], line: number): number {
  let low = 0;
  let high = pieces.length / 3;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (pieces[3 * mid + 1] < line) low = mid + 1;
    else high = mid;
  }
  return 3 * low;
}

/** The last change whose new side starts at or before `line` (changes ascend), if any. */
function lastStartingAtOrBefore(changes: readonly LineChange[], line: number): LineChange | undefined {
  let low = 0;
  let high = changes.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (changes[mid].newFrom <= line) low = mid + 1;
    else high = mid;
  }
  return low > 0 ? changes[low - 1] : undefined;
}
