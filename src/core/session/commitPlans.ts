/**
 * Approval and application of planned changes: ask the `approve` port once for every file, apply what the
 * user decided (including content they changed), re-check each file's path and version after approval and
 * again right before writing it (`recheckPlan.ts`), write atomically, and undo earlier files if a later one
 * fails (all or none).
 * Then record what the session has now seen and describe exactly what was applied.
 */
import * as nodePath from 'node:path';
import { encodeText } from '../edit/encoding';
import { computeLineChanges, formatUnifiedDiff } from '../edit/lineDiff';
import { indexLines } from '../edit/lineEndings';
import { type Ranges, mapThrough, union } from '../ledger/coverage';
import { type Refusal, messages, refuse } from '../refusal';
import type { ApprovalDecision, ApprovalFile, ApprovalRequest, MutatedFile, MutationResult } from '../types';
import type { GuardContext } from './context';
import { encodeFor, versionOf } from './fileText';
import type { FilePlan } from './mutationPlan';
import { makeParents, removeMadeParents } from './parentDirs';
import { recheckPlan } from './recheckPlan';
import type { SessionState } from './sessionState';

/** Identities remembered across atomic replacements (a long-lived window makes many writes). */
const MAX_PREDECESSORS = 10_000;

const RESULT_DIFF_LINES = 400;

export type Operation = 'edit' | 'write' | 'multiEdit';

interface Final {
  plan: FilePlan;
  afterText: string;
  bytes: Uint8Array;
  userChanged: boolean;
}

export class Cancelled extends Error {}

function throwIfCancelled(ctx: GuardContext, signal: AbortSignal | undefined): void {
  if (signal?.aborted || ctx.isDisposed()) throw new Cancelled();
}

function approvalFiles(plans: FilePlan[]): ApprovalFile[] {
  return plans.map((plan) => ({
    path: plan.path,
    created: plan.created,
    before: plan.beforeText,
    after: plan.afterText,
    diff: formatUnifiedDiff(plan.path, plan.beforeText, plan.afterText, plan.changes, { oldIndex: plan.beforeIndex, newIndex: plan.afterIndex }).text,
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
        if (!proposal.replan || ctx.isDisposed()) return refuse('CANCELLED', messages.cancelled());
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

async function finalize(plans: FilePlan[], decision: Extract<ApprovalDecision, { approved: true }>): Promise<Final[] | Refusal> {
  const finals: Final[] = [];
  for (const plan of plans) {
    const override = decision.files?.find((file) => file.path === plan.path || file.path === plan.target);
    if (!override || override.content === plan.afterText) {
      finals.push({ plan, afterText: plan.afterText, bytes: plan.afterBytes, userChanged: false });
      continue;
    }
    const encoded = plan.before ? await encodeFor(plan.before, override.content) : encodeText(override.content, plan.encoding);
    if (!encoded.ok) return refuse('WRITE_FAILED', messages.writeFailed(plan.path, `the approved content has a character (${JSON.stringify(encoded.char)}) the file's encoding cannot hold`));
    finals.push({ plan, afterText: override.content, bytes: encoded.bytes, userChanged: true });
  }
  return finals;
}

const writeOptions = (plan: FilePlan) => (plan.stat ? { mode: plan.stat.mode, inPlace: plan.stat.nlink > 1 } : {});

/** Several files through the port's batch write: verified first, then written as one change. */
async function writeBatch(ctx: GuardContext, s: SessionState, finals: Final[], signal: AbortSignal | undefined, batch: NonNullable<GuardContext['fs']['writeBatch']>): Promise<Refusal | undefined> {
  for (const { plan } of finals) {
    const stale = await recheckPlan(ctx, s, plan, 'just before it was written');
    if (stale) return stale;
  }
  throwIfCancelled(ctx, signal);
  const madeDirs: string[] = [];
  try {
    for (const { plan } of finals) if (plan.created) await makeParents(ctx.fs, nodePath.dirname(plan.target), madeDirs);
    await batch(finals.map(({ plan, bytes }) => ({ path: plan.target, data: bytes, options: writeOptions(plan), created: plan.created })));
  } catch (error) {
    await removeMadeParents(ctx.fs, madeDirs);
    const detail = (error as NodeJS.ErrnoException).code ?? String((error as Error)?.message ?? error);
    ctx.logger.error('[guard] batch write failed', { session: s.id, files: finals.length, error: detail });
    return refuse('WRITE_FAILED', messages.writeFailed(finals.map((f) => f.plan.path).join(', '), detail) + ' No file was changed.');
  }
  return undefined;
}

async function writeAll(ctx: GuardContext, s: SessionState, all: Final[], signal: AbortSignal | undefined): Promise<Refusal | undefined> {
  const finals = all.filter(({ plan, afterText }) => plan.created || afterText !== plan.beforeText);
  if (finals.length > 1 && ctx.fs.writeBatch) return writeBatch(ctx, s, finals, signal, ctx.fs.writeBatch.bind(ctx.fs));
  const written: Final[] = [];
  const madeDirs: string[] = [];
  for (const final of finals) {
    const { plan } = final;
    const stale = await recheckPlan(ctx, s, plan, 'just before it was written');
    if (stale) {
      await undo(ctx, written, madeDirs);
      return stale;
    }
    if (written.length === 0) throwIfCancelled(ctx, signal);
    try {
      if (plan.created) await makeParents(ctx.fs, nodePath.dirname(plan.target), madeDirs);
      await ctx.fs.writeFile(plan.target, final.bytes, writeOptions(plan));
      written.push(final);
    } catch (error) {
      const detail = (error as NodeJS.ErrnoException).code ?? String(error);
      const notRestored = await undo(ctx, written, madeDirs);
      ctx.logger.error('[guard] write failed', { session: s.id, path: plan.path, error: detail, restored: written.length - notRestored.length });
      const others = written.length ? ` The ${written.length} file(s) already written were restored${notRestored.length ? `, except ${notRestored.join(', ')}` : ''}.` : '';
      return refuse('WRITE_FAILED', messages.writeFailed(plan.path, detail) + others);
    }
  }
  return undefined;
}

/**
 * Restores files already written by this call and removes the directories it made; returns the paths that
 * could not be restored.
 */
async function undo(ctx: GuardContext, written: Final[], madeDirs: readonly string[]): Promise<string[]> {
  const failed: string[] = [];
  for (const { plan } of [...written].reverse()) {
    try {
      if (plan.created) await ctx.fs.unlink(plan.target);
      else await ctx.fs.writeFile(plan.target, plan.before!.bytes, writeOptions(plan));
    } catch {
      failed.push(plan.path);
    }
  }
  await removeMadeParents(ctx.fs, madeDirs);
  return failed;
}

async function record(ctx: GuardContext, s: SessionState, final: Final): Promise<MutatedFile & { summary: string; shownDiff: string }> {
  const { plan, afterText, bytes } = final;
  const stat = await ctx.fs.stat(plan.target);
  const hasher = await ctx.hasher();
  const version = versionOf(hasher, bytes, stat?.revision);
  const afterIndex = final.userChanged ? indexLines(afterText) : plan.afterIndex;
  const changes = final.userChanged ? computeLineChanges(plan.beforeText, afterText, { old: plan.beforeIndex, new: afterIndex }) : plan.changes;
  const diff = formatUnifiedDiff(plan.path, plan.beforeText, afterText, changes, { maxLines: RESULT_DIFF_LINES, oldIndex: plan.beforeIndex, newIndex: afterIndex });
  const lineCount = afterIndex.count;
  let seen: Ranges = plan.seenAfter;
  if (final.userChanged) seen = union(mapThrough(plan.seenBefore, changes), diff.shownNew);
  if (stat) {
    if (plan.stat && stat.identity !== plan.stat.identity) {
      ctx.predecessors.set(stat.identity, plan.stat.identity);
      // Bounded: one entry per atomic write; the oldest are the least likely to be looked up.
      if (ctx.predecessors.size > MAX_PREDECESSORS) ctx.predecessors.delete(ctx.predecessors.keys().next().value as string);
    }
    s.ledger.record({ identity: stat.identity, target: plan.target, path: plan.path, version, totalLines: lineCount, seen, shown: [], shownByRead: 0, recordedAt: ctx.clock.now() });
  }
  if (bytes.length <= ctx.snapshotMaxFileBytes) ctx.snapshots.put(version, afterText);
  ctx.changes.note(plan.target, { kind: 'session', detail: s.id }, ctx.clock.now());
  const lines = `${lineCount} line${lineCount === 1 ? '' : 's'}`;
  const what = plan.created ? `created (${lines})` : plan.replacements ? `${plan.replacements} replacement${plan.replacements === 1 ? '' : 's'}` : `replaced (${lines})`;
  return { path: plan.path, version, created: plan.created, diff: diff.text, summary: `${plan.path}: ${what}; new version ${version}.`, shownDiff: diff.text };
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
    return refuse('REJECTED_BY_USER', `The approval could not be completed (${String((error as Error)?.message ?? error)}): ${proposal.plans.map((p) => p.path).join(', ')} NOT modified. Try again, or ask the user.`);
  }
  throwIfCancelled(ctx, signal);
  const plans = proposal.plans;
  if (!decision.approved) return refuse('REJECTED_BY_USER', messages.rejected(plans.map((p) => p.path).join(', '), decision.reason));
  const finals = await finalize(plans, decision);
  if (!Array.isArray(finals)) return finals;
  if (finals.every((f) => !f.plan.created && f.afterText === f.plan.beforeText)) {
    return refuse('REJECTED_BY_USER', messages.rejected(plans.map((p) => p.path).join(', '), 'the user accepted none of the proposed changes'));
  }
  // Re-verify every file after approval. With a single file the check right before its write (writeAll)
  // is this same check an instant later, so it is not run twice.
  if (finals.length > 1) {
    for (const final of finals) {
      const stale = await recheckPlan(ctx, s, final.plan, 'while the change awaited approval');
      if (stale) return stale;
    }
  }
  const failed = await writeAll(ctx, s, finals, signal);
  if (failed) return failed;

  const files: MutatedFile[] = [];
  const lines: string[] = [];
  const userChanged = finals.some((f) => f.userChanged);
  for (const final of finals) {
    if (!final.plan.created && final.afterText === final.plan.beforeText) {
      lines.push(`${final.plan.path}: NOT modified (the user rejected all of its changes).`);
      continue;
    }
    const done = await record(ctx, s, final);
    files.push({ path: done.path, version: done.version, created: done.created, diff: done.diff });
    lines.push(done.summary);
  }
  const verb = operation === 'write' ? 'Wrote' : 'Edited';
  const head = userChanged
    ? `${verb} with changes the user made before approving; this is exactly what was applied:`
    : `${verb} ${files.length === 1 ? files[0].path : `${files.length} files`}:`;
  const text = [head, ...lines, ...files.map((file) => file.diff)].join('\n');
  ctx.logger.info(`[guard] ${operation} applied`, { session: s.id, files: files.map((f) => ({ path: f.path, version: f.version, created: f.created })), userChanged });
  return { ok: true, text, files };
}
