/**
 * Approval and application of planned changes: ask the `approve` port once for every file, apply what the
 * user decided, re-check every file's path and version after approval, then write them all or none
 * (`writeFiles.ts`). Then say what the session has now seen and describe exactly what was applied.
 */
import { displayPath } from '../path/displayPath';
import type { LedgerEntry } from '../ledger/sessionLedger';
import type { Refusal } from '../refusals/refusal';
import { rejectedByUser } from '../refusals/rejectedByUser';
import { describeConflicts, revertConflict } from '../refusals/revertConflict';
import type { ApprovalConflict, ApprovalDecision, MutatedFile, MutationResult } from '../types';
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { Hunk } from '../edit/hunks';
import { diffShare, record } from './applied';
import { Cancelled, type Operation, type Proposal, askApproval, finalize, parseDecision, throwIfCancelled } from './approval';
import type { FilePlan } from './filePlan';
import { recordChange } from './recordChange';
import { type FinalFile, writeFiles } from './writeFiles';

type Final = FinalFile;

/** One change on its way to the disk. `learned` collects what the ledger learns; the session applies it. */
export interface Commit {
  plans: FilePlan[];
  operation: Operation;
  explanation: string | undefined;
  signal: AbortSignal | undefined;
  /** Recomputes the plans against current content (same inputs, same lock), for refreshes during review. */
  replan?: () => Promise<FilePlan[] | Refusal>;
  learned: LedgerEntry[];
  /** The call, as the change history names it (default: `operation`). */
  tool?: string;
  /** A revert: the change it reverts (recorded as `revertOf`), what it reverts in words, and its conflicts. */
  revert?: { revertOf: string; what: string; conflicts: () => readonly ApprovalConflict[] };
}

/** The files as approved, and who approved them (`ChangeRecord.approvedBy`). */
interface Approved {
  finals: Final[];
  approvedBy: string;
}

/**
 * A file the user kept as it was in review: not written. A plan always changes its file (planning refuses a
 * change that changes nothing), so only content the user edited can equal the old text.
 */
const keeps = (f: Final): boolean => f.userChanged && !f.plan.created && !f.plan.deleted && !f.plan.movedTo && f.afterText === f.plan.beforeText;

export async function commitPlans(ctx: GuardContext, s: SessionState, c: Commit): Promise<MutationResult> {
  const approved = await approvedFiles(ctx, s, c);
  if (!('finals' in approved)) return approved;
  const { finals, approvedBy } = approved;
  if (finals.every(keeps)) return rejectedByUser.rejected(finals.map((f) => f.plan.path).join(', '), 'the user accepted none of the proposed changes');
  // Files the user kept unchanged are not written; every other file is re-checked, then all are written or none.
  const failed = await writeFiles(
    ctx,
    s,
    finals.filter((f) => !keeps(f)),
    () => throwIfCancelled(ctx, c.signal),
    c.learned,
  );
  if (failed) return failed;
  const applied = await describeApplied(ctx, s, finals, c.operation, c.learned);
  const revert = c.revert ? { revertOf: c.revert.revertOf, partial: writtenInPart(c.revert.conflicts(), finals) } : {};
  recordChange(ctx, s, applied.written, { tool: c.tool ?? c.operation, explanation: c.explanation, approvedBy, ...revert });
  return applied.result;
}

/**
 * Whether a revert left part of what it restores as it was: conflicting lines kept by the merged parts (lines a
 * later change already put back are reverted all the same), or hunks the user rejected in review.
 */
function writtenInPart(conflicts: readonly ApprovalConflict[], finals: readonly Final[]): boolean {
  return conflicts.some((conflict) => conflict.reason !== 'alreadyReverted') || finals.some((f) => f.userChanged);
}

/**
 * The files as the user approved them, or the refusal (rejected, malformed, the approver failed, a revert's
 * conflicts not taken).
 */
async function approvedFiles(ctx: GuardContext, s: SessionState, c: Commit): Promise<Approved | Refusal> {
  throwIfCancelled(ctx, c.signal);
  const proposal: Proposal = { plans: c.plans, ...(c.replan ? { replan: c.replan } : {}), ...(c.revert ? { conflicts: c.revert.conflicts } : {}) };
  let decision: ApprovalDecision;
  try {
    decision = await askApproval(ctx, s, proposal, c.operation, c.explanation, c.signal);
  } catch (error) {
    if (error instanceof Cancelled) throw error;
    ctx.logger.error('[approval] the approval port failed', { session: s.id, error: String(error) });
    return rejectedByUser.approvalFailed(proposal.plans.map((p) => p.path).join(', '), String((error as Error)?.message ?? error));
  }
  throwIfCancelled(ctx, c.signal);
  const paths = proposal.plans.map((p) => p.path).join(', ');
  const parsed = parseDecision(decision);
  if (parsed.kind === 'malformed') {
    ctx.logger.warn('[approval] malformed decision treated as a rejection', { session: s.id, detail: parsed.detail });
    return rejectedByUser.malformed(paths, parsed.detail);
  }
  if (parsed.kind === 'rejected') return rejectedByUser.rejected(paths, parsed.reason);
  // Conflicts as last planned (a refresh during review plans them again): never written unless taken.
  const conflicts = c.revert?.conflicts() ?? [];
  if (c.revert && conflicts.length && !parsed.takeMerged) {
    ctx.logger.info('[approval] revert approved without taking the merged parts: refused', { session: s.id, conflicts: conflicts.length });
    return revertConflict.notTaken(describeConflicts(conflicts), c.revert.what);
  }
  const finals = await finalize(proposal.plans, parsed.files);
  return Array.isArray(finals) ? { finals, approvedBy: parsed.approvedBy ?? 'approver' } : finals;
}

/** The result: one line per file, then the diffs of what was applied; and the written files with their hunks. */
async function describeApplied(
  ctx: GuardContext,
  s: SessionState,
  finals: Final[],
  operation: Operation,
  learned: LedgerEntry[],
): Promise<{ result: MutationResult; written: { final: Final; hunks: Hunk[] }[] }> {
  const files: MutatedFile[] = [];
  const written: { final: Final; hunks: Hunk[] }[] = [];
  const lines: string[] = [];
  const userChanged = finals.some((f) => f.userChanged);
  const share = diffShare(ctx, s, finals);
  for (const final of finals) {
    if (keeps(final)) {
      lines.push(`${displayPath(final.plan.path)}: NOT modified (the user rejected all of its changes).`);
      continue;
    }
    const done = await record(ctx, s, final, learned, share);
    written.push({ final, hunks: done.hunks });
    files.push({
      path: done.path,
      version: done.version,
      created: done.created,
      ...(done.deleted ? { deleted: true } : {}),
      ...(done.movedTo ? { movedTo: done.movedTo } : {}),
      diff: done.diff,
    });
    lines.push(done.summary);
  }
  const verb = { write: 'Wrote', edit: 'Edited', multiEdit: 'Edited', delete: 'Deleted', rename: 'Moved', revert: 'Reverted' }[operation];
  // One file is named once: "Edited src/a.ts: 1 replacement; new version …".
  const single = !userChanged && files.length === 1 && lines.length === 1 && (operation === 'edit' || operation === 'multiEdit' || operation === 'write');
  const head = userChanged
    ? `${verb} with changes the user made before approving; this is exactly what was applied:`
    : single
      ? `${verb} ${lines[0]}`
      : `${verb} ${files.length === 1 ? files[0].path : `${files.length} files`}:`;
  const text = [head, ...(single ? [] : lines), ...files.map((file) => file.diff).filter((diff) => diff !== '')].join('\n');
  ctx.logger.info(`[guard] ${operation} applied`, {
    session: s.id,
    files: files.map((f) => ({ path: f.path, version: f.version, created: f.created })),
    userChanged,
  });
  return { result: { ok: true, text, files }, written };
}
