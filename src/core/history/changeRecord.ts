/**
 * The change record: what the history keeps of every applied change, from
 * every surface. A record names the versions of each file before and after the change (ids of content kept in
 * the version store, never the content itself), so a record stays small and a version written by several
 * changes is kept once.
 *
 * Identity: `id` is unique per history folder and sorts by creation; `time` is the recording clock's (ms since
 * the epoch). A version id is the SHA-256 of the bytes (64 lowercase hex digits): a content address, so the
 * same bytes always have the same id and no crafted content can pass for another. It is not the guard's
 * version tag (xxh64), which is fast but not collision-resistant.
 *
 * Not here: storing (`history.ts`), or deciding what a revert writes (`planRevert.ts`).
 */

export type ChangeKind = 'create' | 'edit' | 'delete' | 'rename';

export const CHANGE_KINDS: readonly ChangeKind[] = ['create', 'edit', 'delete', 'rename'];

/**
 * Where a change came from (`ChangeRecord.surface`). A string, so a new surface needs no new format:
 * - `chat`: the `@readgate` chat participant;
 * - `tool`: a language model tool call from another chat agent (Copilot's agent mode, `lm.invokeTool`);
 * - `mcp`: an MCP client (its name and version are the record's `label`, e.g. "Claude Code 2.0.14");
 * - `api`: the extension API or the headless library (the caller's session label is the `label`);
 * - `palette`: the user's own command (Apply Patch…, a revert the user asked for).
 */
export const KNOWN_SURFACES: readonly string[] = ['chat', 'tool', 'mcp', 'api', 'palette'];

/**
 * Who let the change through (`ChangeRecord.approvedBy`). A string too:
 * - `user`: approved in the review panel;
 * - `grant`: a "don't ask again" grant of the session;
 * - `policy`: the approval mode did not ask (`never`, or `sensitive` for a file that is not);
 * - `approver`: a headless library caller's `approve` callback.
 */
export const KNOWN_APPROVERS: readonly string[] = ['user', 'grant', 'policy', 'approver'];

export interface ChangedFile {
  /** The file's path after the change (for a rename, the new name). */
  path: string;
  kind: ChangeKind;
  /** A rename's old name. */
  from?: string;
  /** Version before the change; null for a create. */
  before: string | null;
  /** Version after the change; null for a delete. */
  after: string | null;
  /** The hunks as the recording surface gave them (for counts and display; a revert never relies on them). */
  hunks: unknown[];
  /**
   * The file's permission bits (`mode & 0o7777`): a deleted file's, so its revert recreates it with them (a
   * created file's when the port reported them). Absent in older records: a revert then uses the default mode.
   */
  mode?: number;
}

export interface ChangeRecord {
  id: string;
  time: number;
  sessionId: string;
  label: string;
  surface: string;
  tool: string;
  explanation?: string;
  approvedBy: string;
  /** The record this change reverted, when it is a revert. */
  revertOf?: string;
  /**
   * A revert written in part: lines it would restore were left as they were (the merged parts of a revert with
   * conflicts were taken, or hunks were rejected in review). Absent for a revert written whole and for any other change.
   */
  partial?: true;
  /**
   * The change of the same session stored before this one; absent for a session's first (and in records of the
   * first format). A session whose oldest change on record names one that is not has lost changes (the budget
   * dropped them), so it can no longer be reverted as a whole.
   */
  previous?: string;
  files: ChangedFile[];
}

/** One file of a change to record: its bytes, which the history stores as versions. */
export interface RecordFileInput {
  path: string;
  kind: ChangeKind;
  from?: string;
  /**
   * The file's bytes before the change (null for a create) and after it (null for a delete). The history keeps
   * a reference until the record is stored: do not modify the arrays after passing them.
   */
  before: Uint8Array | null;
  after: Uint8Array | null;
  hunks?: unknown[];
  /** Permission bits (`ChangedFile.mode`); not recorded unless an integer 0..0o7777. */
  mode?: number;
}

/** A change to record, as the commit step knows it right after a successful write: a record without its id,
 * time and place in its session, with the files' bytes instead of versions. */
export interface RecordInput extends Omit<ChangeRecord, 'id' | 'time' | 'previous' | 'files'> {
  files: RecordFileInput[];
}

const VERSION_ID = /^[0-9a-f]{64}$/;

export function isVersionId(value: unknown): value is string {
  return typeof value === 'string' && VERSION_ID.test(value);
}

const isText = (value: unknown): value is string => typeof value === 'string';
/** Permission bits as a record keeps them: an integer from 0 to 0o7777. */
export const isFileMode = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0o7777;
const isBytes = (value: unknown): value is Uint8Array => value instanceof Uint8Array;

/** Which versions a kind has: a create has no before, a delete no after, the others both. */
function versionsFit(kind: ChangeKind, before: boolean, after: boolean): boolean {
  if (kind === 'create') return !before && after;
  if (kind === 'delete') return before && !after;
  return before && after;
}

/** Why an input cannot be recorded, or undefined when it can. */
export function invalidInput(input: RecordInput): string | undefined {
  if (!input || typeof input !== 'object') return 'not an object';
  for (const field of ['sessionId', 'label', 'surface', 'tool', 'approvedBy'] as const) {
    if (!isText(input[field])) return `${field} is not a string`;
  }
  if (input.explanation !== undefined && !isText(input.explanation)) return 'explanation is not a string';
  if (input.revertOf !== undefined && !isText(input.revertOf)) return 'revertOf is not a string';
  if (input.partial !== undefined && (input.partial !== true || input.revertOf === undefined)) return 'partial is only true, and only for a revert';
  if (!Array.isArray(input.files) || input.files.length === 0) return 'no files';
  for (const [i, file] of input.files.entries()) {
    if (!file || !isText(file.path) || file.path === '') return `file ${i} has no path`;
    if (!CHANGE_KINDS.includes(file.kind)) return `file ${i} has an unknown kind`;
    if (file.before !== null && !isBytes(file.before)) return `file ${i}: before is neither bytes nor null`;
    if (file.after !== null && !isBytes(file.after)) return `file ${i}: after is neither bytes nor null`;
    if (!versionsFit(file.kind, file.before !== null, file.after !== null)) {
      return `file ${i}: a ${file.kind} with before ${file.before ? 'bytes' : 'null'} and after ${file.after ? 'bytes' : 'null'}`;
    }
    if (file.kind === 'rename' ? !isText(file.from) || file.from === '' : file.from !== undefined) {
      return `file ${i}: from is ${file.kind === 'rename' ? 'missing' : 'only for a rename'}`;
    }
    if (file.hunks !== undefined && !Array.isArray(file.hunks)) return `file ${i}: hunks is not an array`;
  }
  return undefined;
}

/** A stored record read back, checked field by field; undefined when it is not one. */
export function parseRecord(value: unknown): ChangeRecord | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const record = value as ChangeRecord;
  const texts = [record.id, record.sessionId, record.label, record.surface, record.tool, record.approvedBy];
  if (!texts.every(isText) || typeof record.time !== 'number' || !Number.isFinite(record.time)) return undefined;
  if ([record.explanation, record.revertOf, record.previous].some((value) => value !== undefined && !isText(value))) return undefined;
  if (record.partial !== undefined && record.partial !== true) return undefined;
  if (!Array.isArray(record.files) || record.files.length === 0) return undefined;
  for (const file of record.files) {
    if (!file || !isText(file.path) || !CHANGE_KINDS.includes(file.kind) || !Array.isArray(file.hunks)) return undefined;
    if ((file.before !== null && !isVersionId(file.before)) || (file.after !== null && !isVersionId(file.after))) return undefined;
    if (!versionsFit(file.kind, file.before !== null, file.after !== null)) return undefined;
    if (file.kind === 'rename' ? !isText(file.from) : file.from !== undefined) return undefined;
  }
  // A mode that is not permission bits is dropped, not the record: the file then comes back with the default mode.
  if (record.files.every((file) => file.mode === undefined || isFileMode(file.mode))) return record;
  return { ...record, files: record.files.map(({ mode, ...file }) => (isFileMode(mode) ? { ...file, mode } : file)) };
}

/** The version ids a record refers to (each once). */
export function versionsOf(record: ChangeRecord): string[] {
  const ids = new Set<string>();
  for (const file of record.files) {
    if (file.before) ids.add(file.before);
    if (file.after) ids.add(file.after);
  }
  return [...ids];
}

/** Freezes a record and everything in it, so a record handed out cannot change the history's copy. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as object)) deepFreeze(inner);
  }
  return value;
}
