/**
 * Coverage: the 1-based line ranges of one file version that a session has seen (or been shown).
 *
 * Stored flat (`[from1, to1, from2, to2, ...]`, inclusive, sorted, disjoint, non-adjacent) because a ledger
 * holds thousands of these and nested arrays cost ~50% more memory. Every function is pure and returns a
 * new array. Mapping through `LineChange`s is how coverage survives an edit or a harmless external change:
 * unchanged lines keep being seen at their new numbers, changed lines drop out.
 */

export type Ranges = readonly number[];

/**
 * Old lines `[oldFrom, oldTo)` were replaced by new lines `[newFrom, newTo)` (1-based, half-open).
 * An insertion has `oldFrom === oldTo` (inserted before old line `oldFrom`); a deletion `newFrom === newTo`.
 */
export interface LineChange {
  oldFrom: number;
  oldTo: number;
  newFrom: number;
  newTo: number;
}

export const EMPTY: Ranges = [];

export function rangesOf(from: number, to: number): Ranges {
  return to >= from ? [from, to] : EMPTY;
}

export function union(a: Ranges, b: Ranges): Ranges {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const pairs: [number, number][] = [];
  for (let i = 0; i < a.length; i += 2) pairs.push([a[i], a[i + 1]]);
  for (let i = 0; i < b.length; i += 2) pairs.push([b[i], b[i + 1]]);
  pairs.sort((x, y) => x[0] - y[0]);
  const out: number[] = [];
  for (const [from, to] of pairs) {
    const last = out.length - 1;
    if (last > 0 && from <= out[last] + 1) out[last] = Math.max(out[last], to);
    else out.push(from, to);
  }
  return out;
}

export function add(ranges: Ranges, from: number, to: number): Ranges {
  return union(ranges, rangesOf(from, to));
}

/** True when every line of `[from, to]` is covered (an empty span is covered). */
export function covers(ranges: Ranges, from: number, to: number): boolean {
  if (to < from) return true;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i] <= from && to <= ranges[i + 1]) return true;
  }
  return false;
}

export function intersects(ranges: Ranges, from: number, to: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i] <= to && from <= ranges[i + 1]) return true;
  }
  return false;
}

/** The parts of `[from, to]` not covered, as ranges. */
export function gaps(ranges: Ranges, from: number, to: number): Ranges {
  const out: number[] = [];
  let next = from;
  for (let i = 0; i < ranges.length && next <= to; i += 2) {
    const [start, end] = [ranges[i], ranges[i + 1]];
    if (end < next) continue;
    if (start > to) break;
    if (start > next) out.push(next, start - 1);
    next = Math.max(next, end + 1);
  }
  if (next <= to) out.push(next, to);
  return out;
}

/** Restricts ranges to `[1, lineCount]`. */
export function clamp(ranges: Ranges, lineCount: number): Ranges {
  const out: number[] = [];
  for (let i = 0; i < ranges.length; i += 2) {
    const from = Math.max(1, ranges[i]);
    const to = Math.min(lineCount, ranges[i + 1]);
    if (to >= from) out.push(from, to);
  }
  return out;
}

export function lineTotal(ranges: Ranges): number {
  let total = 0;
  for (let i = 0; i < ranges.length; i += 2) total += ranges[i + 1] - ranges[i] + 1;
  return total;
}

/**
 * Whether a change touches covered lines: a replaced or deleted old line is covered, or lines were inserted
 * strictly inside a covered block (both neighbours covered), which breaks the adjacency the agent saw.
 */
export function isTouchedBy(ranges: Ranges, change: LineChange): boolean {
  if (change.oldTo > change.oldFrom) return intersects(ranges, change.oldFrom, change.oldTo - 1);
  return covers(ranges, change.oldFrom - 1, change.oldFrom);
}

/** Maps covered old lines through sorted changes to new line numbers; changed old lines drop out. */
export function mapThrough(ranges: Ranges, changes: readonly LineChange[]): Ranges {
  if (changes.length === 0) return ranges;
  const out: number[] = [];
  const push = (from: number, to: number): void => {
    if (to < from) return;
    const last = out.length - 1;
    if (last > 0 && from <= out[last] + 1) out[last] = Math.max(out[last], to);
    else out.push(from, to);
  };
  for (let i = 0; i < ranges.length; i += 2) {
    let from = ranges[i];
    const to = ranges[i + 1];
    let delta = 0;
    for (const change of changes) {
      if (from > to) break;
      if (change.oldFrom > to) break;
      // Unchanged stretch before this change keeps the delta accumulated so far.
      if (from < change.oldFrom) {
        push(from + delta, Math.min(to, change.oldFrom - 1) + delta);
        from = change.oldFrom;
      }
      from = Math.max(from, change.oldTo);
      delta = change.newTo - change.oldTo;
    }
    push(from + delta, to + delta);
  }
  return out;
}

/** The new-side lines of changes (what an edit wrote), as ranges. */
export function newSide(changes: readonly LineChange[]): Ranges {
  let out: Ranges = EMPTY;
  for (const change of changes) out = add(out, change.newFrom, change.newTo - 1);
  return out;
}

/** "1–20, 40–45" for messages. */
export function formatRanges(ranges: Ranges): string {
  const parts: string[] = [];
  for (let i = 0; i < ranges.length; i += 2) {
    parts.push(ranges[i] === ranges[i + 1] ? `${ranges[i]}` : `${ranges[i]}–${ranges[i + 1]}`);
  }
  return parts.length ? parts.join(', ') : 'none';
}
