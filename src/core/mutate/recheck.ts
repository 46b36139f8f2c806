/**
 * The re-check of a planned file after approval and right before it is written (the guard's last check),
 * run under the per-file lock: first the path policy again, then the file's version.
 *
 * The path comes first because approval can take minutes: a folder on the way may have been replaced by a
 * link out of the roots (or to another file inside them) meanwhile. The planned target is then no longer
 * what the caller's path names, and neither writing it nor reading it for a diff is allowed (audit: a create
 * approved while a folder was swapped for a link landed outside the roots). The same target is required, so
 * the write goes exactly where the plan said and the user approved.
 *
 * Then the version: a file that changed since it was planned is refused with the diff of what changed; a
 * planned create whose path gained a file is refused and that file kept.
 */
import { computeLineChanges } from '../edit/lineDiff';
import { mapThrough } from '../text/lineRanges';
import { type Refusal, refuse } from '../refusals/refusal';
import { fileChanged, refuseWithDiff } from '../refusals/fileChanged';
import type { GuardContext } from '../context/guardContext';
import { decodeFile, versionOf } from '../text/loadText';
import type { FilePlan } from './filePlan';
import type { LedgerEntry } from '../ledger/sessionLedger';
import type { SessionState } from '../context/sessionState';

/**
 * Undefined when the path still leads to the planned target and it is exactly the version planned against.
 * `learned`: what the ledger learns from the refusal (the diff it shows counts as seen).
 */
export async function recheckPlan(ctx: GuardContext, s: SessionState, plan: FilePlan, when: string, learned: LedgerEntry[]): Promise<Refusal | undefined> {
  return (await recheckPath(ctx, plan, when)) ?? verifyUnchanged(ctx, s, plan, when, learned);
}

/** The path half alone: for a single file the port verifies the content itself, right before the rename. */
export async function recheckPlanPath(ctx: GuardContext, plan: FilePlan, when: string): Promise<Refusal | undefined> {
  return recheckPath(ctx, plan, when);
}

async function recheckPath(ctx: GuardContext, plan: FilePlan, when: string): Promise<Refusal | undefined> {
  const checked = await ctx.paths.check(plan.path);
  if (!checked.ok) {
    ctx.logger.warn('[guard] path refused on re-check before writing', { path: plan.path, target: plan.target, code: checked.code });
    return refuse(checked.code, `${checked.message} (This changed ${when}.) Nothing was written.`);
  }
  if (checked.target === plan.target) return undefined;
  ctx.logger.warn('[guard] path leads elsewhere on re-check before writing', { path: plan.path, planned: plan.target, now: checked.target });
  return fileChanged.leadsElsewhere(plan.path, plan.target, checked.target, when);
}

async function verifyUnchanged(ctx: GuardContext, s: SessionState, plan: FilePlan, when: string, learned: LedgerEntry[]): Promise<Refusal | undefined> {
  const stat = await ctx.fs.stat(plan.target);
  if (plan.created) {
    return stat ? fileChanged.createdMeanwhile(plan.path, when) : undefined;
  }
  if (!stat || stat.kind !== 'file') {
    return fileChanged.deletedOrReplaced(plan.path, when);
  }
  const before = plan.before!;
  const hasher = await ctx.hasher();
  const bytes = await ctx.fs.readFile(plan.target);
  // The common case costs one read and one hash; decoding and diffing only when something changed.
  if (versionOf(hasher, bytes, stat.revision) === before.version) return undefined;
  const loaded = await decodeFile(ctx, plan.target, bytes, stat.revision);
  if (loaded.kind === 'binary') return fileChanged.replacedByBinary(plan.path, when);
  const entry = {
    identity: stat.identity,
    target: plan.target,
    path: plan.path,
    version: before.version,
    totalLines: before.index.count,
    seen: plan.seenBefore,
    shown: [],
    shownByRead: 0,
    recordedAt: 0,
  };
  const changes = computeLineChanges(before.text, loaded.file.text);
  const seenUntouched = mapThrough(plan.seenBefore, changes);
  const { refusal, update } = refuseWithDiff(
    {
      sessionId: s.id,
      path: plan.path,
      target: plan.target,
      identity: stat.identity,
      entry,
      current: loaded.file,
      when,
      now: ctx.clock.now(),
      budget: s.diffBudget(ctx.limits),
      note: ctx.changes.latest(plan.target),
    },
    before.text,
    changes,
    seenUntouched,
  );
  // The agent gets this refusal: what it shows counts as seen.
  learned.push(update);
  return refusal;
}
