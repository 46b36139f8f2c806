/**
 * Applies a parsed patch through a guard session, all files or none: the patch is planned against the files'
 * current texts (`planPatch`), each created or changed file becomes one edit (`operationEdit`), the lines
 * it covers are read in the session (so the guard's rules hold as for any agent: it refuses lines that
 * change between this read and the write), and all edits go in one multiEdit, reviewed like any agent's
 * change. A plan that deletes or renames a file is refused here: this path has no guard operation for that.
 * Nothing is written on any refusal.
 */
import { displayPath } from '../path/displayPath';
import { toLf } from '../edit/lineEndings';
import type { GuardSession, MultiEditChange, MutationResult } from '../types';
import type { PatchEdit } from './patchEdits';
import { operationEdit } from './patchEdits';
import type { FilePatch } from './patchTypes';
import { planPatch } from './planPatch';

export interface ApplyPatchOptions {
  /** The file's current text as the session sees it (an editor's unsaved text counts); undefined when absent. */
  readText(path: string): Promise<string | undefined>;
  /** The file's raw bytes, to prove a diff without context lines was made from it (its `index` line); optional. */
  readBytes?(path: string): Promise<Uint8Array | undefined>;
  /** Maps a path named in the patch to the guard's path (e.g. relative to the right workspace folder). */
  resolve?(path: string): string;
  /** Place hunks without context lines by line numbers alone (git apply --unidiff-zero). */
  unidiffZero?: boolean;
  explanation?: string;
  signal?: AbortSignal;
}

export async function applyPatch(session: GuardSession, files: readonly FilePatch[], options: ApplyPatchOptions): Promise<MutationResult> {
  const resolve = (path: string): string => (options.resolve ? options.resolve(path) : path);
  const named = [...new Set(files.flatMap((file) => (file.kind === 'rename' || file.kind === 'copy' ? [file.from, file.path] : [file.path])))];
  const texts = new Map<string, string | undefined>();
  const bytes = new Map<string, Uint8Array | undefined>();
  for (const path of named) {
    // The guard's rules first (roots, deny globs, file kinds): a file it refuses is never read to place the
    // patch, so no refusal can show lines of a file the session may not see.
    const allowed = await session.read(resolve(path), { limit: 1, force: true, signal: options.signal });
    if (!allowed.ok && allowed.code !== 'FILE_NOT_FOUND') return allowed;
    texts.set(path, await options.readText(resolve(path)));
    if (options.readBytes) bytes.set(path, await options.readBytes(resolve(path)));
  }
  const plan = planPatch(files, (path) => ({ exists: texts.get(path) !== undefined, text: texts.get(path), bytes: bytes.get(path) }), { unidiffZero: options.unidiffZero });
  if (!plan.ok) return plan;
  const edits: PatchEdit[] = [];
  for (const operation of plan.operations) {
    if (operation.op === 'delete' || operation.op === 'rename') {
      const what = operation.op === 'delete' ? `deletes ${displayPath(operation.path)}` : `renames ${displayPath(operation.from)} to ${displayPath(operation.to)}`;
      return { ok: false, code: 'INVALID_INPUT', message: `The patch ${what}; applying a patch here creates and changes files but cannot delete or rename them. Nothing was changed. Do that yourself, then apply the rest of the patch without that section.` };
    }
    const edit = operationEdit(operation, texts.get(operation.path) === undefined ? undefined : toLf(texts.get(operation.path) as string));
    if ('ok' in edit) return edit;
    edits.push({ ...edit, path: resolve(edit.path) });
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
  const whole = edits.find((edit) => edit.wholeFile || (edit.oldString === '' && edit.newString === ''));
  if (whole) {
    if (edits.length > 1) return { ok: false, code: 'INVALID_INPUT', message: `${displayPath(whole.path)} is empty or created empty, which can only be written on its own, not in a patch of several files. Nothing was changed. Apply its part separately.` };
    if (whole.wholeFile) {
      const read = await session.read(whole.path, { force: true, signal: options.signal });
      if (!read.ok) return read;
    }
    return session.write(whole.path, whole.newString, { explanation: options.explanation, signal: options.signal });
  }
  const changes: MultiEditChange[] = edits.map((edit) => ({ path: edit.path, edits: [{ oldString: edit.oldString, newString: edit.newString }] }));
  return session.multiEdit(changes, { explanation: options.explanation, signal: options.signal });
}
