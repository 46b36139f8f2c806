/**
 * What a session has seen of a file's current version, from its ledger entry for an older or the same version:
 * a change that touched none of the lines it saw carries them over; one that did is FILE_CHANGED_SINCE_READ
 * with the diff (those lines then count as seen); without the text of the version it saw, nothing carries.
 * Pure; shared by edits, writes, moves, deletions and patches.
 */
import { decideStaleness } from '../ledger/staleness';
import type { ChangeNote } from '../ledger/changeNotes';
import { EMPTY, type Ranges } from '../text/lineRanges';
import type { LedgerEntry } from '../ledger/sessionLedger';
import type { FileText } from '../text/loadText';
import { refuseWithDiff, refuseWithoutDiff } from '../refusals/fileChanged';
import type { Refusal } from '../refusals/refusal';

export interface SeenFacts {
  sessionId: string;
  path: string;
  target: string;
  identity: string;
  /** The session's entry, for a version it saw (`version` set). */
  entry: LedgerEntry;
  current: FileText;
  /** The text of `entry.version`, while the snapshot store keeps it. */
  snapshot: string | undefined;
  note: ChangeNote | undefined;
  now: number;
  diffBudget: { maxChars: number; maxLineLength: number } | undefined;
  /** The change replaces every line (a write, a deletion, a move): any change since touches it. */
  wholeFile: boolean;
}

export type SeenNow = { kind: 'seen'; seen: Ranges; updates: LedgerEntry[] } | { kind: 'refused'; refusal: Refusal; updates: LedgerEntry[] };

export function seenNow(f: SeenFacts): SeenNow {
  const { entry, current } = f;
  const staleness = decideStaleness({
    seenVersion: entry.version as string,
    seen: entry.seen,
    currentVersion: current.version,
    currentText: current.text,
    currentLines: current.index.count,
    snapshot: f.snapshot,
    wholeFile: f.wholeFile,
  });
  const changed = {
    sessionId: f.sessionId,
    path: f.path,
    target: f.target,
    identity: f.identity,
    entry,
    current,
    when: 'since you read it',
    now: f.now,
    budget: f.diffBudget,
    note: f.note,
  };
  if (staleness.kind === 'unknown') return { kind: 'refused', refusal: refuseWithoutDiff(changed), updates: [] };
  if (staleness.kind === 'touched') {
    const { refusal, update } = refuseWithDiff(changed, f.snapshot as string, staleness.changes, staleness.seenUntouched);
    return { kind: 'refused', refusal, updates: [update] };
  }
  if (staleness.kind === 'same' && entry.identity === f.identity) return { kind: 'seen', seen: staleness.seen, updates: [] };
  // The change missed everything this session saw (or the same bytes now live on another inode): its coverage
  // moves to the current version and identity.
  const update: LedgerEntry = {
    ...entry,
    identity: f.identity,
    target: f.target,
    path: f.path,
    version: current.version,
    totalLines: current.index.count,
    seen: staleness.seen,
    shown: staleness.kind === 'same' ? entry.shown : [],
    recordedAt: f.now,
  };
  return { kind: 'seen', seen: staleness.seen, updates: [update] };
}

/**
 * What the session itself has seen of the current version (an expectedVersion authorizes one call; it shows the
 * session nothing): its own coverage, carried over a change that did not touch it.
 */
export function ownCoverage(entry: LedgerEntry | undefined, snapshot: string | undefined, current: FileText): Ranges {
  if (!entry?.version) return EMPTY;
  if (entry.version === current.version) return entry.seen;
  const staleness = decideStaleness({
    seenVersion: entry.version,
    seen: entry.seen,
    currentVersion: current.version,
    currentText: current.text,
    currentLines: current.index.count,
    snapshot,
    wholeFile: false,
  });
  if (staleness.kind === 'touched') return staleness.seenUntouched;
  return staleness.kind === 'unknown' ? EMPTY : staleness.seen;
}
