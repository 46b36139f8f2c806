/**
 * What a `History` knows of its folder, which other processes change too: every record it could read (with its
 * file's size), the compressed size of each version it knows to be stored, and which record files it could not
 * read on its last look (kept on disk and tried again; while there are any, the view is incomplete and nothing
 * is garbage-collected, as an unread record may name any version).
 *
 * The last change each session stored stays known after the budget dropped it, so the session's next record
 * still names it (`previous`) and a revert of the whole session can tell it lost changes.
 */
import { type ChangeRecord, versionsOf } from './changeRecord';

export interface IndexedRecord {
  record: ChangeRecord;
  /** Bytes of its file. */
  bytes: number;
}

export const newestFirst = (a: ChangeRecord, b: ChangeRecord): number => b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export class RecordIndex {
  private readonly byId = new Map<string, IndexedRecord>();
  private readonly lastOfSession = new Map<string, ChangeRecord>();
  /** Compressed sizes of versions known to be stored. */
  readonly sizes = new Map<string, number>();
  /** Record files that could not be read on the last look, by name: why. */
  unreadable = new Map<string, string>();
  /** Record files of a newer format (by name): not ours to judge, and their versions not ours to remove. */
  readonly newer = new Set<string>();
  /** Damaged record files that could not be set aside (by name): skipped from now on. */
  readonly skipped = new Set<string>();

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): ChangeRecord | undefined {
    return this.byId.get(id)?.record;
  }

  records(): IndexedRecord[] {
    return [...this.byId.values()];
  }

  /** True when every record file of the folder was read: only then may anything be removed. */
  complete(): boolean {
    return this.unreadable.size === 0 && this.newer.size === 0;
  }

  adopt(record: ChangeRecord, bytes: number): void {
    this.byId.set(record.id, { record, bytes });
    const last = this.lastOfSession.get(record.sessionId);
    if (!last || newestFirst(record, last) < 0) this.lastOfSession.set(record.sessionId, record);
  }

  forget(id: string): void {
    this.byId.delete(id);
  }

  /** The id of the session's last stored change, on record or dropped since. */
  previousOf(sessionId: string): string | undefined {
    return this.lastOfSession.get(sessionId)?.id;
  }

  /** Every version a record on record names. */
  named(): Set<string> {
    const ids = new Set<string>();
    for (const { record } of this.byId.values()) for (const id of versionsOf(record)) ids.add(id);
    return ids;
  }
}
