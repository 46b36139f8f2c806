/**
 * `Guard.revert` after its arguments were copied: the changes read from the history (`history/revertQuery.ts`),
 * every path they name checked by the path policy and locked, then the revert planned against the files as they
 * are now (`mutate/revertPlans.ts`) and carried out like any change by `planAndCommit`.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import { type RevertedChanges, changesToRevert } from '../history/revertQuery';
import type { RevertChange } from '../history/revertTypes';
import { CallFiles } from '../mutate/callFiles';
import { type RevertPath, planRevertNow } from '../mutate/revertPlans';
import { invalidRevert } from '../refusals/invalidInput';
import { type Refusal, isRefusal, refuse } from '../refusals/refusal';
import type { ApprovalConflict, MutationResult } from '../types';
import type { RevertCall } from './callArguments';
import { runLocked } from '../mutate/fileLocks';
import { type ChangeCall, type PlannedFiles, planAndCommit } from './planAndCommit';

/** Every path the changes name (a rename's old name too), checked by the path policy as it is now. */
async function checkPaths(ctx: GuardContext, changes: readonly RevertChange[]): Promise<RevertPath[] | Refusal> {
  const paths = new Set<string>();
  for (const change of changes) {
    for (const file of change.files) {
      paths.add(file.path);
      if (file.from !== undefined) paths.add(file.from);
    }
  }
  const checked: RevertPath[] = [];
  for (const path of paths) {
    const result = await ctx.paths.check(path);
    if (!result.ok) return refuse(result.code, `${result.message} The revert would change it, so nothing was changed.`);
    checked.push({ path, target: result.target, ...(result.identity ? { identity: result.identity } : {}) });
  }
  return checked;
}

/**
 * The revert as a change: it needs no read, so planning teaches the ledger nothing; the conflicts of its latest
 * plan (a refresh during review plans again) are what the approval shows and what is recorded as partial.
 */
function revertChange(
  ctx: GuardContext,
  s: SessionState,
  reverted: RevertedChanges,
  paths: readonly RevertPath[],
  call: RevertCall,
  signal: AbortSignal | undefined,
): ChangeCall {
  let conflicts: ApprovalConflict[] | undefined;
  const plan = async (files: CallFiles): Promise<PlannedFiles> => {
    const planned = await planRevertNow(ctx, reverted, paths, files);
    if (isRefusal(planned)) return { outcome: planned, updates: [] };
    if (conflicts === undefined) {
      ctx.logger.info('[history] revert planned', { session: s.id, what: reverted.what, files: planned.plans.length, conflicts: planned.conflicts.length });
    }
    conflicts = planned.conflicts;
    return { outcome: planned.plans, updates: [] };
  };
  const revert = { revertOf: reverted.revertOf, what: reverted.what, conflicts: () => conflicts ?? [] };
  return { plan, operation: 'revert', tool: 'revert', explanation: call.explanation ?? reverted.explanation, signal, revert };
}

export async function runRevert(ctx: GuardContext, s: SessionState, call: RevertCall, signal: AbortSignal | undefined): Promise<MutationResult> {
  const { history } = ctx;
  if (!history) return invalidRevert.noHistory();
  const reverted = await changesToRevert(history, call.target);
  if (isRefusal(reverted)) return reverted;
  const paths = await checkPaths(ctx, reverted.changes);
  if (isRefusal(paths)) return paths;
  return runLocked(ctx, paths, signal, (stats) => planAndCommit(ctx, s, revertChange(ctx, s, reverted, paths, call, signal), new CallFiles(ctx, stats)));
}
