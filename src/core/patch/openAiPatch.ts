/**
 * OpenAI's apply_patch format, as Codex and Copilot's `apply_patch` tool for GPT models use it, read with the
 * rules of codex's parser (`codex-rs/apply-patch/src/parser.rs`):
 *
 *     *** Begin Patch
 *     *** Add File: <path>        then lines "+<text>": the new file's lines
 *     *** Delete File: <path>
 *     *** Update File: <path>
 *     *** Move to: <new path>     optional, right after Update File
 *     @@ <context line>           optional for the first chunk; several narrow the place step by step
 *      <context> / -<old> / +<new> lines; an empty line is an empty context line
 *     *** End of File             optional after a chunk: its old lines end the file
 *     *** End Patch
 *
 * Marker lines are compared with surrounding whitespace removed (`*** Begin Patch `, `  *** Update File: x`),
 * as codex's lenient parser does; `*** Move to:` and `*** End of File` must be exact. Blank lines between
 * chunks are skipped. Where the chunks go is decided in `placeChunks.ts`.
 *
 * Unlike codex, text before `*** Begin Patch` and after `*** End Patch` (a chat's prose around the patch, a
 * shell heredoc's `<<'EOF'` lines) is ignored rather than refused.
 */
import { displayPath } from '../path/displayPath';
import type { FilePatch, ParsedPatch, UpdateChunk } from './patchTypes';
import { invalidPatch } from './patchTypes';

export const BEGIN_PATCH = '*** Begin Patch';
const END_PATCH = '*** End Patch';
const ADD_FILE = '*** Add File: ';
const DELETE_FILE = '*** Delete File: ';
const UPDATE_FILE = '*** Update File: ';
const MOVE_TO = '*** Move to: ';
const END_OF_FILE = '*** End of File';

export function parseApplyPatch(lines: string[]): ParsedPatch {
  const begin = lines.findIndex((line) => line.trim() === BEGIN_PATCH);
  let end = -1;
  for (let i = lines.length - 1; i > begin; i--) {
    if (lines[i].trim() === END_PATCH) {
      end = i;
      break;
    }
  }
  if (end === -1) {
    return invalidPatch(
      `Line ${begin + 1} begins an apply_patch patch ("${BEGIN_PATCH}"), but no "${END_PATCH}" line ends it. Was the patch cut off when it was copied?`,
    );
  }
  const files: FilePatch[] = [];
  let i = begin + 1;
  while (i < end) {
    const section = parseSection(lines, i, end);
    if ('ok' in section) return section;
    files.push(section.file);
    i = section.next;
  }
  if (files.length === 0) {
    return invalidPatch(`The apply_patch patch at line ${begin + 1} holds no file section ("${ADD_FILE}", "${DELETE_FILE}" or "${UPDATE_FILE}").`);
  }
  return { ok: true, format: 'apply-patch', files };
}

type Parsed<T> = T | ReturnType<typeof invalidPatch>;

function parseSection(lines: string[], start: number, end: number): Parsed<{ file: FilePatch; next: number }> {
  const header = lines[start].trim();
  if (header.startsWith(ADD_FILE)) {
    const path = header.slice(ADD_FILE.length);
    let content = '';
    let i = start + 1;
    for (; i < end && lines[i].startsWith('+'); i++) content += `${lines[i].slice(1)}\n`;
    return { file: { kind: 'create', path, content }, next: i };
  }
  if (header.startsWith(DELETE_FILE)) return { file: { kind: 'delete', path: header.slice(DELETE_FILE.length) }, next: start + 1 };
  if (!header.startsWith(UPDATE_FILE)) {
    return invalidPatch(
      `Line ${start + 1}: "${header}" is not a file section header; each section starts with "${ADD_FILE}<path>", "${DELETE_FILE}<path>" or "${UPDATE_FILE}<path>".`,
    );
  }
  const path = header.slice(UPDATE_FILE.length);
  let i = start + 1;
  const moveTo = i < end && lines[i].startsWith(MOVE_TO) ? lines[i++].slice(MOVE_TO.length) : undefined;
  const chunks: UpdateChunk[] = [];
  while (i < end) {
    if (lines[i].trim() === '') {
      i++;
      continue;
    }
    if (lines[i].startsWith('***')) break;
    const chunk = parseChunk(lines, i, end, chunks.length === 0, path);
    if ('ok' in chunk) return chunk;
    chunks.push(chunk.chunk);
    i = chunk.next;
  }
  if (chunks.length === 0) return invalidPatch(`Line ${start + 1}: the section updating ${displayPath(path)} has no change in it.`);
  const changes = { format: 'apply-patch' as const, chunks };
  return { file: moveTo === undefined ? { kind: 'modify', path, changes } : { kind: 'rename', from: path, path: moveTo, changes }, next: i };
}

function parseChunk(lines: string[], start: number, end: number, first: boolean, path: string): Parsed<{ chunk: UpdateChunk; next: number }> {
  const chunk: UpdateChunk = { contexts: [], oldLines: [], newLines: [], endOfFile: false, patchLine: start + 1 };
  let i = start;
  let marked = false;
  for (; i < end; i++) {
    if (lines[i] === '@@') marked = true;
    else if (lines[i].startsWith('@@ ')) {
      marked = true;
      chunk.contexts.push(lines[i].slice(3));
    } else break;
  }
  if (!marked && !first) {
    return invalidPatch(`Line ${start + 1}: a chunk of ${displayPath(path)} must start with "@@" (or "@@ <context line>"), not "${lines[start]}".`);
  }
  let parsed = 0;
  for (; i < end; i++) {
    const line = lines[i];
    if (line === END_OF_FILE) {
      if (parsed === 0) break;
      chunk.endOfFile = true;
      i++;
      break;
    }
    const marker = line[0];
    if (marker === undefined || marker === ' ') {
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
    } else if (marker === '+') chunk.newLines.push(line.slice(1));
    else if (marker === '-') chunk.oldLines.push(line.slice(1));
    else if (parsed === 0) {
      return invalidPatch(
        `Line ${i + 1}: "${line}" in the chunk of ${displayPath(path)} is not a change line; every line starts with " " (context), "+" (added) or "-" (removed).`,
      );
    } else break;
    parsed++;
  }
  if (parsed === 0) return invalidPatch(`Line ${start + 1}: the chunk of ${displayPath(path)} has no lines after its "@@" line.`);
  return { chunk, next: i };
}
