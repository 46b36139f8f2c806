/**
 * The one way a change is carried out under its call's locks, for an agent's change, its patch and a revert: plan
 * it, learn what planning taught, then approve and write all or none (`commitPlans`), planning again on a refresh
 * during review.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { Cancelled, type Operation } from '../mutate/approval';
import { CallFiles } from '../mutate/callFiles';
import { type Commit, commitPlans } from '../mutate/commit';
import type { FilePlan } from '../mutate/filePlan';
import { isRefusal, type Refusal } from '../refusals/refusal';
import type { MutationResult } from '../types';

/** One planning of a change: its file plans or the refusal, and what the ledger learns from it. */
export interface PlannedFiles {
  outcome: FilePlan[] | Refusal;
  updates: readonly LedgerEntry[];
}

/** A change on its way: how it is planned, and how the approval and the history name it. */
export interface ChangeCall {
  /** Plans the change against `files`: the call's own first, a fresh set on each refresh during review. */
  plan(files: CallFiles): Promise<PlannedFiles>;
  operation: Operation;
  /** The call, as the change history names it. */
  tool: string;
  explanation: string | undefined;
  signal: AbortSignal | undefined;
  revert?: Commit['revert'];
}

/** Under the call's locks (`files`: stat'ed once they were held): plans the change, then approval and the write. */
export async function planAndCommit(ctx: GuardContext, s: SessionState, change: ChangeCall, files: CallFiles): Promise<MutationResult> {
  if (change.signal?.aborted || ctx.isDisposed()) throw new Cancelled();
  const first = await change.plan(files);
  s.learn(first.updates);
  if (isRefusal(first.outcome)) return first.outcome;
  // A refresh during review re-plans under the same lock, so nothing else interleaves. Its refusals go to
  // the approver, not the agent, so what they would teach the ledger is dropped.
  const replan = async (): Promise<FilePlan[] | Refusal> => {
    const next = await change.plan(new CallFiles(ctx));
    if (!isRefusal(next.outcome)) s.learn(next.updates);
    return next.outcome;
  };
  const learned: LedgerEntry[] = [];
  try {
    const { operation, explanation, signal, tool, revert } = change;
    return await commitPlans(ctx, s, { plans: first.outcome, operation, explanation, signal, replan, learned, tool, ...(revert ? { revert } : {}) });
  } finally {
    s.learn(learned);
  }
}
