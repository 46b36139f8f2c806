/**
 * Unified diffs, git's and plain `diff -u`'s, read as git apply reads them (apply.c: `parse_git_diff_header`
 * and its `gitdiff_*` handlers, `parse_fragment`, `parse_single_patch`), strictly: hunk line counts must add
 * up, a hunk must change something, and every section of the patch becomes one `FilePatch`. A git section
 * may have no hunk at all (a new empty file, a pure rename, a mode change): its names then come from the
 * `diff --git` line or the `rename`/`copy` lines.
 *
 * Deliberately stricter than git: lines that look like hunk lines right after a hunk's counted lines are
 * refused (git takes them for garbage between sections and ignores them), and a plain diff naming two
 * different files is refused unless they differ only in their first folder (`old/x` `new/x`).
 */
import { displayPath } from '../path/displayPath';
import { diffGitNames, headerName, plainName, stripPrefixes } from './diffPaths';
import type { BlobIndex, FilePatch, ParsedPatch, PatchChanges, PatchHunk } from './patchTypes';
import { invalidPatch } from './patchTypes';
import { sectionRefusal } from './unsupportedSections';

const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** The extended header lines of a git diff, in git's words. */
interface GitHeader {
  names?: [string, string];
  oldName?: string | null;
  newName?: string | null;
  oldMode?: string;
  newMode?: string;
  newFileMode?: string;
  deletedFileMode?: string;
  renameFrom?: string;
  renameTo?: string;
  copyFrom?: string;
  copyTo?: string;
  index?: BlobIndex;
  binary?: 'literal' | 'differ';
}

const EXTENDED: [string, (header: GitHeader, value: string) => void][] = [
  ['old mode ', (h, v) => (h.oldMode = v.trim())],
  ['new mode ', (h, v) => (h.newMode = v.trim())],
  ['deleted file mode ', (h, v) => (h.deletedFileMode = v.trim())],
  ['new file mode ', (h, v) => (h.newFileMode = v.trim())],
  ['copy from ', (h, v) => (h.copyFrom = plainName(v))],
  ['copy to ', (h, v) => (h.copyTo = plainName(v))],
  ['rename old ', (h, v) => (h.renameFrom = plainName(v))],
  ['rename new ', (h, v) => (h.renameTo = plainName(v))],
  ['rename from ', (h, v) => (h.renameFrom = plainName(v))],
  ['rename to ', (h, v) => (h.renameTo = plainName(v))],
  ['similarity index ', () => undefined],
  ['dissimilarity index ', () => undefined],
  [
    'index ',
    (h, v) => {
      const match = /^([0-9a-f]+)\.\.([0-9a-f]+)/.exec(v);
      if (match) h.index = { old: match[1], new: match[2] };
    },
  ],
];

const isFileStart = (lines: readonly string[], i: number): boolean =>
  lines[i].startsWith('diff --git ') || (lines[i].startsWith('--- ') && lines[i + 1]?.startsWith('+++ ') === true);

export function parseUnified(lines: string[]): ParsedPatch {
  const files: FilePatch[] = [];
  let i = 0;
  while (i < lines.length) {
    if (!isFileStart(lines, i)) {
      if (lines[i].startsWith('@@ ')) {
        return invalidPatch(`Line ${i + 1}: a hunk ("${lines[i]}") comes before any "--- a/file" / "+++ b/file" header naming its file.`);
      }
      i++; // prose around the diff, `From …` mail headers, `Only in …`
      continue;
    }
    const section = lines[i].startsWith('diff --git ') ? parseGitSection(lines, i) : parseTraditionalSection(lines, i);
    if ('ok' in section) return section;
    files.push(section.file);
    i = section.next;
  }
  if (files.length === 0) return invalidPatch('The diff names no file: it needs "--- a/file" and "+++ b/file" lines before its hunks.');
  return { ok: true, format: 'unified', files };
}

type Section = { file: FilePatch; next: number } | ReturnType<typeof invalidPatch>;

function parseGitSection(lines: string[], start: number): Section {
  const header: GitHeader = { names: diffGitNames(lines[start].slice('diff --git '.length)) };
  let i = start + 1;
  for (; i < lines.length; i++) {
    const line = lines[i];
    const extended = EXTENDED.find(([prefix]) => line.startsWith(prefix));
    if (extended) extended[1](header, line.slice(extended[0].length));
    else if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      header.oldName = headerName(line.slice(4)) ?? null;
      header.newName = headerName(lines[i + 1].slice(4)) ?? null;
      i++;
    } else if (line === 'GIT binary patch') header.binary = 'literal';
    else if (/^Binary files .* differ$/.test(line)) header.binary = 'differ';
    else break;
  }
  const hunks = parseHunks(lines, i);
  if ('ok' in hunks) return hunks;
  const [fromDiffGit, toDiffGit] = header.names ? stripPrefixes(header.names[0], header.names[1]) : [undefined, undefined];
  const [fromDashes, toDashes] = stripPrefixes(header.oldName ?? undefined, header.newName ?? undefined);
  const oldPath = header.renameFrom ?? header.copyFrom ?? (header.oldName === null ? undefined : (fromDashes ?? fromDiffGit));
  const newPath = header.renameTo ?? header.copyTo ?? (header.newName === null ? undefined : (toDashes ?? toDiffGit));
  const path = newPath ?? oldPath;
  if (path === undefined) {
    return invalidPatch(`Line ${start + 1}: the section "${lines[start]}" does not say which file it changes (its names could not be read).`);
  }
  const isNew = header.newFileMode !== undefined || header.oldName === null;
  const isDelete = header.deletedFileMode !== undefined || header.newName === null;
  const file = sectionFile({ header, path, oldPath: oldPath ?? path, isNew, isDelete, hunks: hunks.hunks, line: start + 1 });
  return 'ok' in file ? file : { file, next: hunks.next };
}

function parseTraditionalSection(lines: string[], start: number): Section {
  const rawOld = headerName(lines[start].slice(4));
  const rawNew = headerName(lines[start + 1].slice(4));
  if (rawOld === undefined && rawNew === undefined) return invalidPatch(`Line ${start + 1}: both sides of the file header are /dev/null.`);
  let [oldPath, newPath] = stripPrefixes(rawOld, rawNew);
  if (oldPath !== undefined && newPath !== undefined && oldPath !== newPath) {
    const [oldHead, ...oldRest] = oldPath.split('/');
    const [newHead, ...newRest] = newPath.split('/');
    if (oldRest.length > 0 && oldRest.join('/') === newRest.join('/') && oldHead !== newHead) oldPath = newPath = newRest.join('/');
    else {
      return invalidPatch(
        `Line ${start + 1}: this plain diff names two different files, ${displayPath(oldPath)} and ${displayPath(newPath)}, and cannot say which one to change (only a git diff can rename). Nothing was changed. Make the diff with the same name on both sides, or with git diff.`,
      );
    }
  }
  const hunks = parseHunks(lines, start + 2);
  if ('ok' in hunks) return hunks;
  const path = (newPath ?? oldPath)!;
  const file = sectionFile({
    header: {},
    path,
    oldPath: oldPath ?? path,
    isNew: oldPath === undefined,
    isDelete: newPath === undefined,
    hunks: hunks.hunks,
    line: start + 1,
  });
  return 'ok' in file ? file : { file, next: hunks.next };
}

interface SectionFacts {
  header: GitHeader;
  path: string;
  oldPath: string;
  isNew: boolean;
  isDelete: boolean;
  hunks: PatchHunk[];
  line: number;
}

function sectionFile({ header, path, oldPath, isNew, isDelete, hunks, line }: SectionFacts): FilePatch | ReturnType<typeof invalidPatch> {
  const refused = sectionRefusal(header, path);
  if (refused) return { kind: 'refused', path, message: refused };
  const changes: PatchChanges | undefined = hunks.length > 0 ? { format: 'unified', hunks, index: header.index } : undefined;
  if (isNew) {
    if (hunks.length > 1 || hunks.some((hunk) => hunk.oldCount > 0)) {
      return invalidPatch(
        `Line ${line}: the patch creates ${displayPath(path)} but its hunks expect old lines in it; a new file's diff has one hunk "@@ -0,0 +1,N @@" of added lines.`,
      );
    }
    const added = hunks[0]?.lines.map((l) => l.text) ?? [];
    return { kind: 'create', path, content: added.length === 0 ? '' : added.join('\n') + (hunks[0].newEndsWithoutNewline ? '' : '\n') };
  }
  if (isDelete) {
    if (hunks.length > 1 || hunks.some((hunk) => hunk.newCount > 0)) {
      return invalidPatch(
        `Line ${line}: the patch deletes ${displayPath(oldPath)} but its hunks leave lines in it; a deleted file's diff has one hunk "@@ -1,N +0,0 @@" of removed lines.`,
      );
    }
    const removed = hunks[0]?.lines.map((l) => l.text) ?? [];
    return { kind: 'delete', path: oldPath, expected: removed.length === 0 ? '' : removed.join('\n') + (hunks[0].oldEndsWithoutNewline ? '' : '\n') };
  }
  if (header.renameFrom !== undefined && header.renameTo !== undefined) return { kind: 'rename', from: header.renameFrom, path: header.renameTo, changes };
  if (header.copyFrom !== undefined && header.copyTo !== undefined) return { kind: 'copy', from: header.copyFrom, path: header.copyTo, changes };
  if (oldPath !== path) {
    return invalidPatch(
      `Line ${line}: the section's old and new names differ (${displayPath(oldPath)}, ${displayPath(path)}) but it has no "rename from"/"rename to" lines saying it renames.`,
    );
  }
  if (!changes) return invalidPatch(`Line ${line}: the patch names ${displayPath(path)} but has no hunk for it.`);
  return { kind: 'modify', path, changes };
}

function parseHunks(lines: string[], start: number): { hunks: PatchHunk[]; next: number } | ReturnType<typeof invalidPatch> {
  const hunks: PatchHunk[] = [];
  let i = start;
  while (i < lines.length && lines[i].startsWith('@@')) {
    const parsed = parseHunk(lines, i);
    if ('ok' in parsed) return parsed;
    hunks.push(parsed.hunk);
    i = parsed.next;
  }
  return { hunks, next: i };
}

/** The hunk whose header is line `at`: its counted lines and a no-newline marker after them. */
function parseHunk(lines: string[], at: number): { hunk: PatchHunk; next: number } | ReturnType<typeof invalidPatch> {
  const header = HUNK_HEADER.exec(lines[at]);
  if (!header) return invalidPatch(`Line ${at + 1}: "${lines[at]}" is not a hunk header like "@@ -12,5 +12,6 @@".`);
  const hunkLine = at + 1;
  const oldCount = header[2] === undefined ? 1 : Number(header[2]);
  const newCount = header[4] === undefined ? 1 : Number(header[4]);
  const hunk: PatchHunk = {
    oldStart: Number(header[1]),
    oldCount,
    newStart: Number(header[3]),
    newCount,
    lines: [],
    oldEndsWithoutNewline: false,
    newEndsWithoutNewline: false,
    patchLine: hunkLine,
  };
  const body = hunkBody(lines, at + 1, hunk);
  if (typeof body !== 'number') return body;
  let i = body;
  if (lines[i]?.startsWith('\\ ')) {
    markNoNewline(hunk);
    i++;
  }
  // A hunk line right after the counted ones means the header's counts are wrong: refuse rather than drop it.
  const next = lines[i];
  if (next !== undefined && /^[ +-]./.test(next) && !isFileStart(lines, i)) {
    return invalidPatch(`Line ${i + 1}: the hunk at line ${hunkLine} has more lines than its header promises (${oldCount} old, ${newCount} new).`);
  }
  if (!hunk.lines.some((line) => line.kind !== 'context')) return invalidPatch(`The hunk at line ${hunkLine} changes nothing (it has no "-" or "+" line).`);
  return { hunk, next: i };
}

/** Reads the lines the hunk's header counts into `hunk`, from line `from`; answers the line after them. */
function hunkBody(lines: string[], from: number, hunk: PatchHunk): number | ReturnType<typeof invalidPatch> {
  const { oldCount, newCount, patchLine: hunkLine } = hunk;
  let i = from;
  let oldSeen = 0;
  let newSeen = 0;
  while (oldSeen < oldCount || newSeen < newCount) {
    if (i >= lines.length) {
      return invalidPatch(
        `The hunk at line ${hunkLine} promises ${oldCount} old and ${newCount} new lines but the patch ends after ${oldSeen} and ${newSeen}. Was the patch cut off when it was copied?`,
      );
    }
    const line = lines[i];
    const marker = line[0];
    // A blank line inside a hunk is an empty context line whose leading space was lost in copying (git too).
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
    } else if (line.startsWith('\\ ')) {
      markNoNewline(hunk);
    } else {
      return invalidPatch(
        `Line ${i + 1}: "${line.slice(0, 80)}" is not a hunk line (it must start with a space, "-" or "+"); the hunk at line ${hunkLine} promises ${oldCount} old and ${newCount} new lines but has ${oldSeen} and ${newSeen}.`,
      );
    }
    if (oldSeen > oldCount || newSeen > newCount) {
      return invalidPatch(`The hunk at line ${hunkLine} has more lines than its header promises (${oldCount} old, ${newCount} new).`);
    }
    i++;
  }
  return i;
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
