/**
 * What a session knows once its change is written: the new version of each file (seen as planned, or as the
 * result's diff shows what the user changed in review), that removed files are gone, who changed them (change
 * notes), the text of each new version (snapshots), and the words of the result.
 */
import { displayPath } from '../path/displayPath';
import { utf8Size } from '../text/resultBudget';
import { type Hunk, hunksOf } from '../edit/hunks';
import { computeLineChanges, formatUnifiedDiff } from '../edit/lineDiff';
import { indexLines, type LineIndex } from '../text/lineEndings';
import { type Ranges, mapThrough, union } from '../text/lineRanges';
import { type LedgerEntry, missingEntry } from '../ledger/sessionLedger';
import type { ChangeSource } from '../ports';
import type { MutatedFile } from '../types';
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import { asciiBody, decodedOf, versionOf } from '../text/loadText';
import type { FilePlan } from './filePlan';
import type { FinalFile } from './writeFiles';

const RESULT_DIFF_LINES = 400;

type Final = FinalFile;

/** `hunks`: what was applied, as line numbers only (the change history keeps them). */
export type AppliedFile = MutatedFile & { summary: string; shownDiff: string; hunks: Hunk[] };

/**
 * What each file's diff in the result may take within the session's budget: an equal share of what the
 * summary lines leave (each is the path and a few words).
 */
export function diffShare(ctx: GuardContext, s: SessionState, finals: Final[]): { maxChars: number; maxLineLength: number } | undefined {
  const budget = s.diffBudget(ctx.limits);
  if (!budget) return undefined;
  const words = finals.reduce((sum, f) => sum + utf8Size(displayPath(f.plan.path)) + 120, 200);
  return { maxChars: Math.max(200, Math.floor((budget.maxChars - words) / Math.max(1, finals.length))), maxLineLength: budget.maxLineLength };
}

/** What the session now knows of a file it removed (or moved away): that it is missing. */
function recordGone(ctx: GuardContext, s: SessionState, plan: FilePlan, learned: LedgerEntry[]): void {
  learned.push(missingEntry(plan.target, plan.path, ctx.clock.now()));
  ctx.changes.note(plan.target, sessionSource(s), ctx.clock.now(), undefined);
}

/** `learned`: what the ledger learns (the session's own new versions, the files it removed). */
export async function record(
  ctx: GuardContext,
  s: SessionState,
  final: Final,
  learned: LedgerEntry[],
  share?: { maxChars: number; maxLineLength: number },
): Promise<AppliedFile> {
  const { plan } = final;
  if (plan.deleted) {
    recordGone(ctx, s, plan, learned);
    const lines = plan.beforeIndex.count;
    const hunks = hunksOf(plan.changes, plan.beforeIndex.count, plan.afterIndex.count);
    return {
      path: plan.path,
      version: '',
      created: false,
      deleted: true,
      diff: '',
      summary: `${displayPath(plan.path)}: deleted (it had ${lines} line${lines === 1 ? '' : 's'}).`,
      shownDiff: '',
      hunks,
    };
  }
  if (plan.movedTo) {
    recordGone(ctx, s, plan, learned);
    const moved = await recordWritten(ctx, s, final, plan.movedTo, learned, share);
    const content =
      final.afterText === plan.beforeText
        ? 'its content unchanged'
        : plan.replacements
          ? `${plan.replacements} replacement${plan.replacements === 1 ? '' : 's'} in it`
          : 'its content changed';
    return {
      ...moved,
      path: plan.path,
      created: false,
      movedTo: plan.movedTo.path,
      summary: `${displayPath(plan.path)}: moved to ${displayPath(plan.movedTo.path)}, ${content}; new version ${moved.version}.`,
    };
  }
  return recordWritten(ctx, s, final, plan, learned, share);
}

/** Records the file written at `at` (the plan's own path, or where it moved). */
async function recordWritten(
  ctx: GuardContext,
  s: SessionState,
  final: Final,
  at: { path: string; target: string },
  learned: LedgerEntry[],
  share?: { maxChars: number; maxLineLength: number },
): Promise<AppliedFile> {
  const { plan, afterText, bytes } = final;
  // The file is written: a failing stat now must not turn the call into a failure that says nothing changed.
  const stat = final.written ?? (await ctx.fs.stat(at.target).catch(() => undefined));
  const hasher = await ctx.hasher();
  const version = versionOf(hasher, bytes, stat?.revision);
  const afterIndex = final.userChanged ? indexLines(afterText) : plan.afterIndex;
  const changes = final.userChanged ? computeLineChanges(plan.beforeText, afterText, { old: plan.beforeIndex, new: afterIndex }) : plan.changes;
  const diff = formatUnifiedDiff(at.path, plan.beforeText, afterText, changes, {
    maxLines: RESULT_DIFF_LINES,
    oldIndex: plan.beforeIndex,
    newIndex: afterIndex,
    ...share,
  });
  const lineCount = afterIndex.count;
  let seen: Ranges = plan.seenAfter;
  if (final.userChanged) seen = union(mapThrough(plan.seenBefore, changes), diff.shownNew);
  if (stat) {
    learned.push({
      identity: stat.identity,
      target: at.target,
      path: at.path,
      version,
      totalLines: lineCount,
      seen,
      shown: [],
      shownByRead: 0,
      recordedAt: ctx.clock.now(),
    });
  }
  if (bytes.length <= ctx.snapshotMaxFileBytes) keepSnapshot(ctx, plan, version, afterText, afterIndex, bytes);
  ctx.changes.note(at.target, sessionSource(s), ctx.clock.now(), version);
  const what = whatChanged(plan, lineCount);
  const hunks = hunksOf(changes, plan.beforeIndex.count, lineCount);
  return {
    path: at.path,
    version,
    created: plan.created,
    diff: diff.text,
    summary: `${displayPath(at.path)}: ${what}; new version ${version}.`,
    shownDiff: diff.text,
    hunks,
  };
}

/** The new version's text and line index, kept so later reads and diffs need not decode it again. */
function keepSnapshot(ctx: GuardContext, plan: FilePlan, version: string, afterText: string, afterIndex: LineIndex, bytes: Uint8Array): void {
  const codec = plan.before?.codec ? { codec: plan.before.codec } : {};
  ctx.snapshots.put(
    version,
    afterText,
    decodedOf({ text: afterText, index: afterIndex, encoding: plan.encoding, ...codec, ascii: asciiBody(bytes, plan.encoding) }),
  );
}

/** What a change did to one file, in the result's words. */
function whatChanged(plan: FilePlan, lineCount: number): string {
  const lines = `${lineCount} line${lineCount === 1 ? '' : 's'}`;
  if (plan.created) return `created (${lines})`;
  return plan.replacements ? `${plan.replacements} replacement${plan.replacements === 1 ? '' : 's'}` : `replaced (${lines})`;
}

/** This session as the author of a change: its id, and its name when it has one besides the id. */
function sessionSource(s: SessionState): ChangeSource {
  const label = s.origin.label.trim();
  return { kind: 'session', detail: s.id, ...(label && label !== s.id ? { label } : {}) };
}
