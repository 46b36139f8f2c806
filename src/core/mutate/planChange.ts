/**
 * Plans one file's change: gathers facts until `decideMutation` can decide, and has the adapter's codec encode
 * the new text when the file is in an encoding only the adapter knows. Nothing is written here.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { LedgerEntry } from '../ledger/sessionLedger';
import type { CallFiles } from './callFiles';
import { encodeFor, type FileText } from '../text/loadText';
import { isRefusal, type Refusal } from '../refusals/refusal';
import { decideMutation, finishEncoded } from './decideMutation';
import type { FilePlan, PlanInput } from './filePlan';
import { gather, startFacts } from './mutationFacts';

/** A plan (or the refusal) and what the ledger learns from planning, applied by the caller once it is known
 * whether the agent gets this outcome (a refresh during review shows it to the user only). */
export interface Planned {
  outcome: FilePlan | Refusal;
  updates: LedgerEntry[];
}

/** `files`: the call's files, stat'ed under its locks and loaded once. */
export async function planChange(ctx: GuardContext, s: SessionState, input: PlanInput, files: CallFiles): Promise<Planned> {
  const facts = startFacts(ctx, s, input, await files.stat(input.target));
  for (;;) {
    const decision = decideMutation(facts);
    if (decision.kind === 'need') {
      await gather(ctx, s, facts, decision.need, files);
      continue;
    }
    if (decision.kind === 'decided') return { outcome: decision.outcome, updates: decision.ledgerUpdates };
    const encoded = await encodeFor(decision.plan.before as FileText, decision.plan.afterText);
    return { outcome: finishEncoded(facts, decision.plan, encoded), updates: decision.ledgerUpdates };
  }
}

/** Every file of a call planned in order, stopping at the first refusal; with what the ledger learns from them. */
export async function planFiles(
  ctx: GuardContext,
  s: SessionState,
  inputs: readonly PlanInput[],
  files: CallFiles,
): Promise<{ outcome: FilePlan[] | Refusal; updates: LedgerEntry[] }> {
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
