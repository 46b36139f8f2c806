/**
 * `Guard.revert` after its arguments were copied: the changes to revert read from the history (waiting for
 * changes still being stored), every path they name checked by the path policy, the locks of all of them
 * taken, then under the locks the files loaded as they are now, the revert planned (`history/planRevert.ts`),
 * and the plan approved and written all or none like any multi-file change (`mutate/commit.ts`), conflicts
 * shown in the request and written only when the approver takes the merged parts.
 *
 * What a session revert records: one change whose `revertOf` is the newest change of the session reverted (the
 * others are named by its session: `history({ sessionId })`), and whose default explanation says how many.
 *
 * A file of a session (`{ sessionId, path }`): the session's changes restricted to that file, through its moves
 * (`fileRecords`), planned and recorded as a session revert of just those (`revertOf` the newest of them, the
 * default explanation naming the file); the session's other files are not touched.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { ChangeRecord } from '../history/changeRecord';
import type { History } from '../history/history';
import { planRevert, planSessionRevert } from '../history/planRevert';
import type { RevertChange } from '../history/revertTypes';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { CallFiles } from '../mutate/callFiles';
import { commitPlans } from '../mutate/commit';
import type { FilePlan } from '../mutate/filePlan';
import { type RevertPath, conflictViews, filePlansOf, loadFilesNow } from '../mutate/revertPlans';
import { displayPath } from '../path/displayPath';
import { editNoChange } from '../refusals/editNoChange';
import { invalidRevert } from '../refusals/invalidInput';
import { type Refusal, isRefusal, refuse } from '../refusals/refusal';
import { describeConflicts, revertConflict } from '../refusals/revertConflict';
import type { ApprovalConflict, MutationResult, RevertTarget } from '../types';
import { type RevertCall, revertWhat } from './callArguments';
import { runLocked } from './fileLocks';

/** What is reverted: the changes, oldest first, with their contents. */
interface Reverted {
  changes: RevertChange[];
  /** One change (`planRevert`), or a session's, or a session's of one file (`planSessionRevert`). */
  single: boolean;
  revertOf: string;
  /** What is reverted in words, for messages (`revertWhat`). */
  what: string;
  explanation: string;
}

const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * A session's records (newest first) restricted to one file: walking back from the newest, each keeps only its
 * entries for the file's names, and a kept move adds the name the file had before it (`from`), so older changes
 * under that name count too. Records left with no entry are dropped. Oldest first.
 */
function fileRecords(newestFirst: readonly ChangeRecord[], path: string): ChangeRecord[] {
  const names = new Set([path]);
  const kept: ChangeRecord[] = [];
  for (const record of newestFirst) {
    const files = record.files.filter((file) => names.has(file.path));
    if (files.length === 0) continue;
    for (const file of files) if (file.kind === 'rename' && file.from !== undefined) names.add(file.from);
    kept.push({ ...record, files });
  }
  return kept.reverse();
}

/** The records a target names, oldest first. */
async function recordsOf(history: History, target: RevertTarget): Promise<ChangeRecord[]> {
  if ('changeId' in target) {
    const record = await history.get(target.changeId);
    return record ? [record] : [];
  }
  const newestFirst = await history.list({ sessionId: target.sessionId });
  return 'path' in target ? fileRecords(newestFirst, target.path) : newestFirst.reverse();
}

function nothingOnRecord(target: RevertTarget): Refusal {
  if ('changeId' in target) return invalidRevert.unknownChange(target.changeId);
  return 'path' in target ? invalidRevert.noChangeOfFile(target.sessionId, target.path) : invalidRevert.unknownSession(target.sessionId);
}

/** The default explanation: what is reverted, naming the change, or the session (and the file) with a count. */
function explanationOf(target: RevertTarget, records: readonly ChangeRecord[]): string {
  const newest = records[records.length - 1];
  if ('changeId' in target) return `Revert change ${newest.id} (${newest.tool} by ${newest.label}${newest.explanation ? `: ${newest.explanation}` : ''})`;
  const changes = `${plural(records.length, 'change')} of ${newest.label} (session ${target.sessionId})`;
  return 'path' in target ? `Revert the ${changes} to ${displayPath(target.path)}` : `Revert the ${changes}`;
}

async function changesOf(history: History, target: RevertTarget): Promise<Reverted | Refusal> {
  await history.flush();
  const records = await recordsOf(history, target);
  if (!records.length) return nothingOnRecord(target);
  const changes: RevertChange[] = [];
  for (const record of records) {
    const change = await history.revertInput(record);
    if (!change) return invalidRevert.contentsGone(record.id);
    changes.push(change);
  }
  const revertOf = records[records.length - 1].id;
  return { changes, single: 'changeId' in target, revertOf, what: revertWhat(target), explanation: explanationOf(target, records) };
}

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

interface PlannedRevert {
  plans: FilePlan[];
  conflicts: ApprovalConflict[];
}

/** The revert planned against the files as they are now (`files`: stat'ed under the call's locks). */
async function planNow(ctx: GuardContext, reverted: Reverted, paths: readonly RevertPath[], files: CallFiles): Promise<PlannedRevert | Refusal> {
  const now = await loadFilesNow(ctx, paths, files);
  if (isRefusal(now)) return now;
  const current = (path: string): Uint8Array | null => {
    const file = now.get(path);
    if (!file) throw new Error(`the revert plan asked for ${path}, a path it was not given`);
    return file.bytes ?? null;
  };
  const plan = reverted.single ? planRevert(reverted.changes[0], current) : planSessionRevert(reverted.changes, current);
  const plans = await filePlansOf(ctx, plan, now);
  if (isRefusal(plans)) return plans;
  const conflicts = await conflictViews(plan, plans, now);
  if (plans.length === 0) return conflicts.length ? revertConflict.nothingToWrite(describeConflicts(conflicts), reverted.what) : editNoChange.revert(reverted.what);
  return { plans, conflicts };
}

export async function runRevert(ctx: GuardContext, s: SessionState, call: RevertCall, signal: AbortSignal | undefined): Promise<MutationResult> {
  const { history } = ctx;
  if (!history) return invalidRevert.noHistory();
  const reverted = await changesOf(history, call.target);
  if (isRefusal(reverted)) return reverted;
  const paths = await checkPaths(ctx, reverted.changes);
  if (isRefusal(paths)) return paths;
  return runLocked(ctx, paths, signal, async (stats) => {
    const first = await planNow(ctx, reverted, paths, new CallFiles(ctx, stats));
    if (isRefusal(first)) return first;
    ctx.logger.info('[history] revert planned', { session: s.id, what: reverted.what, files: first.plans.length, conflicts: first.conflicts.length });
    let conflicts = first.conflicts;
    // A refresh during review plans again against the files then; its conflicts replace the first ones.
    const replan = async (): Promise<FilePlan[] | Refusal> => {
      const next = await planNow(ctx, reverted, paths, new CallFiles(ctx));
      if (isRefusal(next)) return next;
      conflicts = next.conflicts;
      return next.plans;
    };
    const learned: LedgerEntry[] = [];
    const revert = { revertOf: reverted.revertOf, what: reverted.what, conflicts: () => conflicts };
    try {
      return await commitPlans(ctx, s, { plans: first.plans, operation: 'revert', explanation: call.explanation ?? reverted.explanation, signal, replan, learned, tool: 'revert', revert });
    } finally {
      s.learn(learned);
    }
  });
}
