/**
 * The symlink chain: where a path really lands, one component at a time, with every link hop shown to a
 * checker before it is followed (every hop is checked).
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
import type { FileStat, FileSystem } from '../ports';
import { displayPath } from './displayPath';
import type { PathRefusal } from './pathInvalid';
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
  | { ok: true; target: string; exists: boolean; steps: string[]; ambiguous?: { folder: string; name: string; matches: string[] }; identity?: string }
  | PathRefusal;

/** A component to walk; `named` is its index in `rest` when the caller named it (not from a link's text). */
interface Step {
  name: string;
  named?: number;
}

function stepsOf(text: string): string[] {
  return text.split(nodePath.sep === '/' ? '/' : /[\\/]/).filter((step) => step !== '' && step !== '.');
}

/** The walk's state: where it is, what is left to walk, and the link states seen (for loops). */
interface Walk {
  current: string;
  queue: Step[];
  steps: string[];
  seen: Set<string>;
}

const left = (walk: Walk): string[] => walk.queue.map((step) => step.name);

/**
 * The entry for a component: its exact name, or, for a component the caller named and missing under it, the one
 * entry with the same NFC text. `ambiguous` when several have it; a changed refusal when a listed one vanished.
 */
async function lookUp(fs: FileSystem, walk: Walk, step: Step): Promise<{ next: string; stat: FileStat | undefined } | ChainEnd> {
  const next = nodePath.join(walk.current, step.name);
  const stat = await fs.lstat(next);
  if (stat || step.named === undefined) return { next, stat };
  // Only when the exact name is missing: list the folder for the same name in another Unicode form.
  const matches = await otherSpellings(fs, walk.current, step.name);
  if (matches.length > 1) {
    return {
      ok: true,
      target: nodePath.join(next, ...left(walk)),
      exists: false,
      steps: walk.steps,
      ambiguous: { folder: walk.current, name: step.name, matches },
    };
  }
  if (matches.length === 0) return { next, stat };
  const found = nodePath.join(walk.current, matches[0]);
  const foundStat = await fs.lstat(found);
  // Listed a moment ago and gone now: the folder changed under the walk; the caller may walk again.
  if (!foundStat) return changedRefusal(found);
  walk.steps[step.named] = matches[0];
  return { next: found, stat: foundStat };
}

/** Shows the link's hop to the checker and queues its text in its place; a refusal ends the walk. */
async function followLink(fs: FileSystem, walk: Walk, link: string, checkHop: (hop: SymlinkHop) => PathRefusal | undefined): Promise<PathRefusal | undefined> {
  const state = `${link}\0${left(walk).join('/')}`;
  if (walk.seen.size >= MAX_SYMLINK_HOPS || walk.seen.has(state)) return loopRefusal(link);
  walk.seen.add(state);
  let text: string;
  try {
    text = await fs.readlink(link);
  } catch (error) {
    // Not a link any more (EINVAL), or gone (ENOENT): the path changed under the walk; the caller may walk again.
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'EINVAL' || code === 'ENOENT' || code === 'ENOTDIR') return changedRefusal(link);
    throw error;
  }
  const target = nodePath.resolve(walk.current, text);
  const refusal = checkHop({ link, target });
  if (refusal) return refusal;
  if (nodePath.isAbsolute(text)) walk.current = nodePath.parse(target).root;
  walk.queue.unshift(...stepsOf(text).map((name) => ({ name })));
  return undefined;
}

/** Resolves `rest` (a path relative to the real directory `start`), showing each hop to `checkHop` first. */
export async function followSymlinkChain(
  fs: FileSystem,
  start: string,
  rest: string,
  checkHop: (hop: SymlinkHop) => PathRefusal | undefined,
): Promise<ChainEnd> {
  const steps = stepsOf(rest);
  if (steps.length === 0) {
    const root = await fs.lstat(start);
    return { ok: true, target: start, exists: root !== undefined, steps, ...(root ? { identity: root.identity } : {}) };
  }
  const walk: Walk = { current: start, queue: steps.map((name, named) => ({ name, named })), steps, seen: new Set() };
  // The entry the walk stands on, as looked up (never a link): at the end, the target's identity.
  let last: FileStat | undefined;
  for (let step = walk.queue.shift(); step !== undefined; step = walk.queue.shift()) {
    if (step.name === '..') {
      walk.current = nodePath.dirname(walk.current);
      last = undefined;
      continue;
    }
    const found = await lookUp(fs, walk, step);
    if ('ok' in found) return found;
    const { next, stat } = found;
    if (!stat) return { ok: true, target: nodePath.join(next, ...left(walk)), exists: false, steps };
    if (stat.kind === 'symlink') {
      const refusal = await followLink(fs, walk, next, checkHop);
      if (refusal) return refusal;
      continue;
    }
    if (walk.queue.length > 0 && stat.kind !== 'directory') return { ok: true, target: nodePath.join(next, ...left(walk)), exists: false, steps };
    walk.current = next;
    last = stat;
  }
  return { ok: true, target: walk.current, exists: true, steps, ...(last ? { identity: last.identity } : {}) };
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
