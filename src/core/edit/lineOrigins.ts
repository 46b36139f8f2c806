/**
 * Line numbers of an edit call's intermediate text, mapped back to the text the call started from. Each edit
 * is matched against the result of the edits before it, but a refusal must number lines as the agent read
 * them: "touches line 23" for what it read as line 20 (an earlier edit added 3 lines above) sent it to read
 * the wrong lines, again and again. A line some edit of the call wrote has no number in the original, so it
 * is named by that edit. Pure; owned by one applyEdits call.
 */
import { type LineChange, type Ranges, mapThrough } from '../ledger/coverage';

/** An original line, or a line edit `writtenBy` (0-based) wrote where original line `at` was (when it was one). */
export type LineOrigin = { line: number } | { writtenBy: number; at?: number };

const inverse = (change: LineChange): LineChange => ({ oldFrom: change.newFrom, oldTo: change.newTo, newFrom: change.oldFrom, newTo: change.oldTo });

export class EditHistory {
  private readonly steps: { editIndex: number; changes: readonly LineChange[]; back: readonly LineChange[] }[] = [];

  constructor(private readonly originalLines: number) {}

  record(editIndex: number, changes: readonly LineChange[]): void {
    if (changes.length) this.steps.push({ editIndex, changes, back: changes.map(inverse) });
  }

  /**
   * Ranges of the current text in original numbers. Lines an edit wrote drop out: callers pass unseen lines,
   * and the lines a call writes are seen.
   */
  toOriginal(ranges: Ranges): Ranges {
    let out = ranges;
    for (let s = this.steps.length - 1; s >= 0 && out.length; s--) out = mapThrough(out, this.steps[s].back);
    return out;
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
