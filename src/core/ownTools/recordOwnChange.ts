/**
 * After an agent's own tool ran a change the guard allowed: each file read back (through the port, so an editor's
 * buffer in VS Code) and compared with what was allowed.
 * - Exactly what was allowed: recorded as the session's change, and the session knows the new version as its own
 *   edit would have taught it (its earlier lines, moved, and the lines it wrote).
 * - A loose change (the tool decided the result): recorded; the lines it kept and the lines it wrote count.
 * - Something else: recorded as it is, so the history, its revert and the problems it introduced still cover
 *   it, but nothing of it counts as seen: the agent did not see what ended up there.
 * - Unchanged: the tool did not write (it failed, or was cancelled): nothing is recorded.
 */
import { Buffer } from 'node:buffer';
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import { hunksOf, type Hunk } from '../edit/hunks';
import { computeLineChanges } from '../edit/lineDiff';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { record } from '../mutate/applied';
import type { FilePlan } from '../mutate/filePlan';
import { recordChange } from '../mutate/recordChange';
import type { FinalFile } from '../mutate/writeFiles';
import type { FileStat } from '../ports';
import { indexLines } from '../text/lineEndings';
import { mapThrough, newSide, union } from '../text/lineRanges';
import { type FileText, IN_MEMORY_MAX_BYTES, loadFile } from '../text/loadText';
import type { OwnChangedFile, RecordedOwnChange } from '../types';
import type { AllowedChange } from './judgeChange';

/** What the tool surface is called in the history: another tool's change, judged through its hook. */
export const OWN_TOOL_SURFACE = 'hook';

type Now = { kind: 'gone' } | { kind: 'text'; file: FileText; stat: FileStat } | { kind: 'unreadable' };

const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);

async function fileNow(ctx: GuardContext, target: string): Promise<Now> {
  try {
    const stat = await ctx.fs.stat(target);
    if (!stat) return { kind: 'gone' };
    if (stat.kind !== 'file' || stat.size > IN_MEMORY_MAX_BYTES) return { kind: 'unreadable' };
    const loaded = await loadFile(ctx, target, stat);
    return loaded.kind === 'text' ? { kind: 'text', file: loaded.file, stat } : { kind: 'unreadable' };
  } catch {
    return { kind: 'unreadable' };
  }
}

/** A file as it was found, written by the tool otherwise than planned (or loosely, as it chose). */
function foundFinal(plan: FilePlan, file: FileText, stat: FileStat): { final: FinalFile; hunks: Hunk[]; changes: ReturnType<typeof computeLineChanges> } {
  const afterIndex = indexLines(file.text);
  const changes = computeLineChanges(plan.beforeText, file.text, { old: plan.beforeIndex, new: afterIndex });
  const final: FinalFile = { plan, afterText: file.text, bytes: file.bytes, userChanged: true, written: stat };
  return { final, hunks: hunksOf(changes, plan.beforeIndex.count, afterIndex.count), changes };
}

/** What the session knows after a loose change it made: its earlier lines, moved, and every line the tool wrote. */
function looseEntry(ctx: GuardContext, plan: FilePlan, file: FileText, stat: FileStat, changes: ReturnType<typeof computeLineChanges>): LedgerEntry {
  return {
    identity: stat.identity,
    target: plan.target,
    path: plan.path,
    version: file.version,
    totalLines: file.index.count,
    seen: union(mapThrough(plan.seenBefore, changes), newSide(changes)),
    shown: [],
    shownByRead: 0,
    recordedAt: ctx.clock.now(),
  };
}

/**
 * Whether the tool's write has landed: some file is no longer as it was planned against (`saved` when none of
 * them is an unsaved editor buffer then). A client may apply its tool's edits a moment after the tool returned,
 * and save them a moment later still (Copilot's edits go through the chat's editing session, then are saved), so
 * the record waits for this, within bounds (`ownToolCalls.ts`).
 */
export async function landing(ctx: GuardContext, allowed: AllowedChange): Promise<'not yet' | 'unsaved' | 'saved'> {
  let landed = false;
  let unsaved = false;
  for (const plan of allowed.plans) {
    const now = await fileNow(ctx, plan.movedTo?.target ?? plan.target);
    if (now.kind === 'unreadable') continue;
    if (now.kind === 'text' && now.stat.revision !== undefined) unsaved = true;
    const before = plan.before?.bytes;
    if (now.kind === 'gone' ? !plan.created : plan.created || !before || !same(now.file.bytes, before) || plan.movedTo) landed = true;
  }
  return !landed ? 'not yet' : unsaved ? 'unsaved' : 'saved';
}

export async function recordOwnChange(
  ctx: GuardContext,
  s: SessionState,
  allowed: AllowedChange,
): Promise<{ recorded: RecordedOwnChange; learned: LedgerEntry[] }> {
  const learned: LedgerEntry[] = [];
  const written: { final: FinalFile; hunks: Hunk[] }[] = [];
  const files: OwnChangedFile[] = [];
  for (const plan of allowed.plans) {
    const now = await fileNow(ctx, plan.movedTo?.target ?? plan.target);
    const outcome = await recordFile(ctx, s, allowed, plan, now, learned, written);
    files.push({ path: plan.path, outcome });
  }
  if (written.length) {
    recordChange(ctx, s, written, { tool: allowed.tool, explanation: allowed.explanation, approvedBy: allowed.approvedBy, surface: OWN_TOOL_SURFACE });
  }
  ctx.logger.info('[guard] own tool change recorded', { session: s.id, tool: allowed.tool, files });
  return { recorded: { ok: true, files }, learned };
}

async function recordFile(
  ctx: GuardContext,
  s: SessionState,
  allowed: AllowedChange,
  plan: FilePlan,
  now: Now,
  learned: LedgerEntry[],
  written: { final: FinalFile; hunks: Hunk[] }[],
): Promise<OwnChangedFile['outcome']> {
  if (now.kind === 'unreadable') return 'unreadable';
  if (now.kind === 'gone') {
    if (!plan.deleted && !plan.movedTo) return plan.created ? 'unchanged' : 'different';
    if (plan.movedTo) return 'unchanged';
    const final: FinalFile = { plan, afterText: '', bytes: new Uint8Array(0), userChanged: false };
    written.push({ final, hunks: (await record(ctx, s, final, learned)).hunks });
    return 'as-allowed';
  }
  const { file, stat } = now;
  const before = plan.before?.bytes;
  if (!plan.created && before && same(file.bytes, before) && !plan.movedTo) return 'unchanged';
  if (!allowed.loose && !plan.deleted && same(file.bytes, plan.afterBytes)) {
    const final: FinalFile = { plan, afterText: plan.afterText, bytes: file.bytes, userChanged: false, written: stat };
    written.push({ final, hunks: (await record(ctx, s, final, learned)).hunks });
    return 'as-allowed';
  }
  const found = foundFinal(plan, file, stat);
  written.push({ final: found.final, hunks: found.hunks });
  if (!allowed.loose) return 'different';
  learned.push(looseEntry(ctx, plan, file, stat, found.changes));
  return 'as-allowed';
}
