/**
 * Asking the `approve` port once for every file of a change, and reading its answer: what the user decided
 * (including content they changed; anything but a well-formed decision is a rejection). While the user reviews,
 * the approver may ask for the change re-planned against the current content (`refresh`).
 */
import { encodeText } from '../text/encoding';
import { formatUnifiedDiff } from '../edit/lineDiff';
import { hunksOf } from '../edit/hunks';
import type { Refusal } from '../refusals/refusal';
import { callCancelled } from '../refusals/cancelled';
import { writeFailed } from '../refusals/writeFailed';
import type { ApprovalConflict, ApprovalDecision, ApprovalFile, ApprovalRequest } from '../types';
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import { encodeFor } from '../text/loadText';
import type { FilePlan } from './filePlan';
import type { FinalFile } from './writeFiles';

export type Operation = 'edit' | 'write' | 'multiEdit' | 'delete' | 'rename' | 'revert';

/** The call was cancelled (its signal, or the guard disposed): nothing was written. */
export class Cancelled extends Error {}

export function throwIfCancelled(ctx: GuardContext, signal: AbortSignal | undefined): void {
  if (signal?.aborted || ctx.isDisposed()) throw new Cancelled();
}

function approvalFiles(plans: FilePlan[]): ApprovalFile[] {
  return plans.map((plan) => ({
    path: plan.path,
    created: plan.created,
    ...(plan.deleted ? { deleted: true } : {}),
    ...(plan.movedTo ? { movedTo: plan.movedTo.path } : {}),
    before: plan.beforeText,
    after: plan.afterText,
    diff: formatUnifiedDiff(plan.path, plan.beforeText, plan.afterText, plan.changes, { oldIndex: plan.beforeIndex, newIndex: plan.afterIndex }).text,
    // The line changes the plan already computed, grouped as the diff shows them: approvers need not diff again.
    hunks: hunksOf(plan.changes, plan.beforeIndex.count, plan.afterIndex.count),
  }));
}

/** Plans of the change as currently proposed: replaced when the approver asks for a refresh. */
export interface Proposal {
  plans: FilePlan[];
  replan?: () => Promise<FilePlan[] | Refusal>;
  /** A revert's conflicts as currently planned (a refresh plans them again). */
  conflicts?: () => readonly ApprovalConflict[];
}

/** The request's conflicts, when there are any (a copy: the approver may keep or change it). */
function conflictsOf(proposal: Proposal): { conflicts?: ApprovalConflict[] } {
  const conflicts = proposal.conflicts?.() ?? [];
  return conflicts.length ? { conflicts: conflicts.map((c) => ({ ...c, ranges: c.ranges.map((r) => ({ ...r })) })) } : {};
}

export async function askApproval(
  ctx: GuardContext,
  s: SessionState,
  proposal: Proposal,
  operation: Operation,
  explanation: string | undefined,
  signal: AbortSignal | undefined,
  ownTool?: ApprovalRequest['ownTool'],
): Promise<ApprovalDecision> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const request: ApprovalRequest = {
      sessionId: s.id,
      operation,
      ...(explanation !== undefined ? { explanation } : {}),
      files: approvalFiles(proposal.plans),
      signal: controller.signal,
      refresh: async () => {
        if (!proposal.replan || ctx.isDisposed()) return callCancelled.cancelled();
        const next = await proposal.replan();
        if (!Array.isArray(next)) return next;
        proposal.plans = next;
        const { conflicts } = conflictsOf(proposal);
        if (conflicts) request.conflicts = conflicts;
        else delete request.conflicts;
        ctx.logger.info('[approval] change re-planned against the current content', { session: s.id, files: next.length });
        return { ok: true, files: approvalFiles(next), ...(conflicts ? { conflicts } : {}) };
      },
      ...conflictsOf(proposal),
      ...(ownTool ? { ownTool } : {}),
    };
    const cancelled = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Cancelled()), { once: true }));
    if (signal?.aborted) throw new Cancelled();
    return await Promise.race([Promise.resolve().then(() => ctx.approve(request)), cancelled]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

type ParsedDecision =
  | { kind: 'approved'; files: { path: string; content: string }[]; approvedBy?: string; takeMerged: boolean }
  | { kind: 'rejected'; reason?: string }
  | { kind: 'malformed'; detail: string };

/** Who approved, when the decision says so in a way the history can keep (a short non-empty string). */
function approvedByOf(decision: object): { approvedBy?: string } {
  const by: unknown = (decision as { approvedBy?: unknown }).approvedBy;
  return typeof by === 'string' && by.trim() !== '' && by.length <= 100 ? { approvedBy: by } : {};
}

function shapeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}

/**
 * The approver's answer as plain data, read once. Only `approved === true` approves (fail closed: `'false'`, `1`
 * or a missing field must never apply a change), and its optional files must be `{ path, content }` strings.
 */
export function parseDecision(decision: unknown): ParsedDecision {
  try {
    if (typeof decision !== 'object' || decision === null) return { kind: 'malformed', detail: `the decision is ${shapeOf(decision)}, not an object` };
    const approved: unknown = (decision as { approved?: unknown }).approved;
    if (approved === false) {
      const reason: unknown = (decision as { reason?: unknown }).reason;
      return { kind: 'rejected', ...(typeof reason === 'string' && reason !== '' ? { reason } : {}) };
    }
    if (approved !== true) return { kind: 'malformed', detail: `approved is ${shapeOf(approved)}, not true or false` };
    // Only `true` takes a revert's merged parts, as only `true` approves.
    const extras = { ...approvedByOf(decision), takeMerged: (decision as { takeMerged?: unknown }).takeMerged === true };
    const given: unknown = (decision as { files?: unknown }).files;
    if (given === undefined) return { kind: 'approved', files: [], ...extras };
    if (!Array.isArray(given)) return { kind: 'malformed', detail: `files is ${shapeOf(given)}, not a list` };
    const files: { path: string; content: string }[] = [];
    for (let i = 0; i < given.length; i++) {
      const file: unknown = given[i];
      const path: unknown = typeof file === 'object' && file !== null ? (file as { path?: unknown }).path : undefined;
      const content: unknown = typeof file === 'object' && file !== null ? (file as { content?: unknown }).content : undefined;
      if (typeof path !== 'string' || typeof content !== 'string') {
        return { kind: 'malformed', detail: `files[${i}] is not { path, content } with two strings` };
      }
      files.push({ path, content });
    }
    return { kind: 'approved', files, ...extras };
  } catch (error) {
    return { kind: 'malformed', detail: `reading it threw ${String((error as Error)?.message ?? 'an exception')}` };
  }
}

export async function finalize(plans: FilePlan[], overrides: { path: string; content: string }[]): Promise<FinalFile[] | Refusal> {
  const finals: FinalFile[] = [];
  for (const plan of plans) {
    // A deletion is approved whole; its content cannot be edited in review.
    const override = plan.deleted ? undefined : overrides.find((file) => file.path === plan.path || file.path === plan.target);
    if (!override || override.content === plan.afterText) {
      finals.push({ plan, afterText: plan.afterText, bytes: plan.afterBytes, userChanged: false });
      continue;
    }
    const encoded = plan.before ? await encodeFor(plan.before, override.content) : encodeText(override.content, plan.encoding);
    if (!encoded.ok) return writeFailed.io(plan.path, `the approved content has a character (${JSON.stringify(encoded.char)}) the file's encoding cannot hold`);
    finals.push({ plan, afterText: override.content, bytes: encoded.bytes, userChanged: true });
  }
  return finals;
}
