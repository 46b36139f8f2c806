/**
 * The symlink chain: where a path really lands, one component at a time, with every link hop shown to a
 * checker before it is followed (SPEC section 2, "symlink chain: every hop is checked").
 *
 * The walk starts at a real directory (a root's real path) and resolves as the kernel does: each component
 * is `lstat`ed; a link's text is read and its components are walked in place of the link, and `..` moves to
 * the parent of the real directory reached so far. So `b/../x` through a link `b` lands where the kernel
 * lands, not where the text suggests. A missing component, or a non-directory with components left, ends the
 * walk: the rest is appended lexically and the target does not exist (a new file, or ENOTDIR).
 *
 * It does not know roots or deny rules (the checker does), and does not stat the final target beyond
 * `lstat`: kinds, sizes and identity are the caller's business. More than 40 hops (Linux's limit) or a state
 * seen before is a loop and refused as PATH_INVALID.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../ports';
import type { PathRefusal } from './pathPolicy';

export const MAX_SYMLINK_HOPS = 40;

export interface SymlinkHop {
  /** The link, as a path through real directories. */
  link: string;
  /** Its text resolved against the link's directory. */
  target: string;
}

export type ChainEnd = { ok: true; target: string; exists: boolean } | PathRefusal;

function stepsOf(text: string): string[] {
  return text.split(nodePath.sep === '/' ? '/' : /[\\/]/).filter((step) => step !== '' && step !== '.');
}

/** Resolves `rest` (a path relative to the real directory `start`), showing each hop to `checkHop` first. */
export async function followSymlinkChain(
  fs: FileSystem,
  start: string,
  rest: string,
  checkHop: (hop: SymlinkHop) => PathRefusal | undefined,
): Promise<ChainEnd> {
  const queue = stepsOf(rest);
  if (queue.length === 0) return { ok: true, target: start, exists: (await fs.lstat(start)) !== undefined };
  const seen = new Set<string>();
  let current = start;
  for (let step = queue.shift(); step !== undefined; step = queue.shift()) {
    if (step === '..') {
      current = nodePath.dirname(current);
      continue;
    }
    const next = nodePath.join(current, step);
    const stat = await fs.lstat(next);
    if (!stat) return { ok: true, target: nodePath.join(next, ...queue), exists: false };
    if (stat.kind === 'symlink') {
      const state = `${next}\0${queue.join('/')}`;
      if (seen.size >= MAX_SYMLINK_HOPS || seen.has(state)) return loopRefusal(next);
      seen.add(state);
      let text: string;
      try {
        text = await fs.readlink(next);
      } catch (error) {
        // Not a link any more (EINVAL), or gone (ENOENT): the path changed under the walk; the caller may walk again.
        const code = (error as NodeJS.ErrnoException | undefined)?.code;
        if (code === 'EINVAL' || code === 'ENOENT' || code === 'ENOTDIR') return changedRefusal(next);
        throw error;
      }
      const target = nodePath.resolve(current, text);
      const refusal = checkHop({ link: next, target });
      if (refusal) return refusal;
      if (nodePath.isAbsolute(text)) current = nodePath.parse(target).root;
      queue.unshift(...stepsOf(text));
      continue;
    }
    if (queue.length > 0 && stat.kind !== 'directory') return { ok: true, target: nodePath.join(next, ...queue), exists: false };
    current = next;
  }
  return { ok: true, target: current, exists: true };
}

/** Marks a walk that met a path changing under it (see `PathPolicy.check`, which walks again). */
export const CHANGED_DURING_WALK = 'changed while it was resolved';

function changedRefusal(link: string): PathRefusal {
  return {
    ok: false,
    code: 'PATH_INVALID',
    message: `The path cannot be resolved: ${link} ${CHANGED_DURING_WALK} (a link or folder on the way is being replaced). Nothing was read or changed. Retry; if it keeps happening, ask the user what is replacing it.`,
  };
}

function loopRefusal(link: string): PathRefusal {
  return {
    ok: false,
    code: 'PATH_INVALID',
    message:
      `The path cannot be resolved: the symbolic link ${link} is part of a loop or a chain of more than ` +
      `${MAX_SYMLINK_HOPS} links. Use the path of the real file instead, or ask the user to fix the link.`,
  };
}
