/**
 * The folders on the way to a file the guard writes: checked to be real directories (never links) from the root
 * down, handed to the file system port as the expectation it verifies synchronously before the file is replaced
 * (so a folder swapped for a link to outside the roots during the call cannot carry the write out), and made when
 * a create needs them (one level at a time, each only under verified folders).
 *
 * Folders a failed call made are removed again, deepest first and only while empty, so "nothing was changed"
 * stays true of the tree too; one that someone else put a file in meanwhile stays. Removal needs the port's
 * optional `rmdir`.
 */
import * as nodePath from 'node:path';
import { writeConflict } from '../fileErrors';
import type { FolderExpectation, FileSystem } from '../ports';
import type { GuardContext } from '../context/guardContext';

function isInside(candidate: string, folder: string): boolean {
  return candidate === folder || candidate.startsWith(folder.endsWith(nodePath.sep) ? folder : folder + nodePath.sep);
}

/** Folders from the root down to `dir` that exist, each a real directory; `missing` are the levels below them. */
async function walk(fs: FileSystem, root: string, dir: string): Promise<{ folders: FolderExpectation[]; missing: string[] }> {
  const levels = [root];
  const rest = nodePath.relative(root, dir);
  if (rest) for (const part of rest.split(nodePath.sep)) levels.push(nodePath.join(levels[levels.length - 1], part));
  const folders: FolderExpectation[] = [];
  for (let i = 0; i < levels.length; i++) {
    const stat = await fs.lstat(levels[i]);
    if (!stat) return { folders, missing: levels.slice(i) };
    if (stat.kind !== 'directory') throw writeConflict('folder', `the folder ${levels[i]} was replaced by a ${stat.kind}`);
    folders.push({ path: levels[i], identity: stat.identity });
  }
  return { folders, missing: [] };
}

/**
 * The verified folders of `target` (made first when `create` and missing, recording what was made in `made`,
 * outermost first). Rejects with a `folder` WriteConflict when a folder on the way is not a real directory.
 */
export async function foldersFor(ctx: GuardContext, target: string, create: boolean, made: string[]): Promise<FolderExpectation[]> {
  const dir = nodePath.dirname(target);
  const root = await ctx.paths.rootOf(target);
  if (!root || !isInside(dir, root)) throw writeConflict('folder', `${target} is no longer inside a root`);
  const found = await walk(ctx.fs, root, dir);
  if (found.missing.length === 0) return found.folders;
  if (!create) throw writeConflict('folder', `the folder ${found.missing[0]} is gone`);
  // Recorded before mkdirp, so folders made before it failed part-way are removed too.
  made.push(...found.missing);
  await ctx.fs.mkdirp(dir, { folders: found.folders });
  const after = await walk(ctx.fs, root, dir);
  if (after.missing.length) throw writeConflict('folder', `the folder ${after.missing[0]} is gone`);
  return after.folders;
}

/** Removes the folders `foldersFor` made, deepest first, each only if still empty. */
export async function removeMadeFolders(fs: FileSystem, made: readonly string[]): Promise<void> {
  if (!fs.rmdir) return;
  for (const dir of [...made].reverse()) {
    try {
      await fs.rmdir(dir);
    } catch {
      // Not empty (someone else's file), or already gone: it stays.
    }
  }
}
