/**
 * A parsed patch as data: what each section of the patch asks for, in the patch's own terms, before anything
 * is placed in a file. Every section of the patch text is one `FilePatch` (nothing is skipped): a section
 * ReadGate cannot carry out (a mode change, a binary patch) is a `refused` one that says why, so a caller can
 * never apply the rest of a patch and report it complete.
 *
 * Texts are as the patch gives them, with '\n' line breaks (a patch pasted with CRLF reads the same).
 */
import type { Refusal } from '../refusals/refusal';
import { invalidInput } from '../refusals/invalidInput';

export type PatchFormat = 'unified' | 'search-replace' | 'apply-patch';

export interface PatchLine {
  kind: 'context' | 'remove' | 'add';
  text: string;
}

/** One `@@ -a,b +c,d @@` hunk of a unified diff. */
export interface PatchHunk {
  /** 1-based line the hunk starts at in the old file (0 for an insertion at the start or into an empty file). */
  oldStart: number;
  oldCount: number;
  /** 1-based line in the new file; git searches for the hunk from here in the file as the hunks before it left it. */
  newStart: number;
  newCount: number;
  lines: PatchLine[];
  /** `\ No newline at end of file` after the hunk's last old (or new) line. */
  oldEndsWithoutNewline: boolean;
  newEndsWithoutNewline: boolean;
  /** 1-based line of the hunk's header in the patch text. */
  patchLine: number;
}

/**
 * One search/replace block, read as aider reads it (`editblock_coder.py`): each part is whole lines, every line
 * with its '\n', a leading line ending with the file's name and a wrapping code fence removed. Unlike aider,
 * a trailing blank line is kept (see searchReplace.ts).
 */
export interface SearchReplaceBlock {
  search: string;
  replace: string;
  /** 1-based line of the block's `<<<<<<< SEARCH` in the patch text. */
  patchLine: number;
}

/** One chunk of an `*** Update File:` section of OpenAI's apply_patch format. */
export interface UpdateChunk {
  /** The `@@ <line>` lines before the chunk: each is found in turn, and the chunk is searched after the last. */
  contexts: string[];
  oldLines: string[];
  newLines: string[];
  /** `*** End of File` followed the chunk: its old lines must end the file. */
  endOfFile: boolean;
  patchLine: number;
}

/** The `index <old>..<new>` line of a git diff: abbreviated blob hashes of the versions the patch was made between. */
export interface BlobIndex {
  old: string;
  new: string;
}

export type PatchChanges =
  | { format: 'unified'; hunks: PatchHunk[]; index?: BlobIndex }
  | { format: 'search-replace'; blocks: SearchReplaceBlock[] }
  | { format: 'apply-patch'; chunks: UpdateChunk[] };

export type FilePatch =
  /** A new file with exactly this content ('\n' line breaks); it must not exist. */
  | { kind: 'create'; path: string; content: string }
  /** Delete the file; with `expected`, only while it holds exactly that text (a git diff's removed lines). */
  | { kind: 'delete'; path: string; expected?: string }
  /** Change the file. Search/replace blocks also create it when it is missing and the first SEARCH is blank (aider). */
  | { kind: 'modify'; path: string; changes: PatchChanges }
  /** Rename `from` to `path`, then apply `changes` (placed in the content `from` had). */
  | { kind: 'rename'; from: string; path: string; changes?: PatchChanges }
  /** Create `path` from the content of `from`, changed by `changes`. */
  | { kind: 'copy'; from: string; path: string; changes?: PatchChanges }
  /** A section ReadGate does not carry out (a mode change, a binary patch, a symbolic link); `message` says what to do. */
  | { kind: 'refused'; path: string; message: string };

export type ParsedPatch = { ok: true; format: PatchFormat; files: FilePatch[] } | Refusal;

export const invalidPatch = invalidInput.patch;
