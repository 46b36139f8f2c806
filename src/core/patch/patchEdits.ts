/**
 * Where a parsed patch goes in a file's current text, decided exactly (no fuzz): every hunk's old lines
 * (context and removed lines) must appear as they are, in order, without overlapping; among equal places the
 * one nearest the line the hunk names wins. A file's hunks become one edit for the guard: the lines from the
 * first hunk to the last, old and new, extended by neighbouring lines until the old text is unique in the
 * file. So the guard's usual rules apply (those lines must be read; the result keeps every other byte, the
 * encoding and the line endings). When the patch no longer matches, the refusal shows where it differs.
 * Works on the text with '\n' line breaks, as the guard matches.
 */
import { toLf } from '../edit/lineEndings';
import type { Refusal } from '../refusals/refusal';
import type { FilePatch, PatchHunk, SearchReplaceBlock } from './parsePatch';

export interface PatchEdit {
  path: string;
  /** Empty: create the file with `newString`. */
  oldString: string;
  newString: string;
  /** 1-based lines of the current file the edit covers (to be read first); 0..0 for a created file. */
  firstLine: number;
  lastLine: number;
  /** The file exists but is empty: no old text can name a place, so its new content is written whole. */
  wholeFile?: true;
}

interface Span {
  /** 0-based first line and line count in the current file. */
  start: number;
  count: number;
  replacement: string[];
  /** The replacement ends the file without a final line break. */
  noFinalBreak?: boolean;
}

const stale = (path: string, message: string): Refusal => ({ ok: false, code: 'NO_OCCURRENCE_FOUND', message: `The patch no longer matches ${path}: ${message} Nothing was changed. Make the patch again from the file as it is now.` });

function splitLines(lf: string): { lines: string[]; finalBreak: boolean } {
  if (lf === '') return { lines: [], finalBreak: false };
  const finalBreak = lf.endsWith('\n');
  return { lines: (finalBreak ? lf.slice(0, -1) : lf).split('\n'), finalBreak };
}

function matchesAt(lines: readonly string[], at: number, wanted: readonly string[]): boolean {
  if (at < 0 || at + wanted.length > lines.length) return false;
  for (let i = 0; i < wanted.length; i++) if (lines[at + i] !== wanted[i]) return false;
  return true;
}

/** The place most like `wanted` (most equal lines, then nearest the hint), and its first differing line. */
function closest(lines: readonly string[], wanted: readonly string[], hint: number): { at: number; same: number } {
  let best = { at: Math.max(0, Math.min(hint, lines.length - 1)), same: -1, distance: Infinity };
  for (let at = 0; at + wanted.length <= Math.max(lines.length, wanted.length); at++) {
    let same = 0;
    for (let i = 0; i < wanted.length; i++) if (lines[at + i] === wanted[i]) same++;
    const distance = Math.abs(at - hint);
    if (same > best.same || (same === best.same && distance < best.distance)) best = { at, same, distance };
  }
  return best;
}

const show = (line: string | undefined): string => (line === undefined ? '(end of file)' : JSON.stringify(line.length > 120 ? `${line.slice(0, 117)}…` : line));

function describeMismatch(lines: readonly string[], wanted: readonly string[], hint: number, what: string): string {
  const { at } = closest(lines, wanted, hint);
  const differences: string[] = [];
  for (let i = 0; i < wanted.length && differences.length < 5; i++) {
    if (lines[at + i] !== wanted[i]) differences.push(`line ${at + i + 1}: the patch expects ${show(wanted[i])}, the file has ${show(lines[at + i])}`);
  }
  return `${what} is not in the file. Closest place, from line ${at + 1}: ${differences.join('; ')}.`;
}

function hunkSpan(path: string, lines: readonly string[], finalBreak: boolean, hunk: PatchHunk, from: number, index: number): Span | Refusal {
  const old = hunk.lines.filter((line) => line.kind !== 'add').map((line) => line.text);
  const replacement = hunk.lines.filter((line) => line.kind !== 'remove').map((line) => line.text);
  // Line numbers are the old file's, as the spans are. A hunk with no old lines inserts after its line
  // (`@@ -3,0 +4,2 @@` inserts after line 3).
  const hint = Math.max(0, old.length === 0 ? hunk.oldStart : hunk.oldStart - 1);
  let at = -1;
  if (old.length === 0) at = Math.min(Math.max(hint, from), lines.length);
  else {
    for (let candidate = from; candidate + old.length <= lines.length; candidate++) {
      if (matchesAt(lines, candidate, old) && (at === -1 || Math.abs(candidate - hint) < Math.abs(at - hint))) at = candidate;
    }
  }
  if (at === -1) return stale(path, describeMismatch(lines, old, hint, `Hunk ${index + 1} (at line ${hunk.oldStart})`));
  const endsFile = at + old.length === lines.length;
  if (hunk.oldEndsWithoutNewline && (!endsFile || finalBreak)) return stale(path, `hunk ${index + 1} expects the file to end without a line break after ${show(old[old.length - 1])}, but the file goes on.`);
  return { start: at, count: old.length, replacement, noFinalBreak: endsFile && (hunk.newEndsWithoutNewline || (!finalBreak && !hunk.oldEndsWithoutNewline)) };
}

function blockSpan(path: string, lf: string, lines: readonly string[], block: SearchReplaceBlock, from: number, index: number): Span | Refusal {
  const search = splitLines(toLf(block.search)).lines;
  if (search.length === 0) return stale(path, `block ${index + 1} has an empty SEARCH part, which only creates a file, and ${path} exists.`);
  const places: number[] = [];
  for (let at = from; at + search.length <= lines.length; at++) if (matchesAt(lines, at, search)) places.push(at);
  if (places.length === 0) return stale(path, describeMismatch(lines, search, from, `The SEARCH text of block ${index + 1}`));
  if (places.length > 1) return { ok: false, code: 'AMBIGUOUS_MATCH', message: `The SEARCH text of block ${index + 1} for ${path} appears ${places.length} times (lines ${places.map((at) => at + 1).join(', ')}). Nothing was changed. Add neighbouring lines to the SEARCH and REPLACE parts so it names one place.` };
  const at = places[0];
  const endsFile = at + search.length === lines.length;
  return { start: at, count: search.length, replacement: splitLines(toLf(block.replace)).lines, noFinalBreak: endsFile && !lf.endsWith('\n') };
}

/** Joins lines as file text: a break after each, except after the file's last when it had none. */
function joined(lines: readonly string[], breakAfterLast: boolean): string {
  return lines.length === 0 ? '' : lines.join('\n') + (breakAfterLast ? '\n' : '');
}

/** The guard edit for one file's patch, given the file's current text (undefined: it does not exist). */
export function patchEdit(file: FilePatch, current: string | undefined): PatchEdit | Refusal {
  if (file.kind === 'delete') return { ok: false, code: 'INVALID_INPUT', message: `The patch deletes ${file.path}; ReadGate applies changes to files but does not delete them. Delete it yourself, then apply the rest of the patch without that file.` };
  const created = file.kind === 'create' || (file.kind === 'replace' && file.blocks.length === 1 && file.blocks[0].search === '');
  if (created) {
    if (current !== undefined) return { ok: false, code: 'FILE_EXISTS', message: `The patch creates ${file.path}, but it exists. Nothing was changed. Remove it first, or make the patch against its current content.` };
    const content = file.kind === 'create' ? joined(file.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.kind !== 'remove').map((line) => line.text)), !file.hunks.at(-1)?.newEndsWithoutNewline) : toLf(file.blocks[0].replace);
    return { path: file.path, oldString: '', newString: content === '' ? '\n' : content, firstLine: 0, lastLine: 0 };
  }
  if (current === undefined) return { ok: false, code: 'FILE_NOT_FOUND', message: `The patch changes ${file.path}, which does not exist. Nothing was changed. Check that the patch is for this workspace.` };
  const lf = toLf(current);
  const { lines, finalBreak } = splitLines(lf);
  if (lines.length === 0 && file.kind !== 'replace') {
    const content = joined(file.hunks.flatMap((hunk) => hunk.lines.filter((line) => line.kind !== 'remove').map((line) => line.text)), !file.hunks.at(-1)?.newEndsWithoutNewline);
    if (file.hunks.some((hunk) => hunk.lines.some((line) => line.kind !== 'add'))) return stale(file.path, 'the file is empty, but the patch expects lines in it.');
    return content === '' ? { ok: false, code: 'EDIT_NO_CHANGE', message: `The patch leaves ${file.path} as it is.` } : { path: file.path, oldString: '', newString: content, firstLine: 0, lastLine: 0, wholeFile: true };
  }
  const spans: Span[] = [];
  let from = 0;
  const parts = file.kind === 'replace' ? file.blocks.length : file.hunks.length;
  for (let index = 0; index < parts; index++) {
    const span = file.kind === 'replace' ? blockSpan(file.path, lf, lines, file.blocks[index], from, index) : hunkSpan(file.path, lines, finalBreak, file.hunks[index], from, index);
    if ('ok' in span) return span;
    spans.push(span);
    from = span.start + span.count;
  }
  // One edit covering every span and what lies between them.
  let start = spans[0].start;
  let end = spans[spans.length - 1].start + spans[spans.length - 1].count;
  const rebuild = (): { oldLines: string[]; newLines: string[] } => {
    const newLines: string[] = [...lines.slice(start, spans[0].start)];
    let cursor = spans[0].start;
    for (const span of spans) {
      newLines.push(...lines.slice(cursor, span.start), ...span.replacement);
      cursor = span.start + span.count;
    }
    newLines.push(...lines.slice(cursor, end));
    return { oldLines: lines.slice(start, end), newLines };
  };
  const reachesEnd = (): boolean => end === lines.length;
  const texts = (): { oldString: string; newString: string } => {
    const { oldLines, newLines } = rebuild();
    const last = spans[spans.length - 1];
    const oldBreak = reachesEnd() ? finalBreak : true;
    const newBreak = reachesEnd() ? !(last.start + last.count === lines.length ? last.noFinalBreak : !finalBreak) : true;
    return { oldString: joined(oldLines, oldBreak), newString: joined(newLines, newBreak) };
  };
  // Grow until the old text names one place (the guard refuses an ambiguous one) and is not empty.
  let { oldString, newString } = texts();
  while (oldString === '' || occurrences(lf, oldString) > 1) {
    if (start > 0) start--;
    else if (end < lines.length) end++;
    else break;
    ({ oldString, newString } = texts());
  }
  if (oldString === newString) return { ok: false, code: 'EDIT_NO_CHANGE', message: `The patch leaves ${file.path} as it is: it has already been applied, or it changes nothing.` };
  return { path: file.path, oldString, newString, firstLine: start + 1, lastLine: Math.max(start + 1, end) };
}

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1 && count < 2; at = text.indexOf(part, at + 1)) count++;
  return count;
}
