/**
 * Where the hunks of a unified diff go, decided by git apply's rules (apply.c: `apply_one_fragment`,
 * `find_pos`, `match_fragment`) with no fuzz, one hunk after another in the file as the hunks before left it:
 *
 * - A hunk's old lines (context and removed, each with or without its line break) must be equal to lines of
 *   the file, none of them written by an earlier hunk of the same diff.
 * - The search starts at the hunk's new-side line and alternates outwards (+1, -1, +2, -2, …): the nearest
 *   place wins, the later one on a tie.
 * - A hunk without context after its change must end the file; one without context before its change that
 *   starts at line 1 (or line 0) must start it (git's match_end and match_beginning; with `unidiffZero`, as
 *   `git apply --unidiff-zero`, only a hunk at line 0 is anchored).
 * - A hunk with no context line at all (a `-U0` diff) names its place by line numbers alone, so it is placed
 *   only when the file is byte for byte the version the diff's `index` line names, or with `unidiffZero`;
 *   otherwise it is refused. git apply refuses such hunks too unless they happen to end the file; ReadGate
 *   refuses those as well, since nothing but line numbers placed them. One at line 1 (or 0) is the exception:
 *   anchored at both ends, it must be the whole file, so its content places it (a small file whose every line
 *   changed has such a diff).
 *
 * Deliberately unlike git apply:
 * - The search for hunk N starts at its named line plus the offset at which hunk N-1 was found (GNU patch
 *   does this; git starts at the named line): when lines were added above, a copy of the hunk's lines sitting
 *   at its old line number does not win over the hunk's real place. `followOffsets: false` gives git's rule.
 * - An old line marked `\ No newline at end of file` matches only the file's last line without a line break.
 *   git compares bytes as a prefix there and, on a file that has grown, joins two lines into one.
 */
import type { Refusal } from '../refusals/refusal';
import type { Line, LineImage } from './lineImage';
import { closestPlace, differences, exactLines, exactPlaces, lineName, range, spanName, stale } from './mismatch';
import type { PatchHunk } from './patchTypes';
import { invalidInput } from '../refusals/invalidInput';

export interface HunkRules {
  /** Place hunks without context by their line numbers (git apply --unidiff-zero). */
  unidiffZero: boolean;
  followOffsets: boolean;
  /** Why context-free hunks may (undefined) or may not be placed by line numbers: the file is not provably the diff's base. */
  notTheBase?: string;
}

interface Prepared {
  pre: Line[];
  post: Line[];
  trailing: number;
}

function prepare(hunk: PatchHunk): Prepared {
  const pre = hunk.lines.filter((line) => line.kind !== 'add').map((line) => ({ text: line.text, eol: true }));
  const post = hunk.lines.filter((line) => line.kind !== 'remove').map((line) => ({ text: line.text, eol: true }));
  if (hunk.oldEndsWithoutNewline && pre.length > 0) pre[pre.length - 1].eol = false;
  if (hunk.newEndsWithoutNewline && post.length > 0) post[post.length - 1].eol = false;
  const last = hunk.lines.length - 1 - [...hunk.lines].reverse().findIndex((line) => line.kind !== 'context');
  return { pre, post, trailing: hunk.lines.length - 1 - last };
}

function matchesAt(image: LineImage, pre: readonly Line[], at: number, beginning: boolean, end: boolean): boolean {
  if (at < 0 || at + pre.length > image.length) return false;
  if (end && at + pre.length !== image.length) return false;
  if (beginning && at !== 0) return false;
  for (let i = 0; i < pre.length; i++) if (image.isPatched(at + i) || !exactLines(image.line(at + i), pre[i], false)) return false;
  return true;
}

/** git's `find_pos`: from `line`, alternately one further forwards and one further backwards. */
export function findPos(image: LineImage, pre: readonly Line[], line: number, beginning: boolean, end: boolean): number {
  let start = beginning ? 0 : end ? image.length - pre.length : line;
  if (start < 0 || start > image.length) start = image.length;
  let backwards = start;
  let forwards = start;
  let current = start;
  for (let i = 0; ; i++) {
    if (matchesAt(image, pre, current, beginning, end)) return current;
    for (;;) {
      if (backwards === 0 && forwards === image.length) return -1;
      if (i & 1) {
        if (backwards === 0) {
          i++;
          continue;
        }
        current = --backwards;
      } else {
        if (forwards === image.length) {
          i++;
          continue;
        }
        current = ++forwards;
      }
      break;
    }
  }
}

/** Places every hunk in `image` (one section of a diff), or says why one cannot be placed. */
export function placeHunks(path: string, image: LineImage, hunks: readonly PatchHunk[], rules: HunkRules): Refusal | undefined {
  image.newSection();
  const names = new Map<number, string>();
  const partName = (part: number): string => names.get(part) ?? 'an earlier part of the patch';
  let offset = 0;
  let delta = 0;
  for (let n = 0; n < hunks.length; n++) {
    const hunk = hunks[n];
    const { pre, post, trailing } = prepare(hunk);
    const contextFree = hunk.lines.every((line) => line.kind !== 'context');
    // Unproven base: a hunk without context at line 1 (or 0) may still be the whole file (git anchors it at
    // both ends), which its content then proves, as for a small file all of whose lines changed.
    const wholeFile = contextFree && !rules.unidiffZero && rules.notTheBase !== undefined && hunk.oldStart <= 1 && findPos(image, pre, 0, true, true) >= 0;
    const zero = rules.unidiffZero || (contextFree && !wholeFile && rules.notTheBase === undefined);
    if (contextFree && !wholeFile && !zero) return contextFreeRefusal(path, n + 1, hunk, rules.notTheBase!);
    const beginning = !hunk.oldStart || (hunk.oldStart === 1 && !zero);
    const end = !zero && trailing === 0;
    const named = hunk.newStart ? hunk.newStart - 1 : 0;
    let at: number;
    if (contextFree && !wholeFile && !rules.unidiffZero) {
      // The file is the diff's base: the hunk goes exactly where its old line numbers say (a zero-length range
      // names the line before it), moved by what the hunks before it added and removed.
      at = (hunk.oldCount === 0 ? hunk.oldStart : hunk.oldStart - 1) + delta;
      if (!matchesAt(image, pre, at, false, false)) at = -1;
    } else at = findPos(image, pre, named + (rules.followOffsets && !contextFree ? offset : 0), beginning, end);
    if (at < 0) return stale(path, describe(image, { n: n + 1, hunk, pre, beginning, end, hint: named + offset, partName }));
    const part = image.newPart();
    names.set(part, `hunk ${n + 1}`);
    image.replace(at, pre.length, post, part);
    delta += post.length - pre.length;
    // A hunk without context says nothing about where the file's lines moved: only hunks found by context do.
    if (!contextFree) offset = at - named;
  }
  return undefined;
}

function contextFreeRefusal(path: string, n: number, hunk: PatchHunk, why: string): Refusal {
  return invalidInput.patchContextFree(path, n, hunk.oldStart, why);
}

interface Failure {
  n: number;
  hunk: PatchHunk;
  pre: Line[];
  beginning: boolean;
  end: boolean;
  hint: number;
  partName: (part: number) => string;
}

function describe(image: LineImage, { n, hunk, pre, beginning, end, hint, partName }: Failure): string {
  const what = `hunk ${n} (at line ${hunk.oldStart} in the patch)`;
  const places = exactPlaces(image, pre, exactLines);
  const free = places.filter((at) => pre.every((_, i) => !image.isPatched(at + i)));
  if (free.length > 0) {
    const at = free.reduce((best, candidate) => (Math.abs(candidate - hint) < Math.abs(best - hint) ? candidate : best));
    const lines = spanName(image, at, pre.length, partName);
    if (end && at + pre.length !== image.length) {
      const next = at + pre.length;
      return `${what} has no context lines after its change, so it must be at the end of the file (git's rule), but its lines are at ${lines} and the file goes on: ${lineName(image, next, partName)} has ${image.quote(next)}.`;
    }
    return `${what} has no context lines before its change and starts at line ${hunk.oldStart}, so it must be at the start of the file (git's rule), but its lines are at ${lines}, after ${lineName(image, 0, partName)} ${image.quote(0)}.`;
  }
  if (places.length > 0) {
    const at = places[0];
    const writer = pre.map((_, i) => at + i).find((index) => image.isPatched(index))!;
    return `${what} matches only at ${spanName(image, at, pre.length, partName)}, which overlaps what ${partName(image.partOf(writer))} already changes: hunks must not overlap.`;
  }
  const last = image.length - pre.length;
  const candidates = beginning ? [0] : end ? [Math.max(0, last)] : range(0, Math.max(0, last));
  const at = closestPlace(image, pre, candidates, hint, exactLines);
  const anchor = beginning ? ' (it must be at the start of the file)' : end ? ' (it must be at the end of the file)' : '';
  return `${what} is not in the file${anchor}. Closest place, from ${lineName(image, at, partName)}: ${differences(image, pre, at, exactLines, partName).join('; ')}.`;
}
