/**
 * Sets of 1-based lines as flat ranges (`[from1, to1, from2, to2, ...]`, inclusive, sorted, disjoint,
 * non-adjacent; flat because a ledger holds thousands and nested arrays cost ~50% more memory), and line changes
 * to map them through. Pure: what a session has seen, what an edit wrote and what a diff shows are all ranges.
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

/** Appends `[from, to]` to ranges built in order of `from`, joining it to the last one it overlaps or touches. */
function append(out: number[], from: number, to: number): void {
  const last = out.length - 1;
  if (last > 0 && from <= out[last] + 1) out[last] = Math.max(out[last], to);
  else out.push(from, to);
}

/** Both are sorted, so one merge pass (linear: an edit call updates coverage once per edit). */
export function union(a: Ranges, b: Ranges): Ranges {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] <= b[j])) {
      append(out, a[i], a[i + 1]);
      i += 2;
    } else {
      append(out, b[j], b[j + 1]);
      j += 2;
    }
  }
  return out;
}

/** Flat pairs already in ascending order of their start, possibly overlapping or adjacent, as Ranges. */
export function merged(pairs: readonly number[]): Ranges {
  const out: number[] = [];
  for (let i = 0; i < pairs.length; i += 2) if (pairs[i + 1] >= pairs[i]) append(out, pairs[i], pairs[i + 1]);
  return out;
}

/** Index (even) of the first range that ends at or after `line`; ranges.length when none does. */
function firstEndingFrom(ranges: Ranges, line: number): number {
  let low = 0;
  let high = ranges.length >> 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ranges[2 * mid + 1] < line) low = mid + 1;
    else high = mid;
  }
  return 2 * low;
}

export function add(ranges: Ranges, from: number, to: number): Ranges {
  return union(ranges, rangesOf(from, to));
}

/** The lines in both. */
export function intersect(a: Ranges, b: Ranges): Ranges {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const from = Math.max(a[i], b[j]);
    const to = Math.min(a[i + 1], b[j + 1]);
    if (from <= to) append(out, from, to);
    if (a[i + 1] < b[j + 1]) i += 2;
    else j += 2;
  }
  return out;
}

/** True when every line of `[from, to]` is covered (an empty span is covered). */
export function covers(ranges: Ranges, from: number, to: number): boolean {
  if (to < from) return true;
  const i = firstEndingFrom(ranges, to);
  return i < ranges.length && ranges[i] <= from;
}

export function intersects(ranges: Ranges, from: number, to: number): boolean {
  const i = firstEndingFrom(ranges, from);
  return i < ranges.length && ranges[i] <= to;
}

/** The parts of `[from, to]` not covered, as ranges. */
export function gaps(ranges: Ranges, from: number, to: number): Ranges {
  const out: number[] = [];
  let next = from;
  for (let i = firstEndingFrom(ranges, from); i < ranges.length && next <= to; i += 2) {
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

/**
 * Maps covered old lines through sorted changes to new line numbers; changed old lines drop out. This is how what
 * a session saw survives an edit or a harmless outside change: unchanged lines keep being seen at their new numbers.
 */
export function mapThrough(ranges: Ranges, changes: readonly LineChange[]): Ranges {
  if (changes.length === 0) return ranges;
  const out: number[] = [];
  const push = (from: number, to: number): void => {
    if (to >= from) append(out, from, to);
  };
  // Changes that end before a range only shift it; ranges ascend, so those are skipped once, not per range.
  let skipped = 0;
  let shift = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    let from = ranges[i];
    const to = ranges[i + 1];
    while (skipped < changes.length && changes[skipped].oldTo <= from) {
      shift = changes[skipped].newTo - changes[skipped].oldTo;
      skipped++;
    }
    let delta = shift;
    for (let c = skipped; c < changes.length; c++) {
      const change = changes[c];
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
  const out: number[] = [];
  for (const change of changes) if (change.newTo > change.newFrom) append(out, change.newFrom, change.newTo - 1);
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
