/**
 * A mutating call after its arguments were copied: its files resolved by the path policy, their locks taken,
 * each file planned (`planChange`) against the call's files (each stat'ed and loaded once), approved and written
 * all or none (`commitPlans`). What the ledger learns is applied here, under the locks, once it is known that the
 * agent gets the outcome that taught it.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { Cancelled, type Operation } from '../mutate/approval';
import { CallFiles } from '../mutate/callFiles';
import { commitPlans } from '../mutate/commit';
import type { FilePlan, PlanInput } from '../mutate/filePlan';
import { planChange } from '../mutate/planChange';
import { isRefusal, type Refusal } from '../refusals/refusal';
import type { MutationOptions, MutationResult } from '../types';
import { runLocked } from './fileLocks';
import { type MutateInput, resolveTargets } from './resolveTargets';

interface PlannedAll {
  outcome: FilePlan[] | Refusal;
  updates: LedgerEntry[];
}

async function planAll(ctx: GuardContext, s: SessionState, inputs: PlanInput[], files: CallFiles): Promise<PlannedAll> {
  const plans: FilePlan[] = [];
  const updates: LedgerEntry[] = [];
  for (const input of inputs) {
    const planned = await planChange(ctx, s, input, files);
    updates.push(...planned.updates);
    if (isRefusal(planned.outcome)) return { outcome: planned.outcome, updates };
    plans.push(planned.outcome);
  }
  return { outcome: plans, updates };
}

export async function runMutation(ctx: GuardContext, s: SessionState, inputs: MutateInput[], operation: Operation, options: MutationOptions): Promise<MutationResult> {
  const resolved = await resolveTargets(ctx.paths, inputs, options.expectedVersion);
  if (isRefusal(resolved)) return resolved;
  return runLocked(ctx, lockTargets(resolved), options.signal, (stats) => planAndCommit(ctx, s, resolved, new CallFiles(ctx, stats), operation, options));
}

/** Every file a change touches, a move's destination included. */
export function lockTargets(inputs: readonly PlanInput[]): { target: string; identity?: string }[] {
  return inputs.flatMap((input) => (input.moveTo ? [input, input.moveTo] : [input]));
}

/** Under the call's locks: plans every file, then approval and the write. `tool`: the call, as the history names it. */
export async function planAndCommit(ctx: GuardContext, s: SessionState, inputs: PlanInput[], files: CallFiles, operation: Operation, options: MutationOptions, tool: string = operation): Promise<MutationResult> {
  if (options.signal?.aborted || ctx.isDisposed()) throw new Cancelled();
  const first = await planAll(ctx, s, inputs, files);
  s.learn(first.updates);
  if (isRefusal(first.outcome)) return first.outcome;
  // A refresh during review re-plans under the same lock, so nothing else interleaves. Its refusals go to
  // the approver, not the agent, so what they would teach the ledger is dropped.
  const replan = async (): Promise<FilePlan[] | Refusal> => {
    const next = await planAll(ctx, s, inputs, new CallFiles(ctx));
    if (!isRefusal(next.outcome)) s.learn(next.updates);
    return next.outcome;
  };
  const learned: LedgerEntry[] = [];
  try {
    return await commitPlans(ctx, s, { plans: first.outcome, operation, explanation: options.explanation, signal: options.signal, replan, learned, tool });
  } finally {
    s.learn(learned);
  }
}
