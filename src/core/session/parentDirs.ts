/**
 * Parent directories of a file a call creates: made only after every check passed (SPEC section 2, step 5),
 * and removed again when the call then fails, so "No file was changed" stays true of the tree as well (audit:
 * a failed multiEdit left the new/deep/ it had made for a created file).
 *
 * Only directories this call found missing and made are removed, deepest first, and only while empty: one
 * that someone else put a file in meanwhile stays, as does everything that existed before. Removal needs the
 * port's optional `rmdir`; without it the directories stay.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../ports';

/** Makes `dir` and its missing parents, adding those it makes to `made` (outermost first). */
export async function makeParents(fs: FileSystem, dir: string, made: string[]): Promise<void> {
  const missing: string[] = [];
  for (let at = dir; !(await fs.stat(at)); at = nodePath.dirname(at)) {
    missing.unshift(at);
    if (nodePath.dirname(at) === at) break;
  }
  // Recorded before mkdirp, so directories made before it failed part-way are removed too.
  made.push(...missing);
  await fs.mkdirp(dir);
}

/** Removes the directories `makeParents` made, deepest first, each only if still empty. */
export async function removeMadeParents(fs: FileSystem, made: readonly string[]): Promise<void> {
  if (!fs.rmdir) return;
  for (const dir of [...made].reverse()) {
    try {
      await fs.rmdir(dir);
    } catch {
      // Not empty (someone else's file), or already gone: it stays.
    }
  }
}
