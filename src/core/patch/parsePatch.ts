/**
 * A change produced anywhere (a web chat, a code review) as text: a unified diff of one or many files (git's or
 * plain `diff -u`), or search/replace blocks (`<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` after the file's
 * path). Parsing is pure and strict: hunk line counts must add up, and nothing is guessed; where the patch's
 * lines are in a file is decided later, by exact context (`patchEdits.ts`). Line endings of the patch itself
 * (CRLF from a Windows clipboard) are ignored: lines are compared without them.
 */
import type { Refusal } from '../refusals/refusal';

export interface PatchLine {
  kind: 'context' | 'remove' | 'add';
  text: string;
}

export interface PatchHunk {
  /** 1-based line the hunk starts at in the old file (a hint for choosing among equal places). */
  oldStart: number;
  lines: PatchLine[];
  /** `\ No newline at end of file` after the hunk's last old (or new) line. */
  oldEndsWithoutNewline: boolean;
  newEndsWithoutNewline: boolean;
}

export interface SearchReplaceBlock {
  search: string;
  replace: string;
}

export type FilePatch =
  | { kind: 'modify'; path: string; hunks: PatchHunk[] }
  | { kind: 'create'; path: string; hunks: PatchHunk[] }
  | { kind: 'delete'; path: string; hunks: PatchHunk[] }
  | { kind: 'replace'; path: string; blocks: SearchReplaceBlock[] };

export type ParsedPatch = { ok: true; format: 'unified' | 'search-replace'; files: FilePatch[] } | Refusal;

const invalid = (message: string): Refusal => ({ ok: false, code: 'INVALID_INPUT', message });

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const SEARCH = /^<{5,9} SEARCH\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const REPLACE = /^>{5,9} REPLACE\s*$/;

export function parsePatch(text: string): ParsedPatch {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines.some((line) => SEARCH.test(line))) return parseSearchReplace(lines);
  if (lines.some((line) => line.startsWith('@@ ')) || lines.some((line) => line.startsWith('--- '))) return parseUnified(lines);
  return invalid('This is neither a unified diff (lines "--- a/file", "+++ b/file", "@@ -1,3 +1,4 @@") nor search/replace blocks (a file path, then "<<<<<<< SEARCH", the old lines, "=======", the new lines, ">>>>>>> REPLACE"). Paste the whole change as it was produced.');
}

/** `a/src/x.ts` → `src/x.ts` (git's prefixes), without a trailing timestamp (`diff -u`) or quotes. */
function headerPath(raw: string): string | undefined {
  let value = raw.split('\t')[0].trim();
  if (value.startsWith('"') && value.endsWith('"') && value.length > 1) value = value.slice(1, -1);
  if (value === '/dev/null') return undefined;
  return value;
}

function stripPrefixes(oldPath: string | undefined, newPath: string | undefined): [string | undefined, string | undefined] {
  const prefixed = (path: string | undefined, prefix: string) => path === undefined || path.startsWith(prefix);
  if (prefixed(oldPath, 'a/') && prefixed(newPath, 'b/') && (oldPath ?? newPath) !== undefined) {
    return [oldPath?.slice(2), newPath?.slice(2)];
  }
  return [oldPath, newPath];
}

function parseUnified(lines: string[]): ParsedPatch {
  const files: FilePatch[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!(lines[i].startsWith('--- ') && lines[i + 1]?.startsWith('+++ '))) {
      if (lines[i].startsWith('@@ ')) return invalid(`Line ${i + 1}: a hunk ("${lines[i]}") comes before any "--- a/file" / "+++ b/file" header naming its file.`);
      i++; // `diff --git`, `index …`, mode lines, prose around the diff
      continue;
    }
    const [oldPath, newPath] = stripPrefixes(headerPath(lines[i].slice(4)), headerPath(lines[i + 1].slice(4)));
    const headerLine = i + 1;
    i += 2;
    if (oldPath === undefined && newPath === undefined) return invalid(`Line ${headerLine}: both sides of the file header are /dev/null.`);
    const hunks: PatchHunk[] = [];
    while (i < lines.length && lines[i].startsWith('@@')) {
      const header = HUNK_HEADER.exec(lines[i]);
      if (!header) return invalid(`Line ${i + 1}: "${lines[i]}" is not a hunk header like "@@ -12,5 +12,6 @@".`);
      const oldCount = header[2] === undefined ? 1 : Number(header[2]);
      const newCount = header[4] === undefined ? 1 : Number(header[4]);
      const hunk: PatchHunk = { oldStart: Number(header[1]), lines: [], oldEndsWithoutNewline: false, newEndsWithoutNewline: false };
      const hunkLine = i + 1;
      i++;
      let oldSeen = 0;
      let newSeen = 0;
      while (oldSeen < oldCount || newSeen < newCount) {
        if (i >= lines.length) return invalid(`The hunk at line ${hunkLine} promises ${oldCount} old and ${newCount} new lines but the patch ends after ${oldSeen} and ${newSeen}. Was the patch cut off when it was copied?`);
        const line = lines[i];
        const marker = line[0];
        // A blank line inside a hunk is an empty context line whose leading space was lost in copying.
        if (line === '' || marker === ' ') {
          hunk.lines.push({ kind: 'context', text: line.slice(1) });
          oldSeen++;
          newSeen++;
        } else if (marker === '-') {
          hunk.lines.push({ kind: 'remove', text: line.slice(1) });
          oldSeen++;
        } else if (marker === '+') {
          hunk.lines.push({ kind: 'add', text: line.slice(1) });
          newSeen++;
        } else if (marker === '\\') {
          markNoNewline(hunk);
        } else {
          return invalid(`Line ${i + 1}: "${line.slice(0, 80)}" is not a hunk line (it must start with a space, "-" or "+"); the hunk at line ${hunkLine} promises ${oldCount} old and ${newCount} new lines but has ${oldSeen} and ${newSeen}.`);
        }
        if (oldSeen > oldCount || newSeen > newCount) return invalid(`The hunk at line ${hunkLine} has more lines than its header promises (${oldCount} old, ${newCount} new).`);
        i++;
      }
      if (lines[i]?.startsWith('\\')) {
        markNoNewline(hunk);
        i++;
      }
      // A hunk line right after the counted ones means the header's counts are wrong: refuse rather than drop it.
      const next = lines[i];
      if (next !== undefined && /^[ +-]./.test(next) && !(next.startsWith('--- ') && lines[i + 1]?.startsWith('+++ '))) {
        return invalid(`Line ${i + 1}: the hunk at line ${hunkLine} has more lines than its header promises (${oldCount} old, ${newCount} new).`);
      }
      hunks.push(hunk);
    }
    if (oldPath === undefined) files.push({ kind: 'create', path: newPath!, hunks });
    else if (newPath === undefined) files.push({ kind: 'delete', path: oldPath, hunks });
    else if (oldPath !== newPath) return invalid(`Line ${headerLine}: the patch renames ${oldPath} to ${newPath}; ReadGate applies changes to files, not renames. Rename the file first, then apply the patch to ${newPath}.`);
    else if (hunks.length === 0) return invalid(`Line ${headerLine}: the patch names ${newPath} but has no hunk for it.`);
    else files.push({ kind: 'modify', path: newPath, hunks });
  }
  if (files.length === 0) return invalid('The diff names no file: it needs "--- a/file" and "+++ b/file" lines before its hunks.');
  const twice = files.find((file, index) => files.findIndex((other) => other.path === file.path) !== index);
  if (twice) return invalid(`The patch names ${twice.path} twice; combine its hunks under one header.`);
  return { ok: true, format: 'unified', files };
}

/** `\ No newline at end of file` belongs to the line just before it: old (removed or context) or new. */
function markNoNewline(hunk: PatchHunk): void {
  const last = hunk.lines[hunk.lines.length - 1];
  if (!last) return;
  if (last.kind === 'remove') hunk.oldEndsWithoutNewline = true;
  else if (last.kind === 'add') hunk.newEndsWithoutNewline = true;
  else {
    hunk.oldEndsWithoutNewline = true;
    hunk.newEndsWithoutNewline = true;
  }
}

/** A path line before a block: `src/x.ts`, `` `src/x.ts` ``, `**src/x.ts**`, `src/x.ts:`, `File: src/x.ts`. */
function pathOf(line: string): string | undefined {
  const trimmed = line.trim().replace(/^(?:file|path)\s*:\s*/i, '').replace(/^[`*#\s]+|[`*:\s]+$/g, '');
  if (!trimmed || trimmed.startsWith('```') || /\s{2,}/.test(trimmed) || trimmed.length > 400) return undefined;
  return /[\w.-]/.test(trimmed) ? trimmed : undefined;
}

function parseSearchReplace(lines: string[]): ParsedPatch {
  const files: FilePatch[] = [];
  let path: string | undefined;
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!SEARCH.test(line)) {
      if (line.trim() !== '' && !line.trim().startsWith('```')) path = pathOf(line) ?? path;
      i++;
      continue;
    }
    const start = i + 1;
    if (!path) return invalid(`Line ${start}: the block has no file path before it; put the path on the line above "<<<<<<< SEARCH" (or above its code fence).`);
    const search: string[] = [];
    const replace: string[] = [];
    i++;
    while (i < lines.length && !DIVIDER.test(lines[i])) search.push(lines[i++]);
    if (i >= lines.length) return invalid(`The block at line ${start} has no "=======" line.`);
    i++;
    while (i < lines.length && !REPLACE.test(lines[i])) {
      if (SEARCH.test(lines[i]) || DIVIDER.test(lines[i])) return invalid(`The block at line ${start} has no ">>>>>>> REPLACE" line before line ${i + 1}.`);
      replace.push(lines[i++]);
    }
    if (i >= lines.length) return invalid(`The block at line ${start} has no ">>>>>>> REPLACE" line.`);
    i++;
    const block = { search: search.join('\n'), replace: replace.join('\n') };
    const file = files.find((candidate): candidate is Extract<FilePatch, { kind: 'replace' }> => candidate.path === path && candidate.kind === 'replace');
    if (file) file.blocks.push(block);
    else files.push({ kind: 'replace', path, blocks: [block] });
  }
  return { ok: true, format: 'search-replace', files };
}
