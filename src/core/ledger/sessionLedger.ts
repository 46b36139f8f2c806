/**
 * What one session has seen: an entry per file identity with the version it saw, the lines it has seen
 * (unlock edits) and the lines that were shown to it by a read or a refusal's diff (allow dedup
 * placeholders). Sessions never share a ledger.
 *
 * Entries are keyed by identity (`dev:ino`), with a path index so a file that vanished, or a path the session
 * saw missing, can still be found. The ledger is bounded: past `maxEntries` the least recently used entry is
 * forgotten, which only ever makes the guard stricter (a forgotten file must be read again).
 */
import { EMPTY, type Ranges } from './coverage';

export interface LedgerEntry {
  /** `undefined` for a path the session saw missing. */
  identity: string | undefined;
  /** The resolved path the session last used for it. */
  target: string;
  /** The path as the caller named it. */
  path: string;
  /** Version seen; `undefined` when the session saw the path missing. */
  version: string | undefined;
  totalLines: number;
  seen: Ranges;
  shown: Ranges;
  /** Number of the read (in this session) that last showed lines, for the placeholder's wording. */
  shownByRead: number;
  /** Clock time of the last record, to tell whether a noted change came after it. */
  recordedAt: number;
}

export class SessionLedger {
  private readonly byKey = new Map<string, LedgerEntry>();
  private readonly byTarget = new Map<string, string>();

  /** `onChange` hears every recorded, forgotten or evicted entry (by the path the caller named). */
  constructor(
    private readonly maxEntries: number,
    private readonly onChange: (path: string) => void = () => {},
  ) {}

  get size(): number {
    return this.byKey.size;
  }

  /** The entry of an existing file, by identity. */
  byIdentity(identity: string): LedgerEntry | undefined {
    return this.touch(`id:${identity}`);
  }

  /** The entry last recorded at a resolved path (the file there now may be another one). */
  atTarget(target: string): LedgerEntry | undefined {
    const key = this.byTarget.get(target);
    return key ? this.touch(key) : undefined;
  }

  record(entry: LedgerEntry): void {
    const key = entry.identity ? `id:${entry.identity}` : `missing:${entry.target}`;
    const previousKey = this.byTarget.get(entry.target);
    if (previousKey && previousKey !== key && previousKey.startsWith('missing:')) this.byKey.delete(previousKey);
    this.byKey.delete(key);
    this.byKey.set(key, entry);
    this.byTarget.set(entry.target, key);
    this.onChange(entry.path);
    while (this.byKey.size > this.maxEntries) {
      const oldest = this.byKey.keys().next().value as string;
      const evicted = this.byKey.get(oldest);
      this.byKey.delete(oldest);
      if (evicted && this.byTarget.get(evicted.target) === oldest) this.byTarget.delete(evicted.target);
      if (evicted) this.onChange(evicted.path);
    }
  }

  forget(entry: LedgerEntry): void {
    const key = entry.identity ? `id:${entry.identity}` : `missing:${entry.target}`;
    if (!this.byKey.delete(key)) return;
    if (this.byTarget.get(entry.target) === key) this.byTarget.delete(entry.target);
    this.onChange(entry.path);
  }

  /**
   * Remembers the entries recorded at `targets`; calling the result puts them back (and drops entries recorded
   * there since). For work whose outcome the agent will not see, such as a refresh during review.
   */
  capture(targets: readonly string[]): () => void {
    const saved = targets.map((target) => ({ target, key: this.byTarget.get(target), entry: this.byTarget.has(target) ? this.byKey.get(this.byTarget.get(target)!) : undefined }));
    return () => {
      for (const { target, key, entry } of saved) {
        const now = this.byTarget.get(target);
        if (now && now !== key) this.byKey.delete(now);
        if (key && entry) {
          this.byKey.set(key, entry);
          this.byTarget.set(target, key);
        } else {
          this.byTarget.delete(target);
        }
        this.onChange(entry?.path ?? target);
      }
    };
  }

  clear(): void {
    const paths = [...this.byKey.values()].map((entry) => entry.path);
    this.byKey.clear();
    this.byTarget.clear();
    for (const path of paths) this.onChange(path);
  }

  entries(): IterableIterator<LedgerEntry> {
    return this.byKey.values();
  }

  private touch(key: string): LedgerEntry | undefined {
    const entry = this.byKey.get(key);
    if (entry) {
      this.byKey.delete(key);
      this.byKey.set(key, entry);
    }
    return entry;
  }
}

export function missingEntry(target: string, path: string, now: number): LedgerEntry {
  return { identity: undefined, target, path, version: undefined, totalLines: 0, seen: EMPTY, shown: EMPTY, shownByRead: 0, recordedAt: now };
}
