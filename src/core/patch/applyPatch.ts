/**
 * Applies a parsed patch through a guard session, all files or none: each file's hunks become one edit
 * (`patchEdit`), the lines it covers are read in the session (so the guard's rules hold as for any agent: it
 * refuses lines that change between this read and the write), and all edits go in one multiEdit, reviewed
 * like any agent's change. Nothing is written on any refusal.
 */
import type { GuardSession, MultiEditChange, MutationResult } from '../types';
import type { FilePatch } from './parsePatch';
import { type PatchEdit, patchEdit } from './patchEdits';

export interface ApplyPatchOptions {
  /** The file's current text as the session sees it (an editor's unsaved text counts); undefined when absent. */
  readText(path: string): Promise<string | undefined>;
  /** Maps a path named in the patch to the guard's path (e.g. relative to the right workspace folder). */
  resolve?(path: string): string;
  explanation?: string;
  signal?: AbortSignal;
}

export async function applyPatch(session: GuardSession, files: readonly FilePatch[], options: ApplyPatchOptions): Promise<MutationResult> {
  const edits: PatchEdit[] = [];
  for (const file of files) {
    const path = options.resolve ? options.resolve(file.path) : file.path;
    // The guard's rules first (roots, deny globs, file kinds): a file it refuses is never read to place the
    // patch, so no refusal can show lines of a file the session may not see.
    const allowed = await session.read(path, { limit: 1, force: true, signal: options.signal });
    if (!allowed.ok && allowed.code !== 'FILE_NOT_FOUND') return allowed;
    const edit = patchEdit({ ...file, path } as FilePatch, await options.readText(path));
    if ('ok' in edit) return edit;
    edits.push(edit);
  }
  for (const edit of edits) {
    // Read exactly the covered lines (in pieces when they exceed one read's caps).
    for (let line = edit.firstLine; line > 0 && line <= edit.lastLine; ) {
      const read = await session.read(edit.path, { offset: line, limit: edit.lastLine - line + 1, force: true, signal: options.signal });
      if (!read.ok) return read;
      if (read.kind !== 'content' || read.endLine < line) break;
      line = read.endLine + 1;
    }
  }
  const whole = edits.find((edit) => edit.wholeFile);
  if (whole) {
    if (edits.length > 1) return { ok: false, code: 'INVALID_INPUT', message: `${whole.path} is empty, and an empty file can only be filled on its own, not in a patch of several files. Nothing was changed. Apply its part separately.` };
    const read = await session.read(whole.path, { force: true, signal: options.signal });
    if (!read.ok) return read;
    return session.write(whole.path, whole.newString, { explanation: options.explanation, signal: options.signal });
  }
  const changes: MultiEditChange[] = edits.map((edit) => ({ path: edit.path, edits: [{ oldString: edit.oldString, newString: edit.newString }] }));
  return session.multiEdit(changes, { explanation: options.explanation, signal: options.signal });
}
