/**
 * A revert as a change the commit can carry out: the files it touches loaded as they are now, the pure plan of
 * `history/planRevert.ts` against them, and its operations turned into file plans (pre-computed contents,
 * deletions, moves) that go through the same approval and the same all-or-nothing write as any multi-file
 * change. Each plan is checked against exactly the bytes the revert was planned from, so a file that changes
 * before the write is refused as stale and nothing is written.
 *
 * A revert needs no read by its session (the user owns it): nothing here consults a ledger. The guard's other
 * rules still hold: the path policy (checked by the caller, again before the write), no special files or
 * directories, no hard-linked or read-only files, no deletion or move of a file with unsaved editor text, text
 * only, and the size limit.
 *
 * Conflicts are shown, never decided: each becomes an `ApprovalConflict` with both sides of its lines and the
 * text the merged parts would leave.
 */
import { decodeText, detectEncoding } from '../edit/encoding';
import { indexLines } from '../edit/lineEndings';
import { computeLineChanges } from '../edit/lineDiff';
import type { RevertConflict, RevertOp, RevertPlan } from '../history/revertTypes';
import { rangesOf } from '../ledger/coverage';
import type { FileStat } from '../ports';
import { decodeFile, type FileText } from '../read/loadText';
import { binaryFile } from '../refusals/binaryFile';
import { fileTooLarge } from '../refusals/fileTooLarge';
import { type Refusal, isRefusal } from '../refusals/refusal';
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
export interface FileNow extends RevertPath {
  stat?: FileStat;
  bytes?: Uint8Array;
  text?: FileText;
  /** Why it is not text, when it is not. */
  binary?: string;
}

/** Every path the revert may touch, loaded under the call's locks; refused when one cannot be a revert's file. */
export async function loadFilesNow(ctx: GuardContext, targets: readonly RevertPath[], files: CallFiles): Promise<Map<string, FileNow> | Refusal> {
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
function filePlan(at: FileNow, before: FileText | undefined, after: { text: string; bytes: Uint8Array; encoding: FileText['encoding'] }, extra: Partial<FilePlan>): FilePlan {
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

/** The guard's rules for changing an existing file, as a revert meets them. `removes`: it deletes or moves it. */
function blocked(at: FileNow, removes?: 'delete' | 'move'): Refusal | undefined {
  const stat = at.stat as FileStat;
  if (!at.text) return binaryFile.binary(at.path, at.binary ?? 'binary', stat.size, 'reverts');
  if (stat.nlink > 1) return writeFailed.hardLinked(at.path, `has ${stat.nlink} hard links`);
  if ((stat.mode & 0o222) === 0) return writeFailed.readOnly(at.path, `mode ${(stat.mode & 0o7777).toString(8).padStart(4, '0')}`);
  if (removes && stat.revision !== undefined) return writeFailed.unsaved(at.path, removes);
  return undefined;
}

/** The content the revert puts at `at`, decoded as the guard would decode that file. */
async function contentAt(ctx: GuardContext, at: FileNow, content: string | Uint8Array): Promise<{ text: string; bytes: Uint8Array; encoding: FileText['encoding'] } | Refusal> {
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
export async function filePlansOf(ctx: GuardContext, plan: RevertPlan, now: ReadonlyMap<string, FileNow>): Promise<FilePlan[] | Refusal> {
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

/** The plan's conflicts for the approval request: both sides of each range, and the merged text of its file. */
export async function conflictViews(plan: RevertPlan, plans: readonly FilePlan[], now: ReadonlyMap<string, FileNow>): Promise<ApprovalConflict[]> {
  const views: ApprovalConflict[] = [];
  for (const conflict of plan.conflicts) views.push(await conflictView(conflict, plans, now));
  return views;
}

async function conflictView(conflict: RevertConflict, plans: readonly FilePlan[], now: ReadonlyMap<string, FileNow>): Promise<ApprovalConflict> {
  const file = now.get(conflict.path)?.text;
  const ranges: ApprovalConflict['ranges'] = [];
  for (const [i, range] of conflict.lines.entries()) {
    const wanted = conflict.wanted?.[i];
    ranges.push({ start: range.start, end: range.end, current: linesOf(file, range.start, range.end), ...(wanted !== undefined ? { wanted: await wantedText(wanted, file) } : {}) });
  }
  return {
    path: conflict.path,
    reason: conflict.reason,
    ...(conflict.changeId !== undefined ? { changeId: conflict.changeId } : {}),
    ranges,
    merged: mergedAt(conflict.path, plans, now),
  };
}
