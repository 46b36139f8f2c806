/**
 * Approval and application of planned changes: ask the `approve` port once for every file, apply what the
 * user decided (including content they changed; anything but a well-formed decision is a rejection), re-check
 * every file's path and version after approval, then write them all or none (`writeFiles.ts`).
 * Then record what the session has now seen and describe exactly what was applied.
 */
import { displayPath } from '../path/displayPath';
import { utf8Size } from '../read/resultBudget';
import { encodeText } from '../edit/encoding';
import { computeLineChanges, formatUnifiedDiff } from '../edit/lineDiff';
import { indexLines } from '../edit/lineEndings';
import { type Ranges, mapThrough, union } from '../ledger/coverage';
import type { Refusal } from '../refusals/refusal';
import type { ApprovalDecision, ApprovalFile, ApprovalRequest, MutatedFile, MutationResult } from '../types';
import type { GuardContext } from '../context/guardContext';
import { encodeFor, versionOf } from '../read/loadText';
import type { FilePlan } from './planFile';
import type { SessionState } from '../context/sessionState';
import { missingEntry } from '../ledger/sessionLedger';
import { type FinalFile, writeFiles } from './writeFiles';
import { hunksOf } from '../edit/hunks';
import { callCancelled } from '../refusals/cancelled';
import { rejectedByUser } from '../refusals/rejectedByUser';
import { writeFailed } from '../refusals/writeFailed';

const RESULT_DIFF_LINES = 400;

export type Operation = 'edit' | 'write' | 'multiEdit' | 'delete' | 'rename';

type Final = FinalFile;

export class Cancelled extends Error {}

function throwIfCancelled(ctx: GuardContext, signal: AbortSignal | undefined): void {
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
interface Proposal {
  plans: FilePlan[];
  replan?: () => Promise<FilePlan[] | Refusal>;
}

async function askApproval(ctx: GuardContext, s: SessionState, proposal: Proposal, operation: Operation, explanation: string | undefined, signal: AbortSignal | undefined): Promise<ApprovalDecision> {
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
        ctx.logger.info('[approval] change re-planned against the current content', { session: s.id, files: next.length });
        return { ok: true, files: approvalFiles(next) };
      },
    };
    const cancelled = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new Cancelled()), { once: true }));
    if (signal?.aborted) throw new Cancelled();
    return await Promise.race([Promise.resolve().then(() => ctx.approve(request)), cancelled]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

type ParsedDecision = { kind: 'approved'; files: { path: string; content: string }[] } | { kind: 'rejected'; reason?: string } | { kind: 'malformed'; detail: string };

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
    const given: unknown = (decision as { files?: unknown }).files;
    if (given === undefined) return { kind: 'approved', files: [] };
    if (!Array.isArray(given)) return { kind: 'malformed', detail: `files is ${shapeOf(given)}, not a list` };
    const files: { path: string; content: string }[] = [];
    for (let i = 0; i < given.length; i++) {
      const file: unknown = given[i];
      const path: unknown = typeof file === 'object' && file !== null ? (file as { path?: unknown }).path : undefined;
      const content: unknown = typeof file === 'object' && file !== null ? (file as { content?: unknown }).content : undefined;
      if (typeof path !== 'string' || typeof content !== 'string') return { kind: 'malformed', detail: `files[${i}] is not { path, content } with two strings` };
      files.push({ path, content });
    }
    return { kind: 'approved', files };
  } catch (error) {
    return { kind: 'malformed', detail: `reading it threw ${String((error as Error)?.message ?? 'an exception')}` };
  }
}

async function finalize(plans: FilePlan[], overrides: { path: string; content: string }[]): Promise<Final[] | Refusal> {
  const finals: Final[] = [];
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

/**
 * What each file's diff in the result may take within the session's budget: an equal share of what the
 * summary lines leave (each is the path and a few words).
 */
function diffShare(ctx: GuardContext, s: SessionState, finals: Final[]): { maxChars: number; maxLineLength: number } | undefined {
  const budget = s.diffBudget(ctx.limits);
  if (!budget) return undefined;
  const words = finals.reduce((sum, f) => sum + utf8Size(displayPath(f.plan.path)) + 120, 200);
  return { maxChars: Math.max(200, Math.floor((budget.maxChars - words) / Math.max(1, finals.length))), maxLineLength: budget.maxLineLength };
}

/** What the session now knows of a file it removed (or moved away): that it is missing. */
function recordGone(ctx: GuardContext, s: SessionState, plan: FilePlan): void {
  s.ledger.record(missingEntry(plan.target, plan.path, ctx.clock.now()));
  ctx.changes.note(plan.target, { kind: 'session', detail: s.id }, ctx.clock.now(), undefined);
}

async function record(ctx: GuardContext, s: SessionState, final: Final, share?: { maxChars: number; maxLineLength: number }): Promise<MutatedFile & { summary: string; shownDiff: string }> {
  const { plan } = final;
  if (plan.deleted) {
    recordGone(ctx, s, plan);
    const lines = plan.beforeIndex.count;
    return { path: plan.path, version: '', created: false, deleted: true, diff: '', summary: `${displayPath(plan.path)}: deleted (it had ${lines} line${lines === 1 ? '' : 's'}).`, shownDiff: '' };
  }
  if (plan.movedTo) {
    recordGone(ctx, s, plan);
    const moved = await recordWritten(ctx, s, final, plan.movedTo, share);
    const content = final.afterText === plan.beforeText ? 'its content unchanged' : plan.replacements ? `${plan.replacements} replacement${plan.replacements === 1 ? '' : 's'} in it` : 'its content changed';
    return { ...moved, path: plan.path, created: false, movedTo: plan.movedTo.path, summary: `${displayPath(plan.path)}: moved to ${displayPath(plan.movedTo.path)}, ${content}; new version ${moved.version}.` };
  }
  return recordWritten(ctx, s, final, plan, share);
}

/** Records the file written at `at` (the plan's own path, or where it moved). */
async function recordWritten(ctx: GuardContext, s: SessionState, final: Final, at: { path: string; target: string }, share?: { maxChars: number; maxLineLength: number }): Promise<MutatedFile & { summary: string; shownDiff: string }> {
  const { plan, afterText, bytes } = final;
  // The file is written: a failing stat now must not turn the call into a failure that says nothing changed.
  const stat = await ctx.fs.stat(at.target).catch(() => undefined);
  const hasher = await ctx.hasher();
  const version = versionOf(hasher, bytes, stat?.revision);
  const afterIndex = final.userChanged ? indexLines(afterText) : plan.afterIndex;
  const changes = final.userChanged ? computeLineChanges(plan.beforeText, afterText, { old: plan.beforeIndex, new: afterIndex }) : plan.changes;
  const diff = formatUnifiedDiff(at.path, plan.beforeText, afterText, changes, { maxLines: RESULT_DIFF_LINES, oldIndex: plan.beforeIndex, newIndex: afterIndex, ...share });
  const lineCount = afterIndex.count;
  let seen: Ranges = plan.seenAfter;
  if (final.userChanged) seen = union(mapThrough(plan.seenBefore, changes), diff.shownNew);
  if (stat) {
    s.ledger.record({ identity: stat.identity, target: at.target, path: at.path, version, totalLines: lineCount, seen, shown: [], shownByRead: 0, recordedAt: ctx.clock.now() });
  }
  if (bytes.length <= ctx.snapshotMaxFileBytes) ctx.snapshots.put(version, afterText);
  ctx.changes.note(at.target, { kind: 'session', detail: s.id }, ctx.clock.now(), version);
  const lines = `${lineCount} line${lineCount === 1 ? '' : 's'}`;
  const what = plan.created ? `created (${lines})` : plan.replacements ? `${plan.replacements} replacement${plan.replacements === 1 ? '' : 's'}` : `replaced (${lines})`;
  return { path: at.path, version, created: plan.created, diff: diff.text, summary: `${displayPath(at.path)}: ${what}; new version ${version}.`, shownDiff: diff.text };
}

/** `replan` recomputes the plans against current content (same inputs, same lock), for refreshes during review. */
export async function commitPlans(ctx: GuardContext, s: SessionState, planned: FilePlan[], operation: Operation, explanation: string | undefined, signal: AbortSignal | undefined, replan?: () => Promise<FilePlan[] | Refusal>): Promise<MutationResult> {
  throwIfCancelled(ctx, signal);
  const proposal: Proposal = { plans: planned, ...(replan ? { replan } : {}) };
  let decision: ApprovalDecision;
  try {
    decision = await askApproval(ctx, s, proposal, operation, explanation, signal);
  } catch (error) {
    if (error instanceof Cancelled) throw error;
    ctx.logger.error('[approval] the approval port failed', { session: s.id, error: String(error) });
    return rejectedByUser.approvalFailed(proposal.plans.map((p) => p.path).join(', '), String((error as Error)?.message ?? error));
  }
  throwIfCancelled(ctx, signal);
  const plans = proposal.plans;
  const paths = plans.map((p) => p.path).join(', ');
  const parsed = parseDecision(decision);
  if (parsed.kind === 'malformed') {
    ctx.logger.warn('[approval] malformed decision treated as a rejection', { session: s.id, detail: parsed.detail });
    return rejectedByUser.malformed(paths, parsed.detail);
  }
  if (parsed.kind === 'rejected') return rejectedByUser.rejected(paths, parsed.reason);
  const finals = await finalize(plans, parsed.files);
  if (!Array.isArray(finals)) return finals;
  const keeps = (f: Final): boolean => !f.plan.created && !f.plan.deleted && !f.plan.movedTo && f.afterText === f.plan.beforeText;
  if (finals.every(keeps)) {
    return rejectedByUser.rejected(plans.map((p) => p.path).join(', '), 'the user accepted none of the proposed changes');
  }
  // Files the user kept unchanged are not written; every other file is re-checked, then all are written or none.
  const changed = finals.filter((f) => !keeps(f));
  const failed = await writeFiles(ctx, s, changed, () => throwIfCancelled(ctx, signal));
  if (failed) return failed;

  const files: MutatedFile[] = [];
  const lines: string[] = [];
  const userChanged = finals.some((f) => f.userChanged);
  const share = diffShare(ctx, s, finals);
  for (const final of finals) {
    if (keeps(final)) {
      lines.push(`${displayPath(final.plan.path)}: NOT modified (the user rejected all of its changes).`);
      continue;
    }
    const done = await record(ctx, s, final, share);
    files.push({ path: done.path, version: done.version, created: done.created, ...(done.deleted ? { deleted: true } : {}), ...(done.movedTo ? { movedTo: done.movedTo } : {}), diff: done.diff });
    lines.push(done.summary);
  }
  const verb = { write: 'Wrote', edit: 'Edited', multiEdit: 'Edited', delete: 'Deleted', rename: 'Moved' }[operation];
  const head = userChanged
    ? `${verb} with changes the user made before approving; this is exactly what was applied:`
    : `${verb} ${files.length === 1 ? files[0].path : `${files.length} files`}:`;
  const text = [head, ...lines, ...files.map((file) => file.diff).filter((diff) => diff !== '')].join('\n');
  ctx.logger.info(`[guard] ${operation} applied`, { session: s.id, files: files.map((f) => ({ path: f.path, version: f.version, created: f.created })), userChanged });
  return { ok: true, text, files };
}
