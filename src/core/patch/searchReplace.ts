/**
 * Search/replace blocks, read with aider's rules (`aider/coders/editblock_coder.py`: `find_original_update_blocks`,
 * `find_filename`, `strip_filename`, `strip_quoted_wrapping`), so a block means here what it means to aider
 * and to the models taught its format:
 *
 * - Markers are whole lines, compared after stripping whitespace: `<{5,9} SEARCH>?`, `={5,9}` (the divider),
 *   `>{5,9} REPLACE`. SEARCH runs to the first divider line; REPLACE to the first `>>>>>>> REPLACE` line.
 * - The file name is the line just before `<<<<<<< SEARCH`, or, while the lines before are code fences, the
 *   line before those (up to three lines back; the first with a '.' wins, else the nearest): `#`, `*`, '`'
 *   and a trailing ':' are stripped, "```lang" is a fence, not a name, and "..." is none. With no name the
 *   block belongs to the previous block's file.
 * - Each part is whole lines, each with its '\n'. A first line that ends with the file's name is dropped, and
 *   so is a code fence wrapping the whole part.
 * - Fenced shell blocks (```bash, ```sh, …) are skipped, with any blocks inside them.
 *
 * Where ReadGate deliberately differs:
 * - A trailing blank line of SEARCH or REPLACE is kept. aider's `strip_quoted_wrapping` joins the lines and
 *   adds one '\n', which drops one trailing blank line: a SEARCH ending with a blank line then matched text
 *   without it, and the blank line the patch meant to remove stayed.
 * - A second divider line before `>>>>>>> REPLACE` (an RST heading underline of 5 to 9 '=', say) is refused
 *   as ambiguous, naming the file and lines. aider ends REPLACE at it and drops the rest of the block.
 * - A file name line that is itself a marker (`>>>>>>> REPLACE` right before the next `<<<<<<< SEARCH`) is no
 *   name: the block belongs to the previous block's file. aider takes the marker for a name and then looks
 *   for the SEARCH text in every file of its chat.
 * - A name still wrapped in '`' or '*' after aider's stripping (**`x.py`**:) is unwrapped; aider finds it by
 *   fuzzy matching against the files of its chat.
 * - Lines end at '\n' and '\r\n' only (a patch's own line breaks); Python's `splitlines` also
 *   ends them at form feeds, vertical tabs and a few Unicode separators.
 */
import { displayPath } from '../path/displayPath';
import type { FilePatch, ParsedPatch, SearchReplaceBlock } from './patchTypes';
import { invalidPatch } from './patchTypes';

const HEAD = /^<{5,9} SEARCH>?\s*$/;
const DIVIDER = /^={5,9}\s*$/;
const UPDATED = /^>{5,9} REPLACE\s*$/;
const FENCE = '```';
const SHELL_STARTS = ['```bash', '```sh', '```shell', '```cmd', '```batch', '```powershell', '```ps1', '```zsh', '```fish', '```ksh', '```csh', '```tcsh'];

/** Python's `str.strip()` (Unicode whitespace, including \x1c-\x1f and \x85, but not U+FEFF). */
const PY_SPACE = '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const PY_STRIP = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g');
export const pyStrip = (text: string): string => text.replace(PY_STRIP, '');

export const isBlockHead = (line: string): boolean => HEAD.test(pyStrip(line));
const isDivider = (line: string): boolean => DIVIDER.test(pyStrip(line));
const isUpdated = (line: string): boolean => UPDATED.test(pyStrip(line));

/** aider's `strip_filename` with its default fence. */
function stripFilename(line: string): string | undefined {
  let name = pyStrip(line);
  if (name === '...') return undefined;
  if (name.startsWith(FENCE)) {
    const candidate = name.slice(FENCE.length);
    return candidate && (candidate.includes('.') || candidate.includes('/')) ? candidate : undefined;
  }
  name = pyStrip(name.replace(/:+$/, '').replace(/^#+/, ''))
    .replace(/^`+|`+$/g, '')
    .replace(/^\*+|\*+$/g, '');
  // Unlike aider, a name still wrapped after that (**`x.py`**) is unwrapped: aider finds it by fuzzy matching
  // against the files of its chat, which ReadGate does not have.
  for (let unwrapped = name.replace(/^[`*]+|[`*]+$/g, ''); unwrapped !== name; unwrapped = name.replace(/^[`*]+|[`*]+$/g, '')) name = unwrapped;
  return name || undefined;
}

/** aider's `find_filename` without a list of chat files: the names on the (up to 3) lines before the block. */
function findFilename(before: readonly string[]): string | undefined {
  const names: string[] = [];
  for (const line of [...before].reverse().slice(0, 3)) {
    const name = stripFilename(line);
    if (name) names.push(name);
    if (!line.startsWith(FENCE)) break;
  }
  const name = names.find((candidate) => candidate.includes('.')) ?? names[0];
  return name === undefined || isBlockHead(name) || isDivider(name) || isUpdated(name) ? undefined : name;
}

const basename = (path: string): string => path.replace(/\/+$/, '').split('/').pop() ?? path;

/** One part of a block as whole lines, as aider's `strip_quoted_wrapping` reads it, trailing blank lines kept. */
function blockText(lines: string[], path: string): string | undefined {
  let parts = lines;
  if (parts.length > 0 && pyStrip(parts[0]).endsWith(basename(path))) {
    parts = parts.slice(1);
    if (parts.length === 0) return undefined;
  }
  if (parts.length > 0 && parts[0].startsWith(FENCE) && parts[parts.length - 1].startsWith(FENCE)) parts = parts.slice(1, -1);
  return parts.map((line) => `${line}\n`).join('');
}

export function parseSearchReplace(lines: string[]): ParsedPatch {
  const files: (FilePatch & { kind: 'modify' })[] = [];
  let current: string | undefined;
  let i = 0;
  let count = 0;
  while (i < lines.length) {
    const line = lines[i];
    const nextIsBlock = (lines[i + 1] !== undefined && isBlockHead(lines[i + 1])) || (lines[i + 2] !== undefined && isBlockHead(lines[i + 2]));
    if (SHELL_STARTS.some((start) => pyStrip(line).startsWith(start)) && !nextIsBlock) {
      for (i++; i < lines.length && !pyStrip(lines[i]).startsWith(FENCE); i++);
      i++;
      continue;
    }
    if (!isBlockHead(line)) {
      i++;
      continue;
    }
    const head = i + 1;
    const path = findFilename(lines.slice(Math.max(0, i - 3), i)) ?? current;
    if (!path) {
      return invalidPatch(
        `Line ${head}: the block has no file path before it; put the path alone on the line above "<<<<<<< SEARCH" (or above its code fence).`,
      );
    }
    current = path;
    count++;
    const search: string[] = [];
    for (i++; i < lines.length && !isDivider(lines[i]); i++) search.push(lines[i]);
    if (i >= lines.length) {
      return invalidPatch(`Block ${count} for ${displayPath(path)} (line ${head}) has no "=======" line between its SEARCH and REPLACE parts.`);
    }
    const divider = i + 1;
    const replace: string[] = [];
    for (i++; i < lines.length && !isUpdated(lines[i]) && !isDivider(lines[i]); i++) replace.push(lines[i]);
    if (i >= lines.length) return invalidPatch(`Block ${count} for ${displayPath(path)} (line ${head}) has no ">>>>>>> REPLACE" line ending it.`);
    if (isDivider(lines[i])) {
      return invalidPatch(
        `Block ${count} for ${displayPath(path)} (line ${head}) is ambiguous: lines ${divider} (${JSON.stringify(pyStrip(lines[divider - 1]))}) and ${i + 1} (${JSON.stringify(pyStrip(lines[i]))}) are both a line of 5 to 9 "=", which is the divider between SEARCH and REPLACE, so it cannot be told which one is text (aider ends the REPLACE part at the second and drops the rest of the block). ` +
          'Nothing was changed. Change the block so that only the divider is such a line (an RST heading underline of 10 or more "=" is text), or send the change as a unified diff.',
      );
    }
    const searchText = blockText(search, path);
    const replaceText = blockText(replace, path);
    if (searchText === undefined || replaceText === undefined) {
      return invalidPatch(
        `Block ${count} for ${displayPath(path)} (line ${head}): its ${searchText === undefined ? 'SEARCH' : 'REPLACE'} part is only a line ending with the file's name, which aider reads as a repeated file name. Give the lines to ${searchText === undefined ? 'find' : 'write'}.`,
      );
    }
    const block: SearchReplaceBlock = { search: searchText, replace: replaceText, patchLine: head };
    const file = files.find((candidate) => candidate.path === path);
    if (file && file.changes.format === 'search-replace') file.changes.blocks.push(block);
    else files.push({ kind: 'modify', path, changes: { format: 'search-replace', blocks: [block] } });
    i++;
  }
  if (files.length === 0) return invalidPatch('The text has a "<<<<<<< SEARCH" line but no complete block outside shell code fences.');
  return { ok: true, format: 'search-replace', files };
}
