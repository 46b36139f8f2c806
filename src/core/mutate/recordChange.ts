/**
 * The change history's record of a change just written (`GuardOptions.history`): who made it (the session's
 * id, label and surface), with which call, why, who approved it, and per file its kind and the exact bytes
 * before and after. The bytes are the ones the commit already holds (what the plan was checked against, what
 * was written), never read again, so the record is exactly what happened on disk (or in the editor's buffer).
 *
 * Fire and forget: `History.record` only checks and queues, and never rejects; hashing, compressing and storing
 * happen after this call returned. A failure there drops the record with a warning in the log; the change
 * stays written and its result is the same.
 */
import type { Hunk } from '../edit/hunks';
import type { FileStat } from '../ports';
import type { RecordFileInput } from '../history/changeRecord';
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { FinalFile } from './writeFiles';

/** What the commit knows of the change beyond its files. */
export interface RecordMeta {
  /** The call: 'edit', 'write', 'multiEdit', 'delete', 'rename', 'applyPatch' or 'revert'. */
  tool: string;
  explanation: string | undefined;
  approvedBy: string;
  revertOf?: string;
  /** A revert written in part (`ChangeRecord.partial`). */
  partial?: boolean;
  /** Where the change came from, when not the session's own surface (an agent's own tool, through its hook). */
  surface?: string;
}

/** One written file as the history keeps it. */
function fileInput(final: FinalFile, hunks: Hunk[]): RecordFileInput {
  const { plan, bytes } = final;
  const before = plan.created ? null : (plan.before?.bytes ?? null);
  // A deleted file's mode from the stat the plan was checked against, so its revert brings it back with it.
  if (plan.deleted) return { path: plan.path, kind: 'delete', before, after: null, hunks, ...modeOf(plan.stat) };
  if (plan.movedTo) return { path: plan.movedTo.path, kind: 'rename', from: plan.path, before, after: bytes, hunks };
  // A created file's mode only when the port reported the stat of the file it placed (no stat of its own here).
  return { path: plan.path, kind: plan.created ? 'create' : 'edit', before, after: bytes, hunks, ...(plan.created ? modeOf(final.written) : {}) };
}

const modeOf = (stat: FileStat | undefined): { mode?: number } => (stat ? { mode: stat.mode & 0o7777 } : {});

/** Queues the record of the written files (`written`, each with its applied hunks). Never throws, never waits. */
export function recordChange(ctx: GuardContext, s: SessionState, written: readonly { final: FinalFile; hunks: Hunk[] }[], meta: RecordMeta): void {
  const { history } = ctx;
  if (!history || written.length === 0) return;
  try {
    void history.record({
      sessionId: s.id,
      label: s.origin.label,
      surface: meta.surface ?? s.origin.surface,
      tool: meta.tool,
      ...(meta.explanation !== undefined ? { explanation: meta.explanation } : {}),
      approvedBy: meta.approvedBy,
      ...(meta.revertOf !== undefined ? { revertOf: meta.revertOf } : {}),
      ...(meta.partial ? { partial: true as const } : {}),
      files: written.map(({ final, hunks }) => fileInput(final, hunks)),
    });
  } catch (error) {
    ctx.logger.warn('[history] change not recorded', { session: s.id, tool: meta.tool, error: String((error as Error)?.message ?? error) });
  }
}
