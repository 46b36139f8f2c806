/**
 * What a revert undoes, read from the history: the changes a target names with their contents, or why they cannot
 * all be had. A session (or one file of it) is reverted only when every one of its changes is on record and
 * readable, never in part.
 */
import { displayPath } from '../path/displayPath';
import { invalidRevert } from '../refusals/invalidInput';
import { type Refusal, isRefusal } from '../refusals/refusal';
import type { ChangeRecord } from './changeRecord';
import type { History } from './history';
import type { RevertChange, RevertTarget } from './revertTypes';
import { missingLinks } from './sessionChain';
import type { VersionProblem } from './versionReads';

/** What is reverted: the changes, oldest first, with their contents. */
export interface RevertedChanges {
  changes: RevertChange[];
  /** One change (`planRevert`), or a session's, or a session's of one file (`planSessionRevert`). */
  single: boolean;
  /** The newest change reverted, which the revert's own record names (`revertOf`). */
  revertOf: string;
  /** What is reverted in words, for messages (`revertWhat`). */
  what: string;
  /** The default explanation: what is reverted, naming the change, or the session (and the file) with a count. */
  explanation: string;
}

/** What a revert undoes, in words for messages and the default label: "change <id>", "session <id>", or a file's. */
export function revertWhat(target: RevertTarget): string {
  if ('changeId' in target) return `change ${target.changeId}`;
  if ('path' in target) return `the changes of session ${target.sessionId} to ${displayPath(target.path)}`;
  return `session ${target.sessionId}`;
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
  // A change the budget dropped leaves a gap in the session's chain of records: never revert around it.
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

function explanationOf(target: RevertTarget, records: readonly ChangeRecord[]): string {
  const newest = records[records.length - 1];
  if ('changeId' in target) return `Revert change ${newest.id} (${newest.tool} by ${newest.label}${newest.explanation ? `: ${newest.explanation}` : ''})`;
  const changes = `${plural(records.length, 'change')} of ${newest.label} (session ${target.sessionId})`;
  return 'path' in target ? `Revert the ${changes} to ${displayPath(target.path)}` : `Revert the ${changes}`;
}

/** The changes `target` names with their contents, once the changes still being stored are on record. */
export async function changesToRevert(history: History, target: RevertTarget): Promise<RevertedChanges | Refusal> {
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
