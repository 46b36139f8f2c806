/**
 * "Revert This File to Before the Session": what one session did to one file, undone, its other files left
 * alone. The guard's `revert` takes a change or a whole session, not a file of a session, so this adapter plans
 * it with the core's own pure planner and carries the plan out as the user's own change through a guard session:
 *
 * 1. the session's changes to the file, newest first, following the file back through its moves (`fileChain`),
 *    each restricted to that file, with its contents from the history (`History.revertInput`);
 * 2. the version of every path involved, taken first (a read of one line in a session of the user's own), then
 *    the files as they are now through the editor's file system (unsaved text counts), and
 *    `planSessionRevert` over them: the same three-way merge `Guard.revert` runs;
 * 3. its operations as one guarded change of that session (a write, a deletion or a move, or a multiEdit of
 *    them), each naming the version taken in step 2, so a file that changed since is refused as stale and
 *    nothing is written; reviewed in the panel as a revert, its conflicts shown through `RevertReviews`, and
 *    written only when the user takes the merged parts.
 *
 * What differs from `Guard.revert`: the record of the revert is the write's (tool `write`, `multiEdit`, …), with
 * no `revertOf`; and a file ReadGate cannot show as text (binary) is refused. The right home for this is the
 * core (a `{ sessionId, path }` target of `Guard.revert`); until it has one, this is it.
 */
import { randomUUID } from 'crypto';
import {
  type ChangedFile,
  type ChangeRecord,
  type FileSystem,
  type Guard,
  type GuardSession,
  type History,
  type MultiEditChange,
  type MutationResult,
  planSessionRevert,
  type Refusal,
  type RevertChange,
  type RevertConflict,
  type RevertContent,
  type RevertOp,
  textOfBytes,
} from '../../core/index';
import type { ConflictInput } from '../approval/conflictModel';
import { splitTextLines } from '../approval/conflictModel';

/** The approval service's side of it: a request from `sessionId` is a revert with these conflicts. */
export interface RevertReviews {
  expectRevert(sessionId: string, conflicts: ConflictInput[]): { dispose(): void };
}

export interface FileRevertDeps {
  guard: Guard;
  store: Pick<History, 'revertInput'>;
  files: Pick<FileSystem, 'readFile' | 'codecFor'>;
  reviews: RevertReviews;
  /** The revert session's id prefix (the user's own). */
  sessionPrefix: string;
}

/**
 * The changes of a session to `path`, oldest first, each with only the files that are that file: walking from the
 * newest change back, a move of the file adds its old name, so older changes under that name count too. Pure.
 */
export function fileChain(recordsNewestFirst: readonly ChangeRecord[], path: string): { record: ChangeRecord; files: ChangedFile[] }[] {
  const names = new Set([path]);
  const chain: { record: ChangeRecord; files: ChangedFile[] }[] = [];
  for (const record of recordsNewestFirst) {
    const files = record.files.filter((file) => names.has(file.path));
    if (files.length === 0) continue;
    for (const file of files) if (file.kind === 'rename' && file.from !== undefined) names.add(file.from);
    chain.push({ record, files });
  }
  return chain.reverse();
}

const refusal = (code: Refusal['code'], message: string): Refusal => ({ ok: false, code, message });

/** Every path the changes name, a move's old name too. */
function pathsOf(changes: readonly RevertChange[]): string[] {
  return [...new Set(changes.flatMap((change) => change.files.flatMap((file) => (file.from !== undefined ? [file.path, file.from] : [file.path]))))];
}

interface Now {
  bytes: Uint8Array | null;
  version?: string;
}

/** Each path's version (from a one-line read in the revert's session), then its bytes as they are now. */
async function filesNow(session: GuardSession, files: FileRevertDeps['files'], paths: readonly string[]): Promise<Map<string, Now> | Refusal> {
  const now = new Map<string, Now>();
  for (const path of paths) {
    const read = await session.read(path, { limit: 1, force: true });
    if (!read.ok && read.code === 'FILE_NOT_FOUND') {
      now.set(path, { bytes: null });
      continue;
    }
    if (!read.ok) return read.code === 'BINARY_FILE' ? refusal('BINARY_FILE', `${path} is not a text file, so it cannot be reverted to before the session on its own. Revert the session or the change instead.`) : read;
    const bytes = await files.readFile(path);
    now.set(path, { bytes, version: read.version });
  }
  return now;
}

async function textOf(content: RevertContent, files: FileRevertDeps['files'], path: string): Promise<string | undefined> {
  if (typeof content === 'string') return content;
  const codec = await files.codecFor?.(path).catch(() => undefined);
  return textOfBytes(content, codec);
}

/** The plan's conflicts as the panel shows them: per range, the lines there now and what the revert wanted. */
async function conflictInputs(conflicts: readonly RevertConflict[], now: ReadonlyMap<string, Now>, files: FileRevertDeps['files']): Promise<ConflictInput[]> {
  const inputs: ConflictInput[] = [];
  for (const conflict of conflicts) {
    const bytes = now.get(conflict.path)?.bytes;
    const lines = bytes ? splitTextLines((await textOf(bytes, files, conflict.path)) ?? '') : [];
    const ranges = [];
    for (const [i, range] of conflict.lines.entries()) {
      const current = lines.slice(range.start - 1, Math.max(range.start - 1, range.end)).map((line) => `${line}\n`).join('');
      const wanted = conflict.wanted?.[i];
      ranges.push({ start: range.start, end: range.end, current, ...(wanted !== undefined ? { wanted: (await textOf(wanted, files, conflict.path)) ?? '' } : {}) });
    }
    inputs.push({ reason: conflict.reason, path: conflict.path, ranges });
  }
  return inputs;
}

type Options = { explanation: string; signal?: AbortSignal };

/** One operation as the session call that carries it out. */
async function runOne(session: GuardSession, op: RevertOp, now: ReadonlyMap<string, Now>, files: FileRevertDeps['files'], options: Options): Promise<MutationResult> {
  if (op.type === 'delete') return session.delete(op.path, { ...options, expectedVersion: now.get(op.path)?.version });
  if (op.type === 'write') {
    const text = await textOf(op.content, files, op.path);
    if (text === undefined) return refusal('BINARY_FILE', `The version of ${op.path} to restore is not text: revert the session or the change instead.`);
    return session.write(op.path, text, { ...options, ...(op.current !== null ? { expectedVersion: now.get(op.path)?.version } : {}) });
  }
  return session.multiEdit(await moveChanges(op, now, files), options);
}

async function moveChanges(op: Extract<RevertOp, { type: 'move' }>, now: ReadonlyMap<string, Now>, files: FileRevertDeps['files']): Promise<MultiEditChange[]> {
  const current = (await textOf(op.current, files, op.from)) ?? '';
  const content = (await textOf(op.content, files, op.from)) ?? '';
  const edits = current !== content && current !== '' ? [{ oldString: current, newString: content }] : [];
  return [{ path: op.from, moveTo: op.to, expectedVersion: now.get(op.from)?.version, ...(edits.length ? { edits } : {}) }];
}

/** Several operations (a file moved back and others changed) as one multiEdit, all or nothing. */
async function runAll(session: GuardSession, ops: readonly RevertOp[], now: ReadonlyMap<string, Now>, files: FileRevertDeps['files'], options: Options): Promise<MutationResult> {
  const changes: MultiEditChange[] = [];
  for (const op of ops) {
    if (op.type === 'move') changes.push(...(await moveChanges(op, now, files)));
    else if (op.type === 'delete') changes.push({ path: op.path, delete: true, expectedVersion: now.get(op.path)?.version });
    else {
      const current = op.current === null ? '' : ((await textOf(op.current, files, op.path)) ?? '');
      const content = (await textOf(op.content, files, op.path)) ?? '';
      if (op.current !== null && current === '') return refusal('INVALID_INPUT', `${op.path} is empty now: revert the session or the change instead.`);
      changes.push({ path: op.path, edits: [{ oldString: current, newString: content }], ...(op.current !== null ? { expectedVersion: now.get(op.path)?.version } : {}) });
    }
  }
  return session.multiEdit(changes, options);
}

async function planned(deps: FileRevertDeps, session: GuardSession, sessionId: string, path: string): Promise<{ ops: RevertOp[]; conflicts: ConflictInput[]; now: Map<string, Now> } | Refusal> {
  const chain = fileChain(await deps.guard.history({ sessionId }), path);
  if (chain.length === 0) return refusal('INVALID_INPUT', `No change of ${path} by session ${sessionId} is on record any more (the history's budget may have dropped it): nothing to revert.`);
  const changes: RevertChange[] = [];
  for (const { record, files } of chain) {
    const change = await deps.store.revertInput({ ...record, files });
    if (!change) return refusal('INVALID_INPUT', `ReadGate no longer keeps the contents of change ${record.id} (the history's budget dropped them), so ${path} cannot be reverted to before the session.`);
    changes.push(change);
  }
  const now = await filesNow(session, deps.files, pathsOf(changes));
  if (!(now instanceof Map)) return now;
  const plan = planSessionRevert(changes, (p) => now.get(p)?.bytes ?? null);
  if (plan.ops.length === 0) {
    const why = plan.conflicts.length ? 'every part of it conflicts with later changes' : 'the file already is as it was before the session';
    return refusal('EDIT_NO_CHANGE', `Nothing to revert in ${path}: ${why}. Nothing was written.`);
  }
  return { ops: plan.ops, conflicts: await conflictInputs(plan.conflicts, now, deps.files), now };
}

export async function revertFileOfSession(deps: FileRevertDeps, sessionId: string, path: string, options: Options): Promise<MutationResult> {
  const revertId = `${deps.sessionPrefix}${randomUUID()}`;
  const session = deps.guard.session(revertId, { surface: 'palette', label: 'Revert' });
  try {
    const plan = await planned(deps, session, sessionId, path);
    if ('ok' in plan) return plan;
    const expected = deps.reviews.expectRevert(revertId, plan.conflicts);
    try {
      return plan.ops.length === 1 ? await runOne(session, plan.ops[0], plan.now, deps.files, options) : await runAll(session, plan.ops, plan.now, deps.files, options);
    } finally {
      expected.dispose();
    }
  } finally {
    deps.guard.dropSession(revertId);
  }
}
