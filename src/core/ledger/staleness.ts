/**
 * Whether what a session saw of a file still holds in its current version. Pure: ledger facts and texts in, a
 * decision out. Decided by content: a change that touches no line the session saw carries its coverage over to
 * the new version; a change that does is refused with the diff. Without a snapshot of the version the session
 * saw, any change is treated as touching it (strict, never permissive).
 */
import { computeLineChanges } from '../edit/lineDiff';
import { type LineChange, type Ranges, clamp, isTouchedBy, mapThrough } from '../text/lineRanges';

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
