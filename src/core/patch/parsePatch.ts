/**
 * A change produced anywhere (a web chat, a code review, an agent) as text, in one of three formats: a
 * unified diff of one or many files (git's or plain `diff -u`, `unifiedDiff.ts`), search/replace blocks
 * (aider's `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE` after the file's path, `searchReplace.ts`), or
 * OpenAI's apply_patch format (`*** Begin Patch` … `*** End Patch`, `openAiPatch.ts`). The first marker line
 * of one of them decides the format; prose around the patch is ignored. Parsing is pure and strict: nothing
 * is guessed, every section of the patch is accounted for, and where its lines go in a file is decided
 * later, by exact context (`planPatch.ts`). Line endings of the patch itself (CRLF from a Windows clipboard)
 * are ignored: lines are compared without them.
 */
import { BEGIN_PATCH, parseApplyPatch } from './openAiPatch';
import type { ParsedPatch } from './patchTypes';
import { invalidPatch } from './patchTypes';
import { isBlockHead, parseSearchReplace } from './searchReplace';
import { parseUnified } from './unifiedDiff';

export type { BlobIndex, FilePatch, ParsedPatch, PatchChanges, PatchFormat, PatchHunk, PatchLine, SearchReplaceBlock, UpdateChunk } from './patchTypes';

export function parsePatch(text: string): ParsedPatch {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === BEGIN_PATCH) return parseApplyPatch(lines);
    if (isBlockHead(line)) return parseSearchReplace(lines);
    if (line.startsWith('diff --git ') || line.startsWith('@@ ') || (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ '))) return parseUnified(lines);
  }
  return invalidPatch(
    'This is neither a unified diff (lines "--- a/file", "+++ b/file", "@@ -1,3 +1,4 @@") nor search/replace blocks (a file path, then "<<<<<<< SEARCH", the old lines, "=======", the new lines, ">>>>>>> REPLACE") nor an apply_patch patch ("*** Begin Patch", "*** Update File: path", …, "*** End Patch"). Paste the whole change as it was produced.',
  );
}
