/**
 * Whether a change needs the user's approval, decided from the settings, workspace trust and the narrow
 * grants a user gave ("approve further edits to this file in this session"). Pure: facts in, a decision out.
 *
 * - `always` (default): every change is reviewed, unless the user granted this session this file. A grant
 *   covers edits only: deleting or moving a file is reviewed even when the session was granted it.
 * Every path a change writes counts: a move's destination as well as the file it moves.
 * - `sensitive`: only protected files (globs such as `**\/.vscode/**`, `**\/.git/**`, `**\/.env*`, lock files,
 *   `*.code-workspace`) and files outside the workspace folders are reviewed.
 * - `never`: nothing is reviewed, except protected files and files outside the workspace, which always are.
 * An untrusted workspace always reviews every change, whatever the mode or grants. A revert of recorded changes
 * is always reviewed too: it is planned by a merge with what changed since, and the user should see its result.
 *
 * A change let through says by what, for the change history: a grant of the session, or the policy.
 */
import picomatch from 'picomatch';
import type { ApprovalMode } from '../configDefaults';

export interface ApprovalFacts {
  mode: ApprovalMode;
  trusted: boolean;
  protectedGlobs: readonly string[];
  /**
   * Each path the change writes (a move gives two: the file and its destination), relative to the workspace
   * folder containing it or undefined when it is outside all; `removesOrMoves` when the change deletes or moves it.
   */
  files: { path: string; relative: string | undefined; removesOrMoves?: boolean }[];
  /** Files this session was granted further edits to without review. */
  granted: ReadonlySet<string>;
  /** The change reverts recorded changes (`Guard.revert`). */
  revert?: boolean;
}

export type ApprovalNeed = { ask: false; by: 'grant' | 'policy' } | { ask: true; why: string };

export function isProtected(relative: string | undefined, globs: readonly string[]): boolean {
  if (relative === undefined) return false;
  const normalized = relative.split('\\').join('/');
  return globs.some((glob) => picomatch.isMatch(normalized, glob, { dot: true }));
}

export function decideApproval(facts: ApprovalFacts): ApprovalNeed {
  if (!facts.trusted) return { ask: true, why: 'the workspace is not trusted' };
  if (facts.revert) return { ask: true, why: 'a revert is always reviewed' };
  const protectedFile = facts.files.find((file) => isProtected(file.relative, facts.protectedGlobs));
  if (protectedFile) return { ask: true, why: `${protectedFile.relative} is protected` };
  const outside = facts.files.find((file) => file.relative === undefined);
  if (outside) return { ask: true, why: `${outside.path} is outside the workspace` };
  if (facts.mode === 'always' && facts.files.some((file) => file.removesOrMoves || !facts.granted.has(file.path))) {
    return { ask: true, why: 'every change is reviewed' };
  }
  return { ask: false, by: facts.mode === 'always' ? 'grant' : 'policy' };
}
