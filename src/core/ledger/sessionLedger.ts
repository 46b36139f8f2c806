/**
 * What one session has seen: one entry per file, keyed by its canonical path (every link resolved), with the
 * content version it saw, the lines it has seen (unlock edits) and the lines shown to it by a read or a
 * refusal's diff (allow dedup placeholders). Sessions never share a ledger.
 *
 * Files are rarely kept on one inode (git checkout, editors' safe-save, formatters and this guard's own
 * atomic writes replace them by rename), and freed inodes are handed to new files, so the path is the key
 * and the content decides. The identity (`dev:ino`) recorded with an entry only finds another name of the
 * same file (a hard link): such an entry counts only while its other name still leads to that identity and the
 * content is the version the session saw, so a reused inode never carries history.
 *
 * The ledger is bounded: past `maxEntries` the least recently used entry is forgotten, which only ever makes
 * the guard stricter (a forgotten file must be read again).
 */
import { EMPTY, type Ranges } from '../text/lineRanges';

export interface LedgerEntry {
  /** The canonical path: the key. */
  target: string;
  /** The path as the caller named it. */
  path: string;
  /** Identity of the file when this was recorded; `undefined` for a path the session saw missing. */
  identity: string | undefined;
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
  private readonly byTarget = new Map<string, LedgerEntry>();
  /** identity → the canonical path recorded with it, or the paths when several (hard links): a Set only then, as it costs memory per entry. */
  private readonly byIdentity = new Map<string, string | Set<string>>();
  /** What was seen at a path the session has since seen missing, by identity: the file may live on under another name. */
  private readonly departed = new Map<string, LedgerEntry>();

  /** `onChange` hears every recorded, forgotten or evicted entry (by the path the caller named). */
  constructor(
    private readonly maxEntries: number,
    private readonly onChange: (path: string) => void = () => {},
  ) {}

  get size(): number {
    return this.byTarget.size;
  }

  /** The entry recorded at a canonical path, whatever file is there now. */
  at(target: string): LedgerEntry | undefined {
    const entry = this.byTarget.get(target);
    if (entry) {
      this.byTarget.delete(target);
      this.byTarget.set(target, entry);
    }
    return entry;
  }

  /**
   * Entries recorded at other paths with this identity and exactly this version: candidates for another name of
   * the same file. The caller must confirm the other name still leads to this identity (a hard link), since a
   * freed inode is handed to new files.
   */
  aliasCandidates(identity: string, version: string, exceptTarget: string): LedgerEntry[] {
    const found: LedgerEntry[] = [];
    for (const target of this.targetsOf(identity)) {
      const entry = this.byTarget.get(target);
      if (target !== exceptTarget && entry?.identity === identity && entry.version === version) found.push(entry);
    }
    const gone = this.departed.get(identity);
    if (gone && gone.target !== exceptTarget && gone.version === version) found.push(gone);
    return found;
  }

  /** Whether some entry was recorded with this identity (a cheap test before loading content for `aliasOf`). */
  hasIdentity(identity: string): boolean {
    return this.byIdentity.has(identity) || this.departed.has(identity);
  }

  record(entry: LedgerEntry): void {
    const previous = this.byTarget.get(entry.target);
    if (entry.version === undefined && previous?.identity && previous.version !== undefined) {
      this.departed.delete(previous.identity);
      this.departed.set(previous.identity, previous);
      if (this.departed.size > this.maxEntries) this.departed.delete(this.departed.keys().next().value as string);
    }
    this.remove(entry.target, false);
    this.byTarget.set(entry.target, entry);
    if (entry.identity) {
      const targets = this.byIdentity.get(entry.identity);
      if (targets === undefined) this.byIdentity.set(entry.identity, entry.target);
      else if (typeof targets === 'string') {
        if (targets !== entry.target) this.byIdentity.set(entry.identity, new Set([targets, entry.target]));
      } else targets.add(entry.target);
    }
    this.onChange(entry.path);
    while (this.byTarget.size > this.maxEntries) {
      const oldest = this.byTarget.keys().next().value as string;
      this.remove(oldest, true);
    }
  }

  clear(): void {
    const paths = [...this.byTarget.values()].map((entry) => entry.path);
    this.byTarget.clear();
    this.byIdentity.clear();
    this.departed.clear();
    for (const path of paths) this.onChange(path);
  }

  entries(): IterableIterator<LedgerEntry> {
    return this.byTarget.values();
  }

  private targetsOf(identity: string): Iterable<string> {
    const targets = this.byIdentity.get(identity);
    return targets === undefined ? [] : typeof targets === 'string' ? [targets] : targets;
  }

  private remove(target: string, announce: boolean): void {
    // Evicted entries are announced (views drop them); a replaced one is announced by its record.
    const entry = this.byTarget.get(target);
    if (!entry) return;
    this.byTarget.delete(target);
    if (entry.identity) {
      const targets = this.byIdentity.get(entry.identity);
      if (targets === target) this.byIdentity.delete(entry.identity);
      else if (typeof targets === 'object') {
        targets.delete(target);
        if (targets.size === 0) this.byIdentity.delete(entry.identity);
      }
    }
    if (announce) this.onChange(entry.path);
  }
}

export function missingEntry(target: string, path: string, now: number): LedgerEntry {
  return { identity: undefined, target, path, version: undefined, totalLines: 0, seen: EMPTY, shown: EMPTY, shownByRead: 0, recordedAt: now };
}
