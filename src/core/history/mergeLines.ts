/**
 * Three-way merge of lines, for reverts: base = the change's after, ours = the file now, theirs = the change's
 * before. node-diff3 (Khanna, Kunal and Pierce's diff3) finds the regions; this module only walks them, keeps
 * ours where they conflict, and remembers for every output line which line of ours it is.
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
 * Lines common to all three at the start and the end are set aside before the diff, which keeps a revert of a
 * small change in a large file cheap; it changes no decision, as such lines are in no hunk.
 */
import { diff3MergeRegions, diffIndices } from 'node-diff3';

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

/** For each base line that ours kept, its index in ours (diff3's own diff, so it agrees with its regions). */
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

const sameLines = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((line, i) => line === b[i]);

export function mergeLines(base: readonly string[], ours: readonly string[], theirs: readonly string[]): MergedLines {
  const { head, tail } = commonEnds(base, ours, theirs);
  const mid = (lines: readonly string[]): string[] => lines.slice(head, lines.length - tail);
  const [o, a, b] = [mid(base), mid(ours), mid(theirs)];
  const lines: string[] = ours.slice(0, head);
  const origins: number[] = lines.map((_, i) => i);
  const conflicts: MergeConflict[] = [];
  const keepOurs = (start: number, length: number): void => {
    for (let i = start; i < start + length; i++) {
      lines.push(a[i]);
      origins.push(head + i);
    }
  };
  const toOurs = baseToOurs(o, a);
  for (const region of diff3MergeRegions(a, o, b)) {
    if (region.stable && region.buffer === 'o') {
      for (let i = region.bufferStart; i < region.bufferStart + region.bufferLength; i++) {
        lines.push(o[i]);
        origins.push(toOurs[i] >= 0 ? head + toOurs[i] : -1);
      }
    } else if (region.stable && region.buffer === 'a') {
      keepOurs(region.bufferStart, region.bufferLength);
    } else if (region.stable) {
      for (const line of region.bufferContent) {
        lines.push(line);
        origins.push(-1);
      }
    } else {
      keepOurs(region.aStart, region.aLength);
      const alreadyThere = sameLines(region.aContent, region.bContent);
      conflicts.push({ oursStart: head + region.aStart, oursLength: region.aLength, wanted: region.bContent, alreadyThere });
    }
  }
  for (let i = ours.length - tail; i < ours.length; i++) {
    lines.push(ours[i]);
    origins.push(i);
  }
  return { lines, origins, conflicts };
}

/** The runs of ours that differ from base (0-based start and count in ours), for showing what changed since. */
export function changedRuns(base: readonly string[], ours: readonly string[]): { oursStart: number; oursLength: number }[] {
  return diffIndices([...base], [...ours]).map((hunk) => ({ oursStart: hunk.buffer2[0], oursLength: hunk.buffer2[1] }));
}
