/**
 * A revert as file plans the commit carries out like any multi-file change (`planRevertNow`): the pure plan of
 * `history/planRevert.ts` against the files as they are now, each plan checked against exactly the bytes it was
 * planned from. It needs no read (the user owns a revert), so no ledger is consulted; the guard's other rules hold.
 */
import { decodeText, detectEncoding } from '../text/encoding';
import { indexLines } from '../text/lineEndings';
import { computeLineChanges } from '../edit/lineDiff';
import { planRevert, planSessionRevert } from '../history/planRevert';
import type { RevertedChanges } from '../history/revertQuery';
import type { RevertConflict, RevertOp, RevertPlan } from '../history/revertTypes';
import { rangesOf } from '../text/lineRanges';
import type { FileStat } from '../ports';
import { decodeFile, type FileText } from '../text/loadText';
import { binaryFile } from '../refusals/binaryFile';
import { editNoChange } from '../refusals/editNoChange';
import { fileTooLarge } from '../refusals/fileTooLarge';
import { type Refusal, isRefusal } from '../refusals/refusal';
import { describeConflicts, revertConflict } from '../refusals/revertConflict';
import { specialFile, specialKindName } from '../refusals/specialFile';
import { targetIsDirectory } from '../refusals/targetIsDirectory';
import { writeFailed } from '../refusals/writeFailed';
import type { ApprovalConflict } from '../types';
import type { GuardContext } from '../context/guardContext';
import type { CallFiles } from './callFiles';
import type { FilePlan } from './filePlan';

/** A path a revert touches, checked by the path policy. */
export interface RevertPath {
  path: string;
  target: string;
  /** The target's identity as the path check found it (a lock key). */
  identity?: string;
}

/** A path as it is now: nothing there (no `stat`), or a file with its bytes (and its text, unless binary). */
interface FileNow extends RevertPath {
  stat?: FileStat;
  bytes?: Uint8Array;
  text?: FileText;
  /** Why it is not text, when it is not. */
  binary?: string;
}

/** Every path the revert may touch, loaded under the call's locks; refused when one cannot be a revert's file. */
async function loadFilesNow(ctx: GuardContext, targets: readonly RevertPath[], files: CallFiles): Promise<Map<string, FileNow> | Refusal> {
  const now = new Map<string, FileNow>();
  for (const { path, target } of targets) {
    const stat = await files.stat(target);
    if (!stat) {
      now.set(path, { path, target });
      continue;
    }
    if (stat.kind === 'directory') return targetIsDirectory.directory(path, []);
    if (stat.kind !== 'file') return specialFile.special(path, specialKindName(stat.kind));
    if (stat.size > ctx.limits.maxFileBytes) return fileTooLarge.tooLarge(path, stat.size, ctx.limits.maxFileBytes);
    const bytes = await ctx.fs.readFile(target);
    const loaded = await decodeFile(ctx, target, bytes, stat.revision);
    now.set(path, { path, target, stat, bytes, ...(loaded.kind === 'text' ? { text: loaded.file } : { binary: loaded.type }) });
  }
  return now;
}

const asBytes = (content: string | Uint8Array): Uint8Array => (typeof content === 'string' ? new TextEncoder().encode(content) : content);

/** A plan from the file now (`before`, absent for a free path) to `after` (its text and exact bytes). */
function filePlan(
  at: FileNow,
  before: FileText | undefined,
  after: { text: string; bytes: Uint8Array; encoding: FileText['encoding'] },
  extra: Partial<FilePlan>,
): FilePlan {
  const beforeText = before?.text ?? '';
  const beforeIndex = before?.index ?? indexLines('');
  const afterIndex = indexLines(after.text);
  return {
    path: at.path,
    target: at.target,
    created: !before,
    ...(at.stat && before ? { stat: at.stat, before } : {}),
    beforeText,
    encoding: before?.encoding ?? after.encoding,
    afterText: after.text,
    // The revert was planned against the whole file: a change anywhere in it before the write is stale.
    seenBefore: rangesOf(1, beforeIndex.count),
    seenAfter: rangesOf(1, afterIndex.count),
    replacements: 0,
    changes: computeLineChanges(beforeText, after.text, { old: beforeIndex, new: afterIndex }),
    afterBytes: after.bytes,
    beforeIndex,
    afterIndex,
    ...extra,
  };
}

/**
 * The guard's rules for changing an existing file, as a revert meets them (the path policy is checked by the caller
 * and again before the write): text only, no hard link, not read-only, and no deletion or move of unsaved editor
 * text. `removes`: it deletes or moves the file.
 */
function blocked(at: FileNow, removes?: 'delete' | 'move'): Refusal | undefined {
  const stat = at.stat as FileStat;
  if (!at.text) return binaryFile.binary(at.path, at.binary ?? 'binary', stat.size, 'reverts');
  if (stat.nlink > 1) return writeFailed.hardLinked(at.path, `has ${stat.nlink} hard links`);
  if ((stat.mode & 0o222) === 0) return writeFailed.readOnly(at.path, `mode ${(stat.mode & 0o7777).toString(8).padStart(4, '0')}`);
  if (removes && stat.revision !== undefined) return writeFailed.unsaved(at.path, removes);
  return undefined;
}

/** The content the revert puts at `at`, decoded as the guard would decode that file. */
async function contentAt(
  ctx: GuardContext,
  at: FileNow,
  content: string | Uint8Array,
): Promise<{ text: string; bytes: Uint8Array; encoding: FileText['encoding'] } | Refusal> {
  const bytes = asBytes(content);
  if (bytes.length > ctx.limits.maxFileBytes) return fileTooLarge.content(at.path, bytes.length, ctx.limits.maxFileBytes);
  const loaded = await decodeFile(ctx, at.target, bytes, undefined);
  if (loaded.kind === 'binary') return binaryFile.binary(at.path, loaded.type, bytes.length, 'reverts');
  return { text: loaded.file.text, bytes, encoding: loaded.file.encoding };
}

function fileAt(now: ReadonlyMap<string, FileNow>, path: string): FileNow {
  const found = now.get(path);
  if (!found) throw new Error(`the revert plan names ${path}, a path it was not given`);
  return found;
}

/** One operation of the plan as a file plan, or why the guard will not carry it out. */
async function planOf(ctx: GuardContext, op: RevertOp, now: ReadonlyMap<string, FileNow>): Promise<FilePlan | Refusal> {
  if (op.type === 'delete') {
    const at = fileAt(now, op.path);
    const refused = blocked(at, 'delete');
    if (refused) return refused;
    return filePlan(at, at.text, { text: '', bytes: new Uint8Array(0), encoding: (at.text as FileText).encoding }, { deleted: true });
  }
  const at = fileAt(now, op.type === 'move' ? op.from : op.path);
  const refused = at.stat ? blocked(at, op.type === 'move' ? 'move' : undefined) : undefined;
  if (refused) return refused;
  const after = await contentAt(ctx, op.type === 'move' ? fileAt(now, op.to) : at, op.content);
  if (isRefusal(after)) return after;
  if (op.type !== 'move') return filePlan(at, at.text, after, !at.stat && op.mode !== undefined ? { mode: op.mode } : {});
  const to = fileAt(now, op.to);
  return filePlan(at, at.text, after, { movedTo: { path: to.path, target: to.target } });
}

/** The plan's operations as file plans, in its order; the first refusal stops it. */
async function filePlansOf(ctx: GuardContext, plan: RevertPlan, now: ReadonlyMap<string, FileNow>): Promise<FilePlan[] | Refusal> {
  const plans: FilePlan[] = [];
  for (const op of plan.ops) {
    const planned = await planOf(ctx, op, now);
    if (isRefusal(planned)) return planned;
    plans.push(planned);
  }
  return plans;
}

/** Lines `start`–`end` of a file's text, with their line breaks ('' for an empty range or no file). */
function linesOf(file: FileText | undefined, start: number, end: number): string {
  if (!file || end < start) return '';
  const from = file.index.start(start);
  const to = end < file.index.count ? file.index.start(end + 1) : file.text.length;
  return file.text.slice(from, to);
}

/** Content the revert wanted, as text of the file it is meant for. */
async function wantedText(content: string | Uint8Array, like: FileText | undefined): Promise<string> {
  if (typeof content === 'string') return content;
  if (like?.codec) return like.codec.decode(content);
  return decodeText(content, like?.encoding ?? detectEncoding(content) ?? 'latin1');
}

/** What a path holds once the plans are written: the text written there, null when no file is left, else as now. */
function mergedAt(path: string, plans: readonly FilePlan[], now: ReadonlyMap<string, FileNow>): string | null {
  const movedHere = plans.find((plan) => plan.movedTo?.path === path);
  if (movedHere) return movedHere.afterText;
  const own = plans.find((plan) => plan.path === path);
  if (own) return own.deleted || own.movedTo ? null : own.afterText;
  const file = now.get(path);
  return file?.stat ? (file.text?.text ?? null) : null;
}

/**
 * The plan's conflicts for the approval request, shown and never decided here: both sides of each range, and the
 * merged text of its file.
 */
async function conflictViews(plan: RevertPlan, plans: readonly FilePlan[], now: ReadonlyMap<string, FileNow>): Promise<ApprovalConflict[]> {
  const views: ApprovalConflict[] = [];
  for (const conflict of plan.conflicts) views.push(await conflictView(conflict, plans, now));
  return views;
}

async function conflictView(conflict: RevertConflict, plans: readonly FilePlan[], now: ReadonlyMap<string, FileNow>): Promise<ApprovalConflict> {
  const file = now.get(conflict.path)?.text;
  const ranges: ApprovalConflict['ranges'] = [];
  for (const [i, range] of conflict.lines.entries()) {
    const wanted = conflict.wanted?.[i];
    ranges.push({
      start: range.start,
      end: range.end,
      current: linesOf(file, range.start, range.end),
      ...(wanted !== undefined ? { wanted: await wantedText(wanted, file) } : {}),
    });
  }
  return {
    path: conflict.path,
    reason: conflict.reason,
    ...(conflict.changeId !== undefined ? { changeId: conflict.changeId } : {}),
    ranges,
    merged: mergedAt(conflict.path, plans, now),
  };
}

/** A revert planned against the files as they are now: the file plans, and the conflicts the approval shows. */
export interface PlannedRevert {
  plans: FilePlan[];
  conflicts: ApprovalConflict[];
}

/** Plans `reverted` against the files as they are now (`files`: stat'ed under the call's locks, or afresh). */
export async function planRevertNow(
  ctx: GuardContext,
  reverted: RevertedChanges,
  paths: readonly RevertPath[],
  files: CallFiles,
): Promise<PlannedRevert | Refusal> {
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
  if (plans.length === 0) {
    return conflicts.length ? revertConflict.nothingToWrite(describeConflicts(conflicts), reverted.what) : editNoChange.revert(reverted.what);
  }
  return { plans, conflicts };
}
