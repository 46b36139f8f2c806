/**
 * Judges a change an agent's own tool is about to make, before it runs: its files checked by the path policy and
 * locked, each planned exactly as the session's own edit, write or patch would be (old text matched exactly, in
 * lines the session saw, unchanged since; a whole-file change needs the whole file seen; new files are free),
 * then put to the `approve` port. Nothing is written: the tool writes once the client is told it may. What the
 * plans expect the files to hold afterwards is returned, for the record after the call (`recordOwnChange.ts`).
 *
 * The locks are held only while this decides: the tool runs later, in the client, so the window between this
 * decision and its write is the client's; the record afterwards notes a result that is not what was allowed.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import { formatUnifiedDiff, computeLineChanges } from '../edit/lineDiff';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { type PatchTarget, patchPaths, planAgentPatch } from '../mutate/agentPatch';
import { Cancelled, askApproval, parseDecision, throwIfCancelled } from '../mutate/approval';
import { CallFiles } from '../mutate/callFiles';
import { runLocked } from '../mutate/fileLocks';
import type { FilePlan, PlanInput } from '../mutate/filePlan';
import { planFiles } from '../mutate/planChange';
import { type CheckedInput, type CheckedPath, type MutateInput, mergeTargets, resolveTargets } from '../mutate/resolveTargets';
import { parsePatch } from '../patch/parsePatch';
import { rejectedByUser } from '../refusals/rejectedByUser';
import { isRefusal, type Refusal, refuse } from '../refusals/refusal';
import type { Operation } from '../mutate/approval';
import type { ApprovalDecision, OwnChange, OwnChangeCall } from '../types';

/** A change the guard allowed, as the record after the call needs it. */
export interface AllowedChange {
  tool: string;
  explanation: string | undefined;
  approvedBy: string;
  plans: FilePlan[];
  /** The tool decides the new content (`OwnChange` loose): the plans expect no particular result. */
  loose: boolean;
}

export interface Judged {
  outcome: AllowedChange | Refusal;
  updates: LedgerEntry[];
}

/** The guard's request for each file: old texts matched exactly, a write as given (the tool keeps no line endings of ours). */
function requestOf(file: OwnChange): MutateInput {
  if (file.kind === 'edit') return { path: file.path, request: { kind: 'edit', edits: file.edits.map((edit) => ({ ...edit, exact: true })) } };
  if (file.kind === 'write') return { path: file.path, request: { kind: 'write', content: file.content, verbatim: true } };
  return { path: file.path, request: { kind: 'loose' } };
}

const lockTargets = (inputs: readonly PlanInput[]): { target: string; identity?: string }[] =>
  inputs.flatMap((input) => (input.moveTo ? [input, input.moveTo] : [input]));

export async function judgeChange(ctx: GuardContext, s: SessionState, call: OwnChangeCall): Promise<Judged> {
  if ('patch' in call.change) return judgePatch(ctx, s, call, call.change.patch);
  const { files } = call.change;
  const loose = files.some((file) => file.kind === 'loose');
  const resolved = await resolveTargets(ctx.paths, files.map(requestOf), undefined);
  if (isRefusal(resolved)) return { outcome: resolved, updates: [] };
  return runLocked(ctx, lockTargets(resolved), call.signal, async (stats) => {
    const planned = await planFiles(ctx, s, resolved, new CallFiles(ctx, stats));
    if (isRefusal(planned.outcome)) return { outcome: planned.outcome, updates: planned.updates };
    const operation: Operation = planned.outcome.length > 1 ? 'multiEdit' : files[0]?.kind === 'write' ? 'write' : 'edit';
    return { outcome: await approved(ctx, s, call, planned.outcome, operation, loose), updates: planned.updates };
  });
}

/** A patch: placed by its exact context in the current text (as the session's own patch), then judged as its files. */
async function judgePatch(ctx: GuardContext, s: SessionState, call: OwnChangeCall, patch: string): Promise<Judged> {
  const parsed = parsePatch(patch);
  if (!parsed.ok) return { outcome: parsed, updates: [] };
  const targets = new Map<string, CheckedPath>();
  for (const path of patchPaths(parsed.files).keys()) {
    const checked = await ctx.paths.check(path);
    if (!checked.ok) return { outcome: refuse(checked.code, checked.message), updates: [] };
    targets.set(path, checked);
  }
  return runLocked(ctx, [...targets.values()], call.signal, async (stats) => {
    const files = new CallFiles(ctx, stats);
    const learned: LedgerEntry[] = [];
    const placed = await planAgentPatch(ctx, s, parsed.files, targets as ReadonlyMap<string, PatchTarget>, files, learned);
    if (!placed.ok) return { outcome: placed, updates: learned };
    const at = (path: string): CheckedPath => targets.get(path) as CheckedPath;
    const inputs: CheckedInput[] =
      'write' in placed
        ? [{ checked: at(placed.write.path), request: { kind: 'write', content: placed.write.content, verbatim: true } }]
        : placed.changes.map((change) => ({
            checked: at(change.path),
            request: change.delete ? { kind: 'delete' } : { kind: 'edit', edits: (change.edits ?? []).map((edit) => ({ ...edit, exact: true })) },
            ...(change.moveTo !== undefined ? { moveTo: at(change.moveTo) } : {}),
          }));
    const merged = mergeTargets(inputs);
    if (isRefusal(merged)) return { outcome: merged, updates: learned };
    const planned = await planFiles(ctx, s, merged, files);
    learned.push(...planned.updates);
    if (isRefusal(planned.outcome)) return { outcome: planned.outcome, updates: learned };
    return { outcome: await approved(ctx, s, call, planned.outcome, planned.outcome.length > 1 ? 'multiEdit' : 'edit', false), updates: learned };
  });
}

/** The plans put to the approve port; a decision that changes them is a refusal (the tool applies a change whole). */
async function approved(
  ctx: GuardContext,
  s: SessionState,
  call: OwnChangeCall,
  plans: FilePlan[],
  operation: Operation,
  loose: boolean,
): Promise<AllowedChange | Refusal> {
  const paths = plans.map((plan) => plan.path).join(', ');
  let decision: ApprovalDecision;
  try {
    decision = await askApproval(ctx, s, { plans }, operation, call.explanation, call.signal, { name: call.tool, preview: !loose });
  } catch (error) {
    if (error instanceof Cancelled) throw error;
    ctx.logger.error('[approval] the approval port failed', { session: s.id, error: String(error) });
    return rejectedByUser.approvalFailed(paths, String((error as Error)?.message ?? error));
  }
  throwIfCancelled(ctx, call.signal);
  const parsed = parseDecision(decision);
  if (parsed.kind === 'malformed') return rejectedByUser.malformed(paths, parsed.detail);
  if (parsed.kind === 'rejected') return loose ? rejectedByUser.noPreview(paths, call.tool) : rejectedByUser.rejected(paths, parsed.reason);
  for (const plan of plans) {
    const given = parsed.files.find((file) => file.path === plan.path || file.path === plan.target);
    if (given && given.content !== plan.afterText) {
      const changes = computeLineChanges(plan.afterText, given.content);
      return rejectedByUser.partOnly(plan.path, call.tool, formatUnifiedDiff(plan.path, plan.afterText, given.content, changes, { maxLines: 200 }).text);
    }
  }
  return { tool: call.tool, explanation: call.explanation, approvedBy: parsed.approvedBy ?? 'approver', plans, loose };
}
