/**
 * The change log as JSON Lines, for audits: one change record per line, exactly the record the history keeps
 * (ids, session, tool, explanation, approval, per file its kind and versions and hunks). File contents are
 * left out unless asked for; then each line also carries `contents`, mapping each version id the record
 * names to its bytes in base64 (null when the version is no longer stored), so a line stands on its own.
 */
import type { ChangeRecord } from './changeRecord';

export interface ExportOptions {
  /** Include the bytes of every version each record names (default false). */
  contents?: boolean;
  /** Only these records (as `History.list` filters). */
  sessionId?: string;
  path?: string;
}

/** One line of the log, with its newline. */
export function exportLine(record: ChangeRecord, contents?: ReadonlyMap<string, Uint8Array | undefined>): string {
  if (!contents) return `${JSON.stringify(record)}\n`;
  const encoded: Record<string, string | null> = {};
  for (const [id, bytes] of contents) encoded[id] = bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') : null;
  return `${JSON.stringify({ ...record, contents: encoded })}\n`;
}
