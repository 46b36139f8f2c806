/**
 * Writing the approved files of one call: all or none, and never a byte of anyone else's lost.
 *
 * Every check of every file (path policy, then version) passes before the first write, so a refusal never
 * undoes a write. Each file is then written through the port with what was checked as its expectation
 * (`WriteExpectation`: the exact bytes planned against, or absence for a create, and the real folders on the
 * way), which the Node port verifies synchronously right before replacing the file. If a later file fails (a full
 * disk, a permission, or a change that raced in at that instant), the earlier ones are restored, each only
 * while it still holds exactly what this call wrote: a change someone else made meanwhile is never overwritten.
 */
import { describeIoError, isNotWritable, isWriteConflict } from '../fileErrors';
import { displayPath } from '../path/displayPath';
import type { BatchWrite, FileSystem, FolderExpectation, WriteExpectation } from '../ports';
import { type Refusal, refuse, withNote } from '../refusals/refusal';
import type { GuardContext } from './context';
import { foldersFor, removeMadeFolders } from './folders';
import type { FilePlan } from './mutationPlan';
import { recheckPlan, recheckPlanPath } from './recheckPlan';
import type { SessionState } from './sessionState';
import { fileChanged } from '../refusals/fileChanged';
import { writeFailed } from '../refusals/writeFailed';

export interface FinalFile {
  plan: FilePlan;
  afterText: string;
  bytes: Uint8Array;
  userChanged: boolean;
}

interface Written {
  final: FinalFile;
  folders: FolderExpectation[];
}

function expectationOf(plan: FilePlan, folders: FolderExpectation[]): WriteExpectation {
  return plan.before && plan.stat ? { current: { bytes: plan.before.bytes, identity: plan.stat.identity }, folders } : { folders };
}

function modeOf(plan: FilePlan): { mode?: number } {
  return plan.stat ? { mode: plan.stat.mode } : {};
}

/** Undefined when every file was written; otherwise the refusal, with every file as it was. */
export async function writeFiles(ctx: GuardContext, s: SessionState, finals: FinalFile[], beforeFirstWrite: () => void): Promise<Refusal | undefined> {
  for (const { plan } of finals) {
    // One file through a port that verifies its writes: the content is checked by the write itself (a conflict
    // there gets the same diff refusal). Otherwise every file's content is checked before the first is written.
    const stale = finals.length === 1 && ctx.fs.verifiesExpectations ? await recheckPlanPath(ctx, plan, 'just before it was written') : await recheckPlan(ctx, s, plan, 'just before it was written');
    if (stale) return stale;
  }
  beforeFirstWrite();
  if (finals.length > 1 && ctx.fs.writeBatch) return writeBatch(ctx, s, finals, ctx.fs.writeBatch.bind(ctx.fs));
  const written: Written[] = [];
  const madeDirs: string[] = [];
  for (const final of finals) {
    const { plan } = final;
    try {
      const folders = await foldersFor(ctx, plan.target, plan.created, madeDirs);
      await ctx.fs.writeFile(plan.target, final.bytes, { ...modeOf(plan), expect: expectationOf(plan, folders) });
      written.push({ final, folders });
    } catch (error) {
      const report = await undo(ctx.fs, written, madeDirs);
      return failure(ctx, s, plan, error, undoNote(written.length, report));
    }
  }
  return undefined;
}

/** Several files through the port's batch write (an editor's one undo step); all or nothing by the port's contract. */
async function writeBatch(ctx: GuardContext, s: SessionState, finals: FinalFile[], batch: NonNullable<FileSystem['writeBatch']>): Promise<Refusal | undefined> {
  const madeDirs: string[] = [];
  let current = finals[0].plan;
  try {
    const writes: BatchWrite[] = [];
    for (const { plan, bytes } of finals) {
      current = plan;
      const folders = await foldersFor(ctx, plan.target, plan.created, madeDirs);
      writes.push({ path: plan.target, data: bytes, options: { ...modeOf(plan), expect: expectationOf(plan, folders) }, created: plan.created });
    }
    await batch(writes);
  } catch (error) {
    await removeMadeFolders(ctx.fs, madeDirs);
    ctx.logger.error('[guard] batch write failed', { session: s.id, files: finals.length, error: describeIoError(error) });
    return failure(ctx, s, current, error, '');
  }
  return undefined;
}

interface UndoReport {
  /** Left with this call's change: they changed since it wrote them, so restoring would overwrite someone else. */
  kept: string[];
  /** Restored, but another writer's change that raced the restore may be lost (the double race; see safeWrite.ts). */
  racedRestore: string[];
}

/** Restores files already written by this call (newest first) and removes the folders it made. */
async function undo(fs: FileSystem, written: Written[], madeDirs: readonly string[]): Promise<UndoReport> {
  const report: UndoReport = { kept: [], racedRestore: [] };
  for (const { final, folders } of [...written].reverse()) {
    const { plan } = final;
    const ours: WriteExpectation = { current: { bytes: final.bytes }, folders };
    try {
      if (plan.created) await fs.unlink(plan.target, ours);
      else await fs.writeFile(plan.target, plan.before!.bytes, { ...modeOf(plan), expect: ours });
    } catch (error) {
      if (isWriteConflict(error) && error.reason === 'putBackFailed') report.racedRestore.push(plan.path);
      else report.kept.push(plan.path);
    }
  }
  await removeMadeFolders(fs, madeDirs);
  return report;
}

function undoNote(writtenBefore: number, report: UndoReport): string {
  if (!writtenBefore) return '';
  const kept = report.kept.length ? `, except ${report.kept.map(displayPath).join(', ')}, which changed since (left as they are now, with this call's change)` : '';
  const raced = report.racedRestore.length ? ` Another writer changed ${report.racedRestore.map(displayPath).join(', ')} at the very instant it was restored: their change may be lost; tell the user.` : '';
  return ` The ${writtenBefore} file(s) this call had already written were restored${kept}.${raced}`;
}

/** The refusal for a write that did not happen, saying what happened to the files written before it. */
async function failure(ctx: GuardContext, s: SessionState, plan: FilePlan, error: unknown, others: string): Promise<Refusal> {
  const detail = describeIoError(error);
  ctx.logger.error('[guard] write failed', { session: s.id, path: plan.path, error: detail, reason: (error as { reason?: string })?.reason, others });
  if (isNotWritable(error)) {
    const why = { readOnly: writeFailed.readOnly, notWritableByUser: writeFailed.notWritableByUser, hardLinked: writeFailed.hardLinked }[error.reason];
    return withNote(why(plan.path, error.message), others);
  }
  if (isWriteConflict(error)) {
    if (error.reason === 'escaped') return withNote(writeFailed.escaped(plan.path, error.message), others);
    if (error.reason === 'putBackFailed') return withNote(writeFailed.putBackFailed(plan.path, error.message), others);
    if (error.reason === 'changedDuringWrite') return withNote(fileChanged.duringWrite(plan.path, error.message), others);
    if (error.reason !== 'folder') {
      // The diff of what raced in, exactly as any other change since the plan is reported.
      const stale = await recheckPlan(ctx, s, plan, 'while it was being written');
      if (stale) return refuse(stale.code, stale.message + others);
    }
    return withNote(fileChanged.whileWriting(plan.path, error.message), others);
  }
  // A name on the way vanished mid-write: a folder was moved or deleted, not a disk or permission problem.
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return withNote(fileChanged.whileWriting(plan.path, `a folder on the way vanished while it was written (${detail})`), others);
  return withNote(writeFailed.io(plan.path, detail), others);
}
