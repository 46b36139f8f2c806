/**
 * Applies a parsed patch for its author (the user, through Apply Patch…) through a session's public calls, all
 * files or none: placed purely by `patch/` (`planPatch`, `patchChanges`), the lines it covers read on the author's
 * behalf so the guard's rules hold, then one reviewed write or multiEdit. An agent's patch goes through
 * `GuardSession.applyPatch` (`runPatch.ts`) instead, which reads nothing for it.
 */
import { toLf } from '../text/lineEndings';
import type { GuardSession, MutationResult } from '../types';
import { patchChanges } from '../patch/patchChanges';
import type { FilePatch } from '../patch/patchTypes';
import { planPatch } from '../patch/planPatch';
import { invalidInput } from '../refusals/invalidInput';

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
  const plan = planPatch(files, (path) => ({ exists: texts.get(path) !== undefined, text: texts.get(path), bytes: bytes.get(path) }), {
    unidiffZero: options.unidiffZero,
  });
  if (!plan.ok) return plan;
  const lfOf = (path: string): string | undefined => {
    const text = texts.get(path);
    return text === undefined ? undefined : toLf(text);
  };
  const changes = patchChanges(plan.operations, lfOf, resolve);
  if (!Array.isArray(changes)) return changes;
  // The user applies the patch: the lines it covers are read on their behalf, so the guard's rules hold as for
  // any change (it refuses lines that change between this read and the write).
  for (const { change, covers } of changes) {
    const ranges = covers === 'all' ? [[1, Number.MAX_SAFE_INTEGER] as [number, number]] : covers;
    for (const [from, to] of ranges) {
      for (let line = from; line <= to;) {
        const read = await session.read(change.path, {
          offset: line,
          ...(to === Number.MAX_SAFE_INTEGER ? {} : { limit: to - line + 1 }),
          force: true,
          signal: options.signal,
        });
        if (!read.ok) return read;
        if (read.kind !== 'content' || read.endLine < line || read.endLine >= read.totalLines) break;
        line = read.endLine + 1;
      }
    }
  }
  const whole = changes.find((change) => change.write !== undefined);
  if (whole) {
    if (changes.length > 1) return invalidInput.patchFillsEmptyWithOthers(whole.change.path, false);
    return session.write(whole.change.path, whole.write as string, { explanation: options.explanation, signal: options.signal });
  }
  return session.multiEdit(
    changes.map((change) => change.change),
    { explanation: options.explanation, signal: options.signal },
  );
}
