/**
 * FILE_CHANGED_SINCE_READ refusals that show the agent what it missed. The lines such a refusal shows count
 * as seen (and shown) in the current version, so the agent can re-issue a corrected change at once instead
 * of reading again (SPEC section 2). Without a snapshot of the version the agent saw there is nothing to
 * diff: the refusal then names the lines to read again.
 */
import { formatUnifiedDiff } from '../edit/lineDiff';
import { type LineChange, type Ranges, EMPTY, formatRanges, union } from '../ledger/coverage';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { displayPath } from '../path/displayPath';
import { type Refusal, describeSource, refuse } from './refusal';
import type { GuardContext } from '../operations/context';
import type { FileText } from '../operations/fileText';
import type { SessionState } from '../operations/sessionState';

const MAX_DIFF_LINES = 120;

export interface ChangedFacts {
  path: string;
  target: string;
  identity: string;
  entry: LedgerEntry;
  current: FileText;
  /** Why the version moved on, in words ("since you read it", "while the change awaited approval"). */
  when: string;
}

function bySource(ctx: GuardContext, target: string, since: number, path?: string): string {
  const source = ctx.changes.since(target, since) ?? (path ? ctx.changes.since(path, since) : undefined);
  return source ? ` (changed by ${describeSource(source)})` : '';
}

export function refuseWithDiff(ctx: GuardContext, s: SessionState, facts: ChangedFacts, snapshot: string, changes: LineChange[], seenUntouched: Ranges): Refusal {
  const { path, current, entry } = facts;
  const diff = formatUnifiedDiff(path, snapshot, current.text, changes, { maxLines: MAX_DIFF_LINES });
  s.ledger.record({
    identity: facts.identity,
    target: facts.target,
    path,
    version: current.version,
    totalLines: current.index.count,
    seen: union(seenUntouched, diff.shownNew),
    shown: diff.shownNew,
    shownByRead: 0,
    recordedAt: ctx.clock.now(),
  });
  const next = diff.truncated
    ? 'The diff was cut to keep this message short: read the changed region before retrying.'
    : 'The lines shown above now count as seen: re-issue your change against the current content; no new read is needed for them.';
  return refuse(
    'FILE_CHANGED_SINCE_READ',
    `${displayPath(path)} changed ${facts.when}${bySource(ctx, facts.target, entry.recordedAt, facts.path)}, in lines you had seen (version ${entry.version} → ${current.version}). Nothing was written. What changed:\n${diff.text}\n${next}`,
  );
}

export function refuseWithoutDiff(ctx: GuardContext, facts: ChangedFacts): Refusal {
  const { path, entry, current } = facts;
  const lines = formatRanges(entry.seen === EMPTY ? [] : entry.seen);
  return refuse(
    'FILE_CHANGED_SINCE_READ',
    `${displayPath(path)} changed ${facts.when}${bySource(ctx, facts.target, entry.recordedAt, facts.path)} (version ${entry.version} → ${current.version}). Nothing was written. ReadGate no longer holds the version you saw, so it cannot show what changed: read ${lines === 'none' ? 'the lines you need' : `lines ${lines}`} again, then retry.`,
  );
}

export function refuseVanished(ctx: GuardContext, path: string, target: string, entry: LedgerEntry): Refusal {
  return refuse(
    'FILE_CHANGED_SINCE_READ',
    `${displayPath(path)} was deleted after you read it${bySource(ctx, target, entry.recordedAt, path)}. Nothing was written and nothing was re-created. If it should exist again, create it deliberately (write it, or edit with an empty oldString).`,
  );
}

export function refuseAppeared(ctx: GuardContext, path: string, target: string, entry: LedgerEntry): Refusal {
  return refuse(
    'FILE_CHANGED_SINCE_READ',
    `${displayPath(path)} did not exist when you looked, but it does now${bySource(ctx, target, entry.recordedAt, path)}. Its content was not touched. Read it before changing it.`,
  );
}
