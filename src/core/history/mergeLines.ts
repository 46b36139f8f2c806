/**
 * Three-way merge of lines, for reverts: base = the change's after, ours = the file now, theirs = the change's
 * before. node-diff3 (Khanna, Kunal and Pierce's diff3) merges; this module keeps ours where they conflict,
 * remembers for every output line which line of ours it is, and keeps the work small on large files.
 *
 * The conflict rule is diff3's: the base's lines changed on each side are grouped into hunks (a run of base
 * lines replaced or removed, or an insertion between two base lines), and hunks of the two sides conflict when
 * they overlap or touch: they share a base line, or one ends where the other starts (adjacent lines, or two
 * insertions at the same place, or an insertion right before or after a replaced run). Touching counts because
 * nothing tells which order the two sides' lines would go in, or whether a line written next to the other
 * change was meant for the text it now stands beside. A region where ours already holds exactly what theirs
 * would write is still a conflict, marked `alreadyThere` (diff3 calls it a false conflict and would take it):
 * for a revert it means a change made since already undid these lines, and deciding silently that nothing is
 * left to do would let a later revert of that change bring them back unasked.
 *
 * Large files: node-diff3 finds hunks with a longest common subsequence whose cost grows with the product of a
 * file's repeated lines (a 20,000-line file took 27 s for a one-line revert), so it never sees a whole file.
 * Lines common to all three at both ends are set aside, both sides are diffed against the base with jsdiff's
 * Myers diff (fast when the changes are few; past `MAX_EDIT_LENGTH` a side counts as one hunk over the whole
 * middle), and those hunks are grouped by the rule above into windows: a group touching only one side is that
 * side's lines, and only a window where both sides changed goes to node-diff3. Cutting at a line neither side
 * changed cannot join or split a conflict: hunks on either side of it can neither overlap nor touch. A window
 * longer than `MAX_WINDOW_LINES`, or whose lines repeat so much that node-diff3 would meet more than
 * `MAX_EQUAL_PAIRS` pairs of equal lines, is one conflict as a whole, never a guess. With lines that repeat, jsdiff and
 * node-diff3 may align equal lines differently; either alignment is a valid merge, and with unique lines both
 * are the same.
 */
import { diffArrays } from 'diff';
import { diff3MergeRegions, diffIndices } from 'node-diff3';

const MAX_EDIT_LENGTH = 1000;
const MAX_WINDOW_LINES = 2000;
/** Most pairs of equal lines node-diff3's diff may meet in one window (its cost grows with them). */
const MAX_EQUAL_PAIRS = 400_000;

export interface MergeConflict {
  /** Where in ours (0-based first line, and count; 0 lines: the place before `oursStart`). */
  oursStart: number;
  oursLength: number;
  /** What theirs would put there. */
  wanted: string[];
  /** Ours already holds exactly `wanted` there. */
  alreadyThere: boolean;
}

export interface MergedLines {
  lines: string[];
  /** For each output line, the index of the line of ours it is, or -1 for a line theirs brought. */
  origins: number[];
  conflicts: MergeConflict[];
}

/** Base lines `[start, end)` replaced by the other side's lines `[otherStart, otherEnd)`. */
interface Hunk {
  side: 'ours' | 'theirs';
  start: number;
  end: number;
  otherStart: number;
  otherEnd: number;
}

const sameLines = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((line, i) => line === b[i]);

function commonEnds(base: readonly string[], ours: readonly string[], theirs: readonly string[]): { head: number; tail: number } {
  const shortest = Math.min(base.length, ours.length, theirs.length);
  let head = 0;
  while (head < shortest && base[head] === ours[head] && base[head] === theirs[head]) head++;
  let tail = 0;
  while (tail < shortest - head) {
    const line = base[base.length - 1 - tail];
    if (ours[ours.length - 1 - tail] !== line || theirs[theirs.length - 1 - tail] !== line) break;
    tail++;
  }
  return { head, tail };
}

function hunksOf(side: Hunk['side'], base: string[], other: string[]): Hunk[] {
  if (sameLines(base, other)) return [];
  const parts = diffArrays(base, other, { maxEditLength: MAX_EDIT_LENGTH });
  if (!parts) return [{ side, start: 0, end: base.length, otherStart: 0, otherEnd: other.length }];
  const hunks: Hunk[] = [];
  let b = 0;
  let o = 0;
  for (const part of parts) {
    const count = part.count ?? part.value.length;
    if (part.added || part.removed) {
      const last = hunks[hunks.length - 1];
      const open = last && last.end === b && last.otherEnd === o ? last : hunks[hunks.push({ side, start: b, end: b, otherStart: o, otherEnd: o }) - 1];
      if (part.removed) open.end = b += count;
      else open.otherEnd = o += count;
    } else {
      b += count;
      o += count;
    }
  }
  return hunks;
}

/** Hunks grouped by diff3's rule: a hunk joins the group its base lines overlap or touch. */
function groupsOf(hunks: Hunk[]): Hunk[][] {
  const sorted = [...hunks].sort((x, y) => x.start - y.start);
  const groups: Hunk[][] = [];
  let end = -1;
  for (const hunk of sorted) {
    if (groups.length && hunk.start <= end) groups[groups.length - 1].push(hunk);
    else groups.push([hunk]);
    end = groups[groups.length - 1].length === 1 ? hunk.end : Math.max(end, hunk.end);
  }
  return groups;
}

/** Collects the merged lines; `ours` offsets are of the whole file. */
class Output implements MergedLines {
  readonly lines: string[] = [];
  readonly origins: number[] = [];
  readonly conflicts: MergeConflict[] = [];

  ours(lines: readonly string[], from: number, to: number, offset: number): void {
    for (let i = from; i < to; i++) {
      this.lines.push(lines[i]);
      this.origins.push(offset + i);
    }
  }

  theirs(lines: readonly string[]): void {
    for (const line of lines) {
      this.lines.push(line);
      this.origins.push(-1);
    }
  }

  conflict(ours: readonly string[], theirs: string[], offset: number): void {
    this.ours(ours, 0, ours.length, offset);
    this.conflicts.push({ oursStart: offset, oursLength: ours.length, wanted: theirs, alreadyThere: sameLines(ours, theirs) });
  }
}

/** For each base line that ours kept, its index in ours (node-diff3's own diff, so it agrees with its regions). */
function baseToOurs(base: string[], ours: string[]): Int32Array {
  const map = new Int32Array(base.length).fill(-1);
  let b = 0;
  let o = 0;
  for (const hunk of diffIndices(base, ours)) {
    while (b < hunk.buffer1[0]) map[b++] = o++;
    b += hunk.buffer1[1];
    o += hunk.buffer2[1];
  }
  while (b < base.length) map[b++] = o++;
  return map;
}

/** How many pairs of equal lines a diff of `base` with each of `others` compares (what its cost grows with). */
function equalPairs(base: readonly string[], others: readonly string[][]): number {
  const counts = new Map<string, number>();
  for (const line of base) counts.set(line, (counts.get(line) ?? 0) + 1);
  let pairs = 0;
  for (const other of others) for (const line of other) pairs += counts.get(line) ?? 0;
  return pairs;
}

/** A window both sides changed, merged by node-diff3; `offset` is where `a` starts in the whole of ours. */
function mergeWindow(out: Output, a: string[], o: string[], b: string[], offset: number): void {
  if (Math.max(a.length, o.length, b.length) > MAX_WINDOW_LINES || equalPairs(o, [a, a, b]) > MAX_EQUAL_PAIRS) return out.conflict(a, b, offset);
  const toOurs = baseToOurs(o, a);
  for (const region of diff3MergeRegions(a, o, b)) {
    if (!region.stable) {
      out.conflict(region.aContent, region.bContent, offset + region.aStart);
    } else if (region.buffer === 'o') {
      for (let i = region.bufferStart; i < region.bufferStart + region.bufferLength; i++) {
        out.lines.push(o[i]);
        out.origins.push(toOurs[i] >= 0 ? offset + toOurs[i] : -1);
      }
    } else if (region.buffer === 'a') {
      out.ours(a, region.bufferStart, region.bufferStart + region.bufferLength, offset);
    } else {
      out.theirs(region.bufferContent);
    }
  }
}

export function mergeLines(base: readonly string[], ours: readonly string[], theirs: readonly string[]): MergedLines {
  const { head, tail } = commonEnds(base, ours, theirs);
  const o = base.slice(head, base.length - tail);
  const a = ours.slice(head, ours.length - tail);
  const b = theirs.slice(head, theirs.length - tail);
  const out = new Output();
  out.ours(ours, 0, head, 0);
  let baseAt = 0;
  let oursAt = 0;
  let theirsAt = 0;
  for (const group of groupsOf([...hunksOf('ours', o, a), ...hunksOf('theirs', o, b)])) {
    const start = group[0].start;
    const end = Math.max(...group.map((hunk) => hunk.end));
    const grown = (side: Hunk['side']) =>
      group.filter((hunk) => hunk.side === side).reduce((sum, h) => sum + (h.otherEnd - h.otherStart) - (h.end - h.start), 0);
    out.ours(a, oursAt, oursAt + (start - baseAt), head);
    oursAt += start - baseAt;
    theirsAt += start - baseAt;
    const oursEnd = oursAt + (end - start) + grown('ours');
    const theirsEnd = theirsAt + (end - start) + grown('theirs');
    const sides = new Set(group.map((hunk) => hunk.side));
    if (sides.size === 2) mergeWindow(out, a.slice(oursAt, oursEnd), o.slice(start, end), b.slice(theirsAt, theirsEnd), head + oursAt);
    else if (sides.has('ours')) out.ours(a, oursAt, oursEnd, head);
    else out.theirs(b.slice(theirsAt, theirsEnd));
    [baseAt, oursAt, theirsAt] = [end, oursEnd, theirsEnd];
  }
  out.ours(a, oursAt, a.length, head);
  out.ours(ours, ours.length - tail, ours.length, 0);
  return out;
}

/** The runs of ours that differ from base (0-based start and count in ours), for showing what changed since. */
export function changedRuns(base: readonly string[], ours: readonly string[]): { oursStart: number; oursLength: number }[] {
  return hunksOf('ours', [...base], [...ours]).map((hunk) => ({ oursStart: hunk.otherStart, oursLength: hunk.otherEnd - hunk.otherStart }));
}
