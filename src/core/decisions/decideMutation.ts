/**
 * The prior-read and staleness decisions for edit, write and multiEdit. Pure: ledger facts and texts in,
 * a decision out; the session acts on it.
 *
 * Order matters (seed reviews): the prior-read decision uses only the ledger and the file's existence, never
 * its content, so error codes cannot be used to probe an unread file. Staleness is decided by content: a
 * change that touches no line the session saw carries its coverage over to the new version; a change that
 * does is refused with the diff. Without a snapshot of the version the session saw, any change is treated
 * as touching it (strict, never permissive).
 */
import { computeLineChanges } from '../edit/lineDiff';
import { type LineChange, type Ranges, clamp, isTouchedBy, mapThrough } from '../ledger/coverage';
import type { LedgerEntry } from '../ledger/sessionLedger';

export type PriorReadDecision =
  | { kind: 'create' }
  | { kind: 'expected'; expectedVersion: string }
  | { kind: 'verify'; entry: LedgerEntry }
  /** Nothing was seen at this path, but maybe under another name of this file: only the same content counts. */
  | { kind: 'alias' }
  | { kind: 'refuse'; code: 'EDIT_REQUIRES_PRIOR_READ'; reason: 'unread' }
  | { kind: 'refuse'; code: 'FILE_CHANGED_SINCE_READ'; reason: 'vanished' | 'appeared' | 'expected-missing'; entry?: LedgerEntry };

export interface PriorReadFacts {
  exists: boolean;
  /** The session's entry at this canonical path, whichever file it was (identity does not matter). */
  entry?: LedgerEntry;
  /** The session has an entry under another name with this file's identity. */
  aliasCandidate?: boolean;
  expectedVersion?: string;
}

/**
 * The path decides, the content confirms: an entry at the path is verified against the current content
 * however the file was replaced meanwhile (rename over it, delete and re-create, write in place).
 */
export function decidePriorRead(facts: PriorReadFacts): PriorReadDecision {
  if (!facts.exists) {
    if (facts.expectedVersion !== undefined) return { kind: 'refuse', code: 'FILE_CHANGED_SINCE_READ', reason: 'expected-missing' };
    if (facts.entry && facts.entry.version !== undefined) return { kind: 'refuse', code: 'FILE_CHANGED_SINCE_READ', reason: 'vanished', entry: facts.entry };
    return { kind: 'create' };
  }
  if (facts.expectedVersion !== undefined) return { kind: 'expected', expectedVersion: facts.expectedVersion };
  if (facts.entry && facts.entry.version !== undefined) return { kind: 'verify', entry: facts.entry };
  if (facts.entry) return { kind: 'refuse', code: 'FILE_CHANGED_SINCE_READ', reason: 'appeared', entry: facts.entry };
  if (facts.aliasCandidate) return { kind: 'alias' };
  return { kind: 'refuse', code: 'EDIT_REQUIRES_PRIOR_READ', reason: 'unread' };
}

export type StalenessDecision =
  | { kind: 'same'; seen: Ranges }
  | { kind: 'carried'; seen: Ranges; changes: LineChange[] }
  | { kind: 'touched'; changes: LineChange[]; seenUntouched: Ranges }
  | { kind: 'unknown' };

export interface StalenessFacts {
  seenVersion: string;
  seen: Ranges;
  currentVersion: string;
  currentText: string;
  currentLines: number;
  /** Text of the version the session saw, if the snapshot store still has it. */
  snapshot: string | undefined;
  /** A write replaces every line, so any change at all touches it. */
  wholeFile: boolean;
}

export function decideStaleness(facts: StalenessFacts): StalenessDecision {
  if (facts.seenVersion === facts.currentVersion) return { kind: 'same', seen: facts.seen };
  if (facts.snapshot === undefined) return { kind: 'unknown' };
  const changes = computeLineChanges(facts.snapshot, facts.currentText);
  const seenUntouched = clamp(mapThrough(facts.seen, changes), facts.currentLines);
  if (changes.length === 0) return { kind: 'carried', seen: seenUntouched, changes };
  const touched = facts.wholeFile || changes.some((change) => isTouchedBy(facts.seen, change));
  if (touched) return { kind: 'touched', changes, seenUntouched };
  return { kind: 'carried', seen: seenUntouched, changes };
}
