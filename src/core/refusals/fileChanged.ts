/**
 * FILE_CHANGED_SINCE_READ: every situation's wording lives here, with its code. The refusals show the agent
 * what it missed where they can. The lines such a refusal shows count
 * as seen (and shown) in the current version, so the agent can re-issue a corrected change at once instead
 * of reading again: that is returned as a ledger update, applied by the caller only when the
 * agent gets the refusal. Without a snapshot of the version the agent saw there is nothing to diff: the
 * refusal then names the lines to read again.
 */
import { formatUnifiedDiff } from '../edit/lineDiff';
import { type LineChange, type Ranges, EMPTY, formatRanges, union } from '../text/lineRanges';
import { type ChangeNote, noteExplains } from '../ledger/changeNotes';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { displayPath } from '../path/displayPath';
import { utf8Size } from '../text/resultBudget';
import { type Refusal, changedBy, refuse } from './refusal';

const MAX_DIFF_LINES = 120;

export interface ChangedFacts {
  sessionId: string;
  path: string;
  target: string;
  identity: string;
  entry: LedgerEntry;
  current: { version: string; text: string; index: { count: number } };
  /** Why the version moved on, in words ("since you read it", "while the change awaited approval"). */
  when: string;
  now: number;
  /** The session's result budget, when its client has one: the whole message fits `maxChars`. */
  budget?: { maxChars: number; maxLineLength: number };
  /** The latest change note for the file, if any: it names who changed it. */
  note: ChangeNote | undefined;
}

/** The words after "changed": who the note proves changed the file since the session's entry. */
export function whoChanged(note: ChangeNote | undefined, sessionId: string, since: number, currentVersion: string | undefined): string {
  return changedBy(noteExplains(note, since, currentVersion), sessionId);
}

export function refuseWithDiff(facts: ChangedFacts, snapshot: string, changes: LineChange[], seenUntouched: Ranges): { refusal: Refusal; update: LedgerEntry } {
  const { path, current, entry } = facts;
  const who = whoChanged(facts.note, facts.sessionId, entry.recordedAt, current.version);
  const intro = `${displayPath(path)} changed ${facts.when} (${who}), in lines you had seen (version ${entry.version} → ${current.version}). Nothing was written. What changed:\n`;
  const cutNext = 'The diff was cut to keep this message short: read the changed region before retrying; the lines it shows count as seen.';
  const wholeNext = 'The lines shown above now count as seen: re-issue your change against the current content; no new read is needed for them.';
  // Within a client's budget the diff gets what the words leave; only the lines it shows in full count as seen.
  const maxChars = facts.budget ? facts.budget.maxChars - utf8Size(intro) - Math.max(cutNext.length, wholeNext.length) - 1 : undefined;
  const diff = formatUnifiedDiff(path, snapshot, current.text, changes, { maxLines: MAX_DIFF_LINES, maxChars, maxLineLength: facts.budget?.maxLineLength });
  const update: LedgerEntry = {
    identity: facts.identity,
    target: facts.target,
    path,
    version: current.version,
    totalLines: current.index.count,
    seen: union(seenUntouched, diff.shownNew),
    shown: diff.shownNew,
    shownByRead: 0,
    recordedAt: facts.now,
  };
  return { refusal: refuse('FILE_CHANGED_SINCE_READ', `${intro}${diff.text}\n${diff.truncated ? cutNext : wholeNext}`), update };
}

export function refuseWithoutDiff(facts: ChangedFacts): Refusal {
  const { path, entry, current } = facts;
  const lines = formatRanges(entry.seen === EMPTY ? [] : entry.seen);
  const who = whoChanged(facts.note, facts.sessionId, entry.recordedAt, current.version);
  return refuse(
    'FILE_CHANGED_SINCE_READ',
    `${displayPath(path)} changed ${facts.when} (${who}) (version ${entry.version} → ${current.version}). Nothing was written. ReadGate no longer holds the version you saw, so it cannot show what changed: read ${lines === 'none' ? 'the lines you need' : `lines ${lines}`} again, then retry.`,
  );
}

export function refuseVanished(note: ChangeNote | undefined, sessionId: string, path: string, entry: LedgerEntry): Refusal {
  return refuse(
    'FILE_CHANGED_SINCE_READ',
    `${displayPath(path)} was deleted after you read it (${whoChanged(note, sessionId, entry.recordedAt, undefined)}). Nothing was written and nothing was re-created. If it should exist again, create it deliberately (write it, or edit with an empty oldString).`,
  );
}

export function refuseAppeared(note: ChangeNote | undefined, sessionId: string, path: string, entry: LedgerEntry, currentVersion: string | undefined): Refusal {
  return refuse(
    'FILE_CHANGED_SINCE_READ',
    `${displayPath(path)} did not exist when you looked, but it does now (created ${whoChanged(note, sessionId, entry.recordedAt, currentVersion)}). Its content was not touched. Read it before changing it.`,
  );
}

/** The file moved on at another step than a read: expected versions, re-checks before and during the write. */
export const fileChanged = {
  /**
   * Never names the file's current version: a session that has not read the file would pass it back and edit
   * bytes it never saw (audit: the version tag as a content oracle).
   */
  expectedMismatch(path: string, expectedVersion: string, standalone = false): Refusal {
    const retry = standalone
      ? 'Read it again and retry with the version its header shows as expectedVersion.'
      : 'Read the file (the lines you intend to change, or all of it before a write); the read reports its current version. Then retry.';
    return refuse(
      'FILE_CHANGED_SINCE_READ',
      `${displayPath(path)} is not at the expectedVersion ${expectedVersion} you passed: it changed since that version was read, or the tag did not come from a read of this file. Nothing was written. ${retry}`,
    );
  },
  expectedMissing(path: string, expectedVersion: string | undefined): Refusal {
    return refuse(
      'FILE_CHANGED_SINCE_READ',
      `${displayPath(path)} does not exist, so it is not at the expectedVersion ${expectedVersion} you passed. Check the path, or create the file without expectedVersion.`,
    );
  },
  becameLink(path: string): Refusal {
    return refuse(
      'FILE_CHANGED_SINCE_READ',
      `${displayPath(path)} was replaced by a symbolic link after ReadGate checked it, so ReadGate did not follow it. Nothing was read or changed. Retry: the path is checked again, link and all.`,
    );
  },
  leadsElsewhere(path: string, planned: string, now: string, when: string): Refusal {
    return refuse(
      'FILE_CHANGED_SINCE_READ',
      `${displayPath(path)} now leads to ${displayPath(now)}, not to ${displayPath(planned)} as when the change was planned: a folder or link on the way was replaced ${when}. Nothing was written. Read the file at its new location before changing it.`,
    );
  },
  createdMeanwhile(path: string, when: string): Refusal {
    return refuse('FILE_CHANGED_SINCE_READ', `${displayPath(path)} was created by someone else ${when}. Nothing was written; read it before changing it.`);
  },
  deletedOrReplaced(path: string, when: string): Refusal {
    return refuse('FILE_CHANGED_SINCE_READ', `${displayPath(path)} was deleted or replaced ${when}. Nothing was written and nothing was re-created.`);
  },
  replacedByBinary(path: string, when: string): Refusal {
    return refuse('FILE_CHANGED_SINCE_READ', `${displayPath(path)} was replaced by binary content ${when}. Nothing was written.`);
  },
  duringWrite(path: string, detail: string): Refusal {
    return refuse(
      'FILE_CHANGED_SINCE_READ',
      `${displayPath(path)} was changed by someone else at the very instant your change was written (${detail}). Your change was NOT applied and theirs was kept. Read the file again, then retry.`,
    );
  },
  whileWriting(path: string, detail: string): Refusal {
    return refuse(
      'FILE_CHANGED_SINCE_READ',
      `${displayPath(path)} could not be written as planned: ${detail}. Nothing was written. Read the file (at its current location) again, then retry.`,
    );
  },
};
