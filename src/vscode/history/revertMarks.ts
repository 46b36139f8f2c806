/**
 * Whether a change on record is reverted now (wholly or in part) and whether a revert was undone, so that the
 * Agent Changes view's "reverted" never outlives the revert. A record says a revert was written; it cannot see
 * what happened next: the revert taken back with undo in a buffer that was never saved, that buffer closed
 * without saving (the revert never reached the disk), or the revert reverted in turn. So the files are asked.
 *
 * A revert is undone when every file it wrote holds again exactly what it held before the revert, or every file
 * of the change it reverted holds exactly what that change left (the change is back as it was). A revert is in
 * effect when it is not undone and no revert of it is in effect. A change is reverted when a revert of it is in
 * effect; "partly" when that revert kept lines as they were (`ChangeRecord.partial`).
 *
 * Pure: the records and what each path holds now (its version id, the SHA-256 of its bytes as the guard reads
 * them: an unsaved buffer's text counts) in, the marks out. A path whose content could not be told counts as
 * holding neither side, so without the files a revert stays in effect unless reverted itself.
 */
import type { ChangedFile, ChangeRecord } from '../../core/index';

/** What a path holds now: its version id, null when no file is there, undefined when it could not be told. */
export type VersionNow = (path: string) => string | null | undefined;

/** A change reverted now: by which revert (the newest in effect), and whether that revert kept lines. */
export interface RevertMark {
  by: ChangeRecord;
  partly: boolean;
}

export interface RevertMarks {
  /** A change's id → its revert in effect. */
  reverted: Map<string, RevertMark>;
  /** Reverts that are undone (and not reverted by a revert in effect, which says "reverted" instead). */
  undone: Set<string>;
}

/** The paths the marks depend on: every file of every revert and of the change it reverted (moves by both names). */
export function pathsToCheck(records: readonly ChangeRecord[]): string[] {
  const byId = new Map(records.map((record) => [record.id, record]));
  const paths = new Set<string>();
  for (const record of records) {
    if (record.revertOf === undefined) continue;
    for (const file of [...record.files, ...(byId.get(record.revertOf)?.files ?? [])]) {
      paths.add(file.path);
      if (file.from !== undefined) paths.add(file.from);
    }
  }
  return [...paths];
}

/** Whether a file holds exactly one side of a change now: its content before it, or after it. */
function holds(file: ChangedFile, side: 'before' | 'after', now: VersionNow): boolean {
  const at = side === 'after' || file.from === undefined ? file.path : file.from;
  const elsewhere = file.from === undefined ? undefined : side === 'after' ? file.from : file.path;
  // A move leaves its other name free.
  if (elsewhere !== undefined && now(elsewhere) !== null) return false;
  const expected = file[side];
  const actual = now(at);
  return actual !== undefined && actual === expected;
}

function isUndone(revert: ChangeRecord, reverted: ChangeRecord | undefined, now: VersionNow): boolean {
  if (revert.files.every((file) => holds(file, 'before', now))) return true;
  return reverted !== undefined && reverted.files.every((file) => holds(file, 'after', now));
}

export function revertMarks(records: readonly ChangeRecord[], now: VersionNow): RevertMarks {
  const byId = new Map(records.map((record) => [record.id, record]));
  const revertsOf = new Map<string, ChangeRecord[]>();
  for (const record of [...records].sort((a, b) => b.time - a.time || (a.id < b.id ? 1 : -1))) {
    if (record.revertOf !== undefined) revertsOf.set(record.revertOf, [...(revertsOf.get(record.revertOf) ?? []), record]);
  }
  const inEffect = new Map<string, boolean>();
  const effective = (revert: ChangeRecord): boolean => {
    const known = inEffect.get(revert.id);
    if (known !== undefined) return known;
    // Records only revert older ones; a loop in damaged records ends here as "not in effect".
    inEffect.set(revert.id, false);
    const answer = !isUndone(revert, byId.get(revert.revertOf ?? ''), now) && !(revertsOf.get(revert.id) ?? []).some(effective);
    inEffect.set(revert.id, answer);
    return answer;
  };
  const marks: RevertMarks = { reverted: new Map(), undone: new Set() };
  for (const record of records) {
    const by = (revertsOf.get(record.id) ?? []).find(effective);
    if (by) marks.reverted.set(record.id, { by, partly: by.partial === true });
    else if (record.revertOf !== undefined && !effective(record)) marks.undone.add(record.id);
  }
  return marks;
}
