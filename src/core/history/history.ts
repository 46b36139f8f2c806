/**
 * The change history (SPEC section 4b): every applied change as a record, with the exact bytes of each file
 * before and after it kept as content-addressed, compressed versions, within a budget (default 200 MB and 30
 * days; the oldest records go first, and versions no record names any more go with them). Records survive a new
 * `History` on the same storage.
 *
 * Recording never fails or delays a write. `record()` checks its input, takes the time, queues the work and
 * returns at once; the caller need not await the promise, which never rejects. All I/O, hashing and compression
 * happen in the queued task, off the event loop where Node allows. A failure of any kind (a full disk, a
 * permission, a damaged folder) drops that one record, removes the versions it had stored, logs a warning and
 * resolves undefined; the next change is recorded as usual. Content waiting in the queue is bounded
 * (`maxPendingBytes`): past it a change is dropped with a warning rather than held in memory.
 *
 * Every read and change of the store runs as one task of a serial queue, so records made at once never
 * interleave, and `list`/`get` see every record queued before them. `flush()` waits for the queue (tests,
 * shutdown). One `History` per storage at a time: another process's records are seen only after a reload.
 *
 * Not here: what a revert writes (`planRevert.ts`), or how it is approved and written (the guard's mutation path).
 */
import { nullLogger, systemClock, type Clock, type Logger } from '../ports';
import { decideBudget } from './budget';
import { type ChangeRecord, type ChangedFile, type RecordInput, deepFreeze, invalidInput, isFileMode, isVersionId, parseRecord, versionsOf } from './changeRecord';
import { type ExportOptions, exportLine } from './exportLines';
import type { HistoryStorage } from './historyStorage';
import type { RevertChange } from './revertTypes';
import { SerialQueue } from './serialQueue';
import { blobName, compress, readVersion, versionIdOf, versionIdOfName } from './versionStore';

const MB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
const RECORD_FORMAT = 1;
const RECORD_SUFFIX = '.json';
const LOAD_BATCH = 32;

export const HISTORY_DEFAULTS = { maxBytes: 200 * MB, maxAgeDays: 30, maxPendingBytes: 256 * MB } as const;

export interface HistoryOptions {
  storage: HistoryStorage;
  logger?: Logger;
  clock?: Clock;
  /** Most bytes stored (compressed versions plus record files); default 200 MB. */
  maxBytes?: number;
  /** Records older than this many days are dropped; default 30. */
  maxAgeDays?: number;
  /** Content waiting to be stored beyond which a new change is not recorded; default 256 MB. */
  maxPendingBytes?: number;
}

export interface HistoryFilter {
  sessionId?: string;
  /** A file's path, matching a changed file's `path` or a rename's `from`. */
  path?: string;
}

interface StoredRecord {
  record: ChangeRecord;
  /** Bytes of its file. */
  bytes: number;
}

/** Why a change was not recorded (the log's `reason`), for failures that are not I/O errors. */
class NotRecorded extends Error {}

const newestFirst = (a: ChangeRecord, b: ChangeRecord): number => b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const positive = (value: number | undefined): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function matches(record: ChangeRecord, filter: HistoryFilter | undefined): boolean {
  if (filter?.sessionId !== undefined && record.sessionId !== filter.sessionId) return false;
  if (filter?.path !== undefined && !record.files.some((file) => file.path === filter.path || file.from === filter.path)) return false;
  return true;
}

function errorData(error: unknown): Record<string, unknown> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return { ...(code ? { code } : {}), error: error instanceof Error ? error.message : String(error) };
}

export class History {
  private readonly storage: HistoryStorage;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private maxBytes: number;
  private maxAgeDays: number;
  private readonly maxPendingBytes: number;
  private readonly queue = new SerialQueue();
  private readonly records = new Map<string, StoredRecord>();
  /**
   * Every version a record names or the storage holds: its stored (compressed) size, how many records name it,
   * and whether it is missing from the storage (removed as damaged, or gone before a reload).
   */
  private readonly versions = new Map<string, { size: number; refs: number; missing?: boolean }>();
  private loaded = false;
  private pendingBytes = 0;
  private sequence = 0;

  constructor(options: HistoryOptions) {
    this.storage = options.storage;
    this.logger = options.logger ?? nullLogger;
    this.clock = options.clock ?? systemClock;
    this.maxBytes = positive(options.maxBytes) ? options.maxBytes : HISTORY_DEFAULTS.maxBytes;
    this.maxAgeDays = positive(options.maxAgeDays) ? options.maxAgeDays : HISTORY_DEFAULTS.maxAgeDays;
    this.maxPendingBytes = positive(options.maxPendingBytes) ? options.maxPendingBytes : HISTORY_DEFAULTS.maxPendingBytes;
  }

  /**
   * Records an applied change. Returns at once; the promise (which never rejects) resolves to the stored record,
   * or to undefined when the change could not be recorded (the log says why). Safe to call without awaiting.
   */
  record(input: RecordInput): Promise<ChangeRecord | undefined> {
    try {
      const invalid = invalidInput(input);
      if (invalid) {
        this.logger.warn('[history] change not recorded: invalid input', { reason: invalid });
        return Promise.resolve(undefined);
      }
      const size = input.files.reduce((sum, file) => sum + (file.before?.byteLength ?? 0) + (file.after?.byteLength ?? 0), 0);
      if (this.pendingBytes + size > this.maxPendingBytes) {
        const data = { sessionId: input.sessionId, tool: input.tool, bytes: size, pendingBytes: this.pendingBytes };
        this.logger.warn('[history] change not recorded: too much content is still waiting to be stored', data);
        return Promise.resolve(undefined);
      }
      const time = this.clock.now();
      const id = this.nextId(time);
      this.pendingBytes += size;
      return this.queue
        .run(() => this.store(input, id, time))
        .catch((error) => {
          this.logger.warn('[history] change not recorded', { sessionId: input.sessionId, tool: input.tool, ...errorData(error) });
          return undefined;
        })
        .finally(() => {
          this.pendingBytes -= size;
        });
    } catch (error) {
      this.logger.warn('[history] change not recorded', errorData(error));
      return Promise.resolve(undefined);
    }
  }

  /** Waits until everything queued so far is stored (or dropped). */
  flush(): Promise<void> {
    return this.queue.idle();
  }

  /** Records, newest first; `path` matches a file's path or a rename's old name. */
  list(filter?: HistoryFilter): Promise<ChangeRecord[]> {
    return this.read('list', [], async () => this.matching(filter).sort(newestFirst));
  }

  get(id: string): Promise<ChangeRecord | undefined> {
    return this.read('get', undefined, async () => this.records.get(id)?.record);
  }

  /** A version's exact bytes, or undefined when it is not stored (dropped by the budget, or damaged). */
  versionBytes(versionId: string): Promise<Uint8Array | undefined> {
    if (!isVersionId(versionId)) return Promise.resolve(undefined);
    return this.read('versionBytes', undefined, () => this.readVersionChecked(versionId));
  }

  /**
   * What `planRevert` needs of a record: each file with its bytes before and after the change. Undefined when
   * a version it names is no longer stored (then the change cannot be reverted from history).
   */
  revertInput(record: ChangeRecord): Promise<RevertChange | undefined> {
    return this.read('revertInput', undefined, async () => {
      const files: RevertChange['files'][number][] = [];
      for (const file of record.files) {
        const before = file.before === null ? null : await this.readVersionChecked(file.before);
        const after = file.after === null ? null : await this.readVersionChecked(file.after);
        if (before === undefined || after === undefined) return undefined;
        files.push({ path: file.path, kind: file.kind, ...(file.from !== undefined ? { from: file.from } : {}), before, after, ...(file.mode !== undefined ? { mode: file.mode } : {}) });
      }
      return { id: record.id, files };
    });
  }

  /**
   * Writes the log as JSON Lines, oldest record first, one `write` call per line (awaited, so a file sink keeps
   * up); resolves to the number of lines. Runs as one task: the budget cannot drop a record during the export.
   */
  exportJsonLines(write: (line: string) => void | Promise<void>, options: ExportOptions = {}): Promise<number> {
    return this.queue.run(async () => {
      await this.ensureLoaded();
      const records = this.matching(options).sort(newestFirst).reverse();
      for (const record of records) {
        let contents: Map<string, Uint8Array | undefined> | undefined;
        if (options.contents) {
          contents = new Map();
          for (const id of versionsOf(record)) contents.set(id, await this.readVersionChecked(id));
        }
        await write(exportLine(record, contents));
      }
      return records.length;
    });
  }

  /** New limits (a setting changed); the budget is applied again at once. */
  configure(limits: { maxBytes?: number; maxAgeDays?: number }): Promise<void> {
    if (positive(limits.maxBytes)) this.maxBytes = limits.maxBytes;
    if (positive(limits.maxAgeDays)) this.maxAgeDays = limits.maxAgeDays;
    return this.read('configure', undefined, () => this.applyBudget());
  }

  private matching(filter: HistoryFilter | undefined): ChangeRecord[] {
    return [...this.records.values()].map((stored) => stored.record).filter((record) => matches(record, filter));
  }

  private read<T>(what: string, fallback: T, work: () => Promise<T>): Promise<T> {
    return this.queue
      .run(async () => {
        await this.ensureLoaded();
        return work();
      })
      .catch((error) => {
        this.logger.warn(`[history] ${what} failed`, errorData(error));
        return fallback;
      });
  }

  private nextId(time: number): string {
    const random = Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0');
    return `${Math.max(0, Math.floor(time)).toString(36).padStart(9, '0')}-${(this.sequence++ % 36 ** 5).toString(36).padStart(5, '0')}-${random}`;
  }

  private async store(input: RecordInput, id: string, time: number): Promise<ChangeRecord> {
    await this.ensureLoaded();
    const added = new Map<string, number>();
    try {
      const files: ChangedFile[] = [];
      for (const file of input.files) {
        const before = file.before ? await this.storeVersion(file.before, added) : null;
        const after = file.after ? await this.storeVersion(file.after, added) : null;
        files.push({ path: file.path, kind: file.kind, ...(file.from !== undefined ? { from: file.from } : {}), before, after, hunks: file.hunks ?? [], ...(isFileMode(file.mode) ? { mode: file.mode } : {}) });
      }
      const draft: ChangeRecord = {
        id,
        time,
        sessionId: input.sessionId,
        label: input.label,
        surface: input.surface,
        tool: input.tool,
        ...(input.explanation !== undefined ? { explanation: input.explanation } : {}),
        approvedBy: input.approvedBy,
        ...(input.revertOf !== undefined ? { revertOf: input.revertOf } : {}),
        files,
      };
      const text = JSON.stringify({ format: RECORD_FORMAT, record: draft });
      const data = new TextEncoder().encode(text);
      if (data.byteLength + [...added.values()].reduce((sum, size) => sum + size, 0) > this.maxBytes) {
        throw this.tooLarge();
      }
      // What a reload reads back, so the record handed out now is exactly the one `get` returns later.
      const record = deepFreeze(parseRecord((JSON.parse(text) as { record: unknown }).record));
      if (!record) throw new NotRecorded('the change does not make a valid record');
      await this.storage.write('records', id + RECORD_SUFFIX, data);
      this.adopt(record, data.byteLength, added);
      added.clear();
      await this.applyBudget();
      this.logger.debug('[history] change recorded', { id, sessionId: record.sessionId, tool: record.tool, files: record.files.length });
      return record;
    } finally {
      for (const versionId of added.keys()) await this.storage.remove('versions', blobName(versionId)).catch(() => undefined);
    }
  }

  private tooLarge(): NotRecorded {
    return new NotRecorded(`the change alone is larger than the history's budget (${this.maxBytes} bytes)`);
  }

  /** Stores the bytes unless a version with their hash is stored; notes in `added` what this record stored. */
  private async storeVersion(bytes: Uint8Array, added: Map<string, number>): Promise<string> {
    const versionId = await versionIdOf(bytes);
    const known = this.versions.get(versionId);
    if ((known && !known.missing) || added.has(versionId)) return versionId;
    const stored = await compress(bytes);
    if ([...added.values()].reduce((sum, size) => sum + size, stored.byteLength) > this.maxBytes) throw this.tooLarge();
    await this.storage.write('versions', blobName(versionId), stored);
    added.set(versionId, stored.byteLength);
    return versionId;
  }

  private adopt(record: ChangeRecord, bytes: number, added?: ReadonlyMap<string, number>): void {
    this.records.set(record.id, { record, bytes });
    for (const versionId of versionsOf(record)) {
      const known = this.versions.get(versionId) ?? { size: 0, refs: 0, missing: true };
      known.refs++;
      if (added?.has(versionId)) {
        known.size = added.get(versionId)!;
        delete known.missing;
      }
      this.versions.set(versionId, known);
    }
  }

  private forget(id: string): void {
    const stored = this.records.get(id);
    if (!stored) return;
    this.records.delete(id);
    for (const versionId of versionsOf(stored.record)) {
      const known = this.versions.get(versionId);
      if (known) known.refs--;
    }
  }

  private async readVersionChecked(versionId: string): Promise<Uint8Array | undefined> {
    const { bytes, damaged } = await readVersion(this.storage, versionId);
    if (damaged) {
      this.logger.warn('[history] a stored version is damaged and was removed', { version: versionId, reason: damaged });
      await this.storage.remove('versions', blobName(versionId)).catch(() => undefined);
      const known = this.versions.get(versionId);
      if (known) Object.assign(known, { size: 0, missing: true });
    }
    return bytes;
  }

  /** Drops what the budget says, oldest first; stops at the first removal that fails (kept for the next try). */
  private async applyBudget(): Promise<void> {
    const oldestFirst = [...this.records.values()].sort((a, b) => newestFirst(b.record, a.record));
    const sizes = new Map([...this.versions].map(([versionId, known]) => [versionId, known.size]));
    const budgetRecords = oldestFirst.map(({ record, bytes }) => ({ id: record.id, time: record.time, bytes, versions: versionsOf(record) }));
    const decision = decideBudget(budgetRecords, sizes, this.clock.now(), { maxBytes: this.maxBytes, maxAgeMs: this.maxAgeDays * DAY_MS });
    try {
      for (const id of decision.drop) {
        await this.storage.remove('records', id + RECORD_SUFFIX);
        this.forget(id);
      }
      const orphans = new Set(decision.orphans);
      for (const [versionId, known] of this.versions) if (known.refs <= 0) orphans.add(versionId);
      for (const versionId of orphans) {
        await this.storage.remove('versions', blobName(versionId));
        this.versions.delete(versionId);
      }
    } catch (error) {
      this.logger.warn('[history] could not remove old history; it is kept for now', errorData(error));
    }
    if (decision.drop.length) {
      this.logger.info('[history] dropped old records', { count: decision.drop.length, maxBytes: this.maxBytes, maxAgeDays: this.maxAgeDays });
    }
  }

  private async ensureLoaded(): Promise<void> {
    if (this.loaded) return;
    const [recordFiles, versionFiles] = await Promise.all([this.storage.list('records'), this.storage.list('versions')]);
    this.records.clear();
    this.versions.clear();
    for (const file of versionFiles) {
      const versionId = versionIdOfName(file.name);
      if (versionId) this.versions.set(versionId, { size: file.size, refs: 0 });
    }
    for (let i = 0; i < recordFiles.length; i += LOAD_BATCH) {
      await Promise.all(recordFiles.slice(i, i + LOAD_BATCH).map((file) => this.loadRecord(file.name, file.size)));
    }
    this.loaded = true;
    await this.applyBudget();
    this.logger.debug('[history] loaded', { records: this.records.size, versions: this.versions.size });
  }

  private async loadRecord(name: string, size: number): Promise<void> {
    const id = name.endsWith(RECORD_SUFFIX) ? name.slice(0, -RECORD_SUFFIX.length) : undefined;
    let record: ChangeRecord | undefined;
    try {
      const data = await this.storage.read('records', name);
      if (!data) return;
      const stored = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(data)) as { format?: unknown; record?: unknown };
      record = stored?.format === RECORD_FORMAT ? parseRecord(stored.record) : undefined;
    } catch {
      record = undefined;
    }
    if (!record || record.id !== id) {
      this.logger.warn('[history] removed a record file it cannot read', { name });
      await this.storage.remove('records', name).catch(() => undefined);
      return;
    }
    this.adopt(deepFreeze(record), size);
  }
}
