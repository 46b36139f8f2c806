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
import { describeIoError, isMissing, isNotWritable, isWriteConflict } from '../fileErrors';
import { displayPath } from '../path/displayPath';
import type { BatchWrite, FileStat, FileSystem, FolderExpectation, WriteExpectation } from '../ports';
import { type Refusal, refuse, withNote } from '../refusals/refusal';
import type { GuardContext } from '../context/guardContext';
import { foldersFor, removeMadeFolders } from './folders';
import type { FilePlan } from './filePlan';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { recheckPlan, recheckPlanPath } from './recheck';
import type { SessionState } from '../context/sessionState';
import { fileChanged } from '../refusals/fileChanged';
import { writeFailed } from '../refusals/writeFailed';

export interface FinalFile {
  plan: FilePlan;
  afterText: string;
  bytes: Uint8Array;
  userChanged: boolean;
  /** The written file's stat, when the port reported it (saves a stat when the result is recorded). */
  written?: FileStat;
}

/** One step of writing a call's files: content at a path, or the removal of a file (a deletion, a move's source). */
interface Step {
  final: FinalFile;
  kind: 'write' | 'createAt' | 'remove';
  path: string;
  target: string;
}

interface Done {
  step: Step;
  folders: FolderExpectation[];
}

function expectationOf(plan: FilePlan, folders: FolderExpectation[]): WriteExpectation {
  return plan.before && plan.stat ? { current: { bytes: plan.before.bytes, identity: plan.stat.identity }, folders } : { folders };
}

function modeOf(plan: FilePlan): { mode?: number } {
  if (plan.stat) return { mode: plan.stat.mode };
  return plan.mode !== undefined ? { mode: plan.mode } : {};
}

/** Contents first, removals last: a failure while writing leaves every file that was to go in place. */
function stepsOf(finals: FinalFile[]): Step[] {
  const writes: Step[] = [];
  const removals: Step[] = [];
  for (const final of finals) {
    const { plan } = final;
    if (plan.deleted) removals.push({ final, kind: 'remove', path: plan.path, target: plan.target });
    else if (plan.movedTo) {
      writes.push({ final, kind: 'createAt', path: plan.movedTo.path, target: plan.movedTo.target });
      removals.push({ final, kind: 'remove', path: plan.path, target: plan.target });
    } else writes.push({ final, kind: 'write', path: plan.path, target: plan.target });
  }
  return [...writes, ...removals];
}

/** Refusals after which a file was left with this call's change (the undo could not restore it). */
const partial = new WeakSet<Refusal>();

/** Whether `refusal` left a file of the call changed (its message names it): "no file was changed" is then untrue. */
export function leftFilesChanged(refusal: Refusal): boolean {
  return partial.has(refusal);
}

/** Undefined when every file was written; otherwise the refusal, with every file as it was (or named as not). */
export async function writeFiles(
  ctx: GuardContext,
  s: SessionState,
  finals: FinalFile[],
  beforeFirstWrite: () => void,
  learned: LedgerEntry[],
): Promise<Refusal | undefined> {
  const several = finals.length > 1 || finals.some(({ plan }) => plan.deleted || plan.movedTo);
  const batch = several ? ctx.fs.writeBatch?.bind(ctx.fs) : undefined;
  const onePass = several && !batch ? ctx.fs.writeInOnePass?.bind(ctx.fs) : undefined;
  for (const { plan } of finals) {
    // A port that verifies its writes checks the content itself, right before replacing (a conflict there gets
    // the same diff refusal); otherwise every file's content is checked here, before the first is written.
    const portChecks = ctx.fs.verifiesExpectations && (!several || onePass !== undefined);
    const stale = portChecks
      ? await recheckPlanPath(ctx, plan, 'just before it was written')
      : await recheckPlan(ctx, s, plan, 'just before it was written', learned);
    if (stale) return stale;
    if (plan.movedTo) {
      const taken = await recheckDestination(ctx, plan, 'just before it was written');
      if (taken) return taken;
    }
  }
  beforeFirstWrite();
  // A file read ahead of a read (`Guard.readAhead`) before this write must not be shown after it.
  return ctx.readAhead.whileWriting(() => {
    if (batch) return writeBatch(ctx, s, finals, batch, learned);
    if (onePass) return writeOnePass(ctx, s, finals, onePass, learned);
    return writeOneByOne(ctx, s, finals, learned);
  });
}

/** Each file through the port in turn; a failure restores the ones written before it. */
async function writeOneByOne(ctx: GuardContext, s: SessionState, finals: FinalFile[], learned: LedgerEntry[]): Promise<Refusal | undefined> {
  const done: Done[] = [];
  const madeDirs: string[] = [];
  for (const step of stepsOf(finals)) {
    const { plan, bytes } = step.final;
    try {
      if (step.kind === 'remove') {
        const folders = await foldersFor(ctx, step.target, false, madeDirs);
        await ctx.fs.unlink(step.target, expectationOf(plan, folders));
        done.push({ step, folders });
      } else {
        const folders = await foldersFor(ctx, step.target, step.kind === 'createAt' || plan.created, madeDirs);
        const written = await ctx.fs.writeFile(step.target, bytes, {
          ...modeOf(plan),
          expect: step.kind === 'createAt' ? { folders } : expectationOf(plan, folders),
        });
        if (written) step.final.written = written;
        done.push({ step, folders });
      }
    } catch (error) {
      return restoreAfter(ctx, s, done, madeDirs, step, error, learned);
    }
  }
  return undefined;
}

/**
 * Every file in one synchronous pass of the port: every expectation checked before the first file is touched,
 * and nothing else in this process running between two replacements. A failure restores the done ones.
 */
async function writeOnePass(
  ctx: GuardContext,
  s: SessionState,
  finals: FinalFile[],
  pass: NonNullable<FileSystem['writeInOnePass']>,
  learned: LedgerEntry[],
): Promise<Refusal | undefined> {
  const madeDirs: string[] = [];
  const steps = stepsOf(finals);
  const prepared = await batchWrites(ctx, steps, madeDirs);
  if ('error' in prepared) {
    await removeMadeFolders(ctx.fs, madeDirs);
    return failure(ctx, s, prepared.step.final.plan, prepared.step, prepared.error, '', learned);
  }
  const outcome = await pass(prepared.writes);
  outcome.written?.forEach((written, i) => {
    if (written && steps[i].kind !== 'remove') steps[i].final.written = written;
  });
  if (!('failed' in outcome)) return undefined;
  const done = steps.slice(0, outcome.done).map((step, i) => ({ step, folders: prepared.folders[i] }));
  return restoreAfter(ctx, s, done, madeDirs, steps[outcome.failed], outcome.error, learned);
}

/** The refusal of a failed step, after restoring the steps done before it and removing the folders made. */
async function restoreAfter(
  ctx: GuardContext,
  s: SessionState,
  done: Done[],
  madeDirs: string[],
  failed: Step,
  error: unknown,
  learned: LedgerEntry[],
): Promise<Refusal> {
  const report = await undo(ctx.fs, done, madeDirs);
  const refusal = await failure(ctx, s, failed.final.plan, failed, error, undoNote(new Set(done.map((d) => d.step.final)).size, report), learned);
  if (report.kept.length || report.racedRestore.length) partial.add(refusal);
  return refusal;
}

/** The port's writes for the steps, with the folders on the way (made for creates); or the step that failed. */
async function batchWrites(
  ctx: GuardContext,
  steps: Step[],
  madeDirs: string[],
): Promise<{ writes: BatchWrite[]; folders: FolderExpectation[][] } | { step: Step; error: unknown }> {
  const writes: BatchWrite[] = [];
  const folders: FolderExpectation[][] = [];
  for (const step of steps) {
    const { plan, bytes } = step.final;
    const create = step.kind === 'createAt' || (step.kind === 'write' && plan.created);
    let found: FolderExpectation[];
    try {
      found = await foldersFor(ctx, step.target, create, madeDirs);
    } catch (error) {
      return { step, error };
    }
    folders.push(found);
    if (step.kind === 'remove') {
      writes.push({ path: step.target, data: new Uint8Array(0), options: { expect: expectationOf(plan, found) }, created: false, remove: true });
    } else {
      writes.push({
        path: step.target,
        data: bytes,
        options: { ...modeOf(plan), expect: step.kind === 'createAt' ? { folders: found } : expectationOf(plan, found) },
        created: create,
      });
    }
  }
  return { writes, folders };
}

/** A move's destination must still be free, and its path still lead where it did when the move was planned. */
async function recheckDestination(ctx: GuardContext, plan: FilePlan, when: string): Promise<Refusal | undefined> {
  const destination = plan.movedTo!;
  const checked = await ctx.paths.check(destination.path);
  if (!checked.ok) return refuse(checked.code, `${checked.message} (This changed ${when}.) Nothing was written.`);
  if (checked.target !== destination.target) return fileChanged.leadsElsewhere(destination.path, destination.target, checked.target, when);
  return (await ctx.fs.lstat(destination.target)) ? fileChanged.createdMeanwhile(destination.path, when) : undefined;
}

/** Several files through the port's batch write (an editor's one undo step); all or nothing by the port's contract. */
async function writeBatch(
  ctx: GuardContext,
  s: SessionState,
  finals: FinalFile[],
  batch: NonNullable<FileSystem['writeBatch']>,
  learned: LedgerEntry[],
): Promise<Refusal | undefined> {
  const madeDirs: string[] = [];
  const steps = stepsOf(finals);
  const prepared = await batchWrites(ctx, steps, madeDirs);
  let failed: { step: Step; error: unknown } | undefined = 'error' in prepared ? prepared : undefined;
  if (!failed && 'writes' in prepared) {
    try {
      await batch(prepared.writes);
    } catch (error) {
      failed = { step: steps[steps.length - 1], error };
    }
  }
  if (!failed) return undefined;
  await removeMadeFolders(ctx.fs, madeDirs);
  ctx.logger.error('[guard] batch write failed', { session: s.id, files: finals.length, error: describeIoError(failed.error) });
  return failure(ctx, s, failed.step.final.plan, failed.step, failed.error, '', learned);
}

interface UndoReport {
  /**
   * Left with this call's change: they changed since it wrote them, so restoring would overwrite someone else,
   * or a folder on the way was replaced, so they could not be reached safely.
   */
  kept: { path: string; folder: boolean }[];
  /** Restored, but another writer's change that raced the restore may be lost (the double race; see safeWrite.ts). */
  racedRestore: string[];
}

/** Restores files already written by this call (newest first) and removes the folders it made. */
async function undo(fs: FileSystem, done: Done[], madeDirs: readonly string[]): Promise<UndoReport> {
  const report: UndoReport = { kept: [], racedRestore: [] };
  for (const { step, folders } of [...done].reverse()) {
    const { plan, bytes } = step.final;
    const ours: WriteExpectation = { current: { bytes }, folders };
    try {
      // A removed file comes back only where its name is still free: nothing put there since is replaced.
      if (step.kind === 'remove') await fs.writeFile(step.target, plan.before!.bytes, { ...modeOf(plan), expect: { folders } });
      else if (step.kind === 'createAt' || plan.created) await fs.unlink(step.target, ours);
      else await fs.writeFile(step.target, plan.before!.bytes, { ...modeOf(plan), expect: ours });
    } catch (error) {
      if (isWriteConflict(error) && error.reason === 'putBackFailed') report.racedRestore.push(step.path);
      else report.kept.push({ path: step.path, folder: isWriteConflict(error) && error.reason === 'folder' });
    }
  }
  await removeMadeFolders(fs, madeDirs);
  return report;
}

function undoNote(writtenBefore: number, report: UndoReport): string {
  if (!writtenBefore) return '';
  const changed = report.kept.filter((k) => !k.folder).map((k) => displayPath(k.path));
  const unreachable = report.kept.filter((k) => k.folder).map((k) => displayPath(k.path));
  const kept = [
    changed.length ? `${changed.join(', ')}, which changed since (left as they are now, with this call's change)` : '',
    unreachable.length
      ? `${unreachable.join(', ')}, which could not be reached safely because a folder on the way was replaced (left with this call's change; tell the user)`
      : '',
  ].filter(Boolean);
  const raced = report.racedRestore.length
    ? ` Another writer changed ${report.racedRestore.map(displayPath).join(', ')} at the very instant it was restored: their change may be lost; tell the user.`
    : '';
  return ` The ${writtenBefore} file(s) this call had already written were restored${kept.length ? `, except ${kept.join('; and ')}` : ''}.${raced}`;
}

/** The refusal for a write that did not happen, saying what happened to the files written before it. */
async function failure(
  ctx: GuardContext,
  s: SessionState,
  plan: FilePlan,
  step: Step,
  error: unknown,
  others: string,
  learned: LedgerEntry[],
): Promise<Refusal> {
  const detail = describeIoError(error);
  ctx.logger.error('[guard] write failed', {
    session: s.id,
    path: step.path,
    step: step.kind,
    error: detail,
    reason: (error as { reason?: string })?.reason,
    others,
  });
  // A move's destination that someone took meanwhile: theirs is kept.
  if (step.kind === 'createAt' && isWriteConflict(error) && error.reason === 'created') {
    return withNote(fileChanged.createdMeanwhile(step.path, 'while it was being written'), others);
  }
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
      const stale = await recheckPlan(ctx, s, plan, 'while it was being written', learned);
      if (stale) return refuse(stale.code, stale.message + others);
    }
    return withNote(fileChanged.whileWriting(plan.path, error.message), others);
  }
  // A name on the way vanished mid-write: a folder was moved or deleted, not a disk or permission problem.
  if (isMissing(error)) return withNote(fileChanged.whileWriting(plan.path, `a folder on the way vanished while it was written (${detail})`), others);
  return withNote(writeFailed.io(plan.path, detail), others);
}
