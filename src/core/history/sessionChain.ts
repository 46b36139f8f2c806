/**
 * Whether a session's changes on record are all its changes: each record names the change of its session
 * stored before it (`ChangeRecord.previous`), so a name that is not among the session's records is a change the
 * budget dropped (or that was set aside as damaged). Reverting such a session, or one of its files, would undo
 * only the changes still on record and leave the files neither as they were before the session nor as they are.
 * Pure.
 */
import type { ChangeRecord } from './changeRecord';

/** The changes the session's records name that are not among them (each once, in the order found). */
export function missingLinks(sessionRecords: readonly ChangeRecord[]): string[] {
  const ids = new Set(sessionRecords.map((record) => record.id));
  const missing = new Set<string>();
  for (const record of sessionRecords) if (record.previous !== undefined && !ids.has(record.previous)) missing.add(record.previous);
  return [...missing];
}
