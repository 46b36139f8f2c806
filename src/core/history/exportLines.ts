/**
 * The change log as JSON Lines, for audits: one change record per line, exactly the record the history keeps
 * (ids, session, tool, explanation, approval, per file its kind and versions and hunks). File contents are
 * left out unless asked for; then each line also carries `contents`, mapping each version id the record
 * names to its bytes in base64 (null when it could not be given back), so a line stands on its own.
 *
 * What an export could not include (a record file it could not read, a version missing, damaged or unreadable)
 * is named in one last line, `{"omitted":[{"change"?, "version"?, "path"?, "reason"}, …]}`, so the log says
 * itself where it is incomplete; a complete export has no such line.
 */
import type { ChangeRecord } from './changeRecord';

export interface ExportOptions {
  /** Include the bytes of every version each record names (default false). */
  contents?: boolean;
  /** Only these records (as `History.list` filters). */
  sessionId?: string;
  path?: string;
}

/** Something an export left out, and why. */
export interface OmittedItem {
  /** The change it concerns (a record it could not read, or the record naming a version). */
  change?: string;
  /** A version it could not include. */
  version?: string;
  /** The file of the record that names the version. */
  path?: string;
  reason: string;
}

/** One line of the log, with its newline. */
export function exportLine(record: ChangeRecord, contents?: ReadonlyMap<string, Uint8Array | undefined>): string {
  if (!contents) return `${JSON.stringify(record)}\n`;
  const encoded: Record<string, string | null> = {};
  for (const [id, bytes] of contents) encoded[id] = bytes ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') : null;
  return `${JSON.stringify({ ...record, contents: encoded })}\n`;
}

/** The last line of an export that left something out. */
export function omittedLine(items: readonly OmittedItem[]): string {
  return `${JSON.stringify({ omitted: items })}\n`;
}
