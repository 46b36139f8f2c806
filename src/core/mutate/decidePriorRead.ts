/**
 * The prior-read decision for a change of an existing or missing file. Pure: ledger facts in, a decision out.
 *
 * Order matters: it uses only the ledger and the file's existence, never its content, so error
 * codes cannot be used to probe an unread file.
 */
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
