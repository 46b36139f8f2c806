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
 *
 * A session (or a file of it) is reverted only when the history holds all its changes: a record file that cannot
 * be read just now (it may be one of them), or a change the budget dropped (`sessionChain.ts`), refuses it,
 * naming what is missing, rather than undoing part of it and calling that a revert.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { ChangeRecord } from '../history/changeRecord';
import type { History } from '../history/history';
import { planRevert, planSessionRevert } from '../history/planRevert';
import type { RevertChange } from '../history/revertTypes';
import { missingLinks } from '../history/sessionChain';
import type { VersionProblem } from '../history/versionReads';
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

/** The records a target names, oldest first; refused when the history cannot tell it has all of them. */
async function recordsOf(history: History, target: RevertTarget): Promise<ChangeRecord[] | Refusal> {
  const listing = await history.listing('changeId' in target ? undefined : { sessionId: target.sessionId });
  if (listing.failed !== undefined) return invalidRevert.historyUnreadable(listing.failed);
  if ('changeId' in target) {
    const record = listing.records.find((candidate) => candidate.id === target.changeId);
    if (record) return [record];
    const unread = listing.unreadable.find((file) => file.change === target.changeId);
    return unread ? invalidRevert.unreadableChange(target.changeId, unread.reason) : invalidRevert.unknownChange(target.changeId);
  }
  if (listing.unreadable.length) return invalidRevert.unreadableRecords(listing.unreadable.length, listing.unreadable[0].reason);
  const missing = missingLinks(listing.records);
  if (missing.length) return invalidRevert.lostChanges(target.sessionId, missing, listing.records.length, 'path' in target ? target.path : undefined);
  return 'path' in target ? fileRecords(listing.records, target.path) : listing.records.reverse();
}

function nothingOnRecord(target: RevertTarget): Refusal {
  if ('changeId' in target) return invalidRevert.unknownChange(target.changeId);
  return 'path' in target ? invalidRevert.noChangeOfFile(target.sessionId, target.path) : invalidRevert.unknownSession(target.sessionId);
}

/** Why a change's contents cannot be given back: lost (missing, damaged) before trouble that may pass. */
function contentsRefusal(id: string, problems: readonly VersionProblem[]): Refusal {
  const lost = problems.find((problem) => !problem.transient);
  if (lost) return invalidRevert.contentsGone(id, lost.path, lost.reason.startsWith('damaged'));
  return invalidRevert.contentsUnreadable(id, problems[0].path, problems[0].reason);
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
  if (isRefusal(records)) return records;
  if (!records.length) return nothingOnRecord(target);
  const changes: RevertChange[] = [];
  for (const record of records) {
    const contents = await history.revertContents(record);
    if ('problems' in contents) return contentsRefusal(record.id, contents.problems);
    changes.push(contents.change);
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
