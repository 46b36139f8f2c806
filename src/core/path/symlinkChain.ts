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
 * A component the caller named (not one from a link's text, which the kernel follows byte for byte) that is
 * missing under its exact name is looked up by Unicode form (spellings.ts): one entry with the same NFC text is
 * that component, as it is spelled on disk; several end the walk as `ambiguous` (the caller refuses: never a
 * guess, and only after its deny rules, so a listing never names a protected file); none is missing. `steps`
 * gives the caller's components with the spellings found, for the name results show.
 *
 * It does not know roots or deny rules (the checker does), and does not stat the final target beyond
 * `lstat`: kinds, sizes and identity are the caller's business. More than 40 hops (Linux's limit) or a state
 * seen before is a loop and refused as PATH_INVALID.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../ports';
import { displayPath } from './displayPath';
import type { PathRefusal } from './pathPolicy';
import { otherSpellings } from './spellings';

export const MAX_SYMLINK_HOPS = 40;

export interface SymlinkHop {
  /** The link, as a path through real directories. */
  link: string;
  /** Its text resolved against the link's directory. */
  target: string;
}

/**
 * `steps`: the components of `rest`, each as found on disk (as given where the walk did not reach it).
 * `ambiguous`: the walk stopped at `name`, missing in `folder` where several `matches` have its NFC text; `target`
 * is then the path as given below that folder (every match has its NFC form).
 */
export type ChainEnd =
  | { ok: true; target: string; exists: boolean; steps: string[]; ambiguous?: { folder: string; name: string; matches: string[] } }
  | PathRefusal;

/** A component to walk; `named` is its index in `rest` when the caller named it (not from a link's text). */
interface Step {
  name: string;
  named?: number;
}

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
  const steps = stepsOf(rest);
  const queue: Step[] = steps.map((name, named) => ({ name, named }));
  if (queue.length === 0) return { ok: true, target: start, exists: (await fs.lstat(start)) !== undefined, steps };
  const seen = new Set<string>();
  let current = start;
  const left = (): string[] => queue.map((step) => step.name);
  for (let step = queue.shift(); step !== undefined; step = queue.shift()) {
    if (step.name === '..') {
      current = nodePath.dirname(current);
      continue;
    }
    let next = nodePath.join(current, step.name);
    let stat = await fs.lstat(next);
    if (!stat && step.named !== undefined) {
      // Only when the exact name is missing: list the folder for the same name in another Unicode form.
      const matches = await otherSpellings(fs, current, step.name);
      if (matches.length > 1) {
        const ambiguous = { folder: current, name: step.name, matches };
        return { ok: true, target: nodePath.join(next, ...left()), exists: false, steps, ambiguous };
      }
      if (matches.length === 1) {
        next = nodePath.join(current, matches[0]);
        stat = await fs.lstat(next);
        // Listed a moment ago and gone now: the folder changed under the walk; the caller may walk again.
        if (!stat) return changedRefusal(next);
        steps[step.named] = matches[0];
      }
    }
    if (!stat) return { ok: true, target: nodePath.join(next, ...left()), exists: false, steps };
    if (stat.kind === 'symlink') {
      const state = `${next}\0${left().join('/')}`;
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
      queue.unshift(...stepsOf(text).map((name) => ({ name })));
      continue;
    }
    if (queue.length > 0 && stat.kind !== 'directory') return { ok: true, target: nodePath.join(next, ...left()), exists: false, steps };
    current = next;
  }
  return { ok: true, target: current, exists: true, steps };
}

/** Marks a walk that met a path changing under it (see `PathPolicy.check`, which walks again). */
export const CHANGED_DURING_WALK = 'changed while it was resolved';

function changedRefusal(link: string): PathRefusal {
  return {
    ok: false,
    code: 'PATH_INVALID',
    message: `The path cannot be resolved: ${displayPath(link)} ${CHANGED_DURING_WALK} (a link or folder on the way is being replaced). Nothing was read or changed. Retry; if it keeps happening, ask the user what is replacing it.`,
  };
}

function loopRefusal(link: string): PathRefusal {
  return {
    ok: false,
    code: 'PATH_INVALID',
    message:
      `The path cannot be resolved: the symbolic link ${displayPath(link)} is part of a loop or a chain of more than ` +
      `${MAX_SYMLINK_HOPS} links. Use the path of the real file instead, or ask the user to fix the link.`,
  };
}
