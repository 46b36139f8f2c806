/**
 * The change history: every applied change as a record, with the exact bytes of each file
 * before and after it kept as content-addressed, compressed versions, within a budget (default 200 MB and 30
 * days; the oldest records go first, and versions no record names any more go with them).
 *
 * Recording never fails or delays a write. `record()` checks its input, takes the time, queues the change and
 * returns at once; the caller need not await the promise, which never rejects. Changes queued while a batch is
 * being stored form the next batch (`recordBatch.ts`), so recording keeps up with bursts and a crash loses at
 * most the batch being stored. A failure of any kind (a full disk, a permission, a damaged folder) drops what
 * it concerns, logs a warning and resolves undefined; the next change is recorded as usual. Content waiting in
 * the queue is bounded (`maxPendingBytes`): past it a change is dropped with a warning rather than held in memory.
 *
 * Several processes may share one folder (the headless server records while the user lists with the library):
 * every listing, lookup, export and revert reads the folder's records as they are then (`loadRecords.ts`), and
 * everything that removes anything runs under the folder's lock on a fresh view (`maintenance.ts`). A record
 * file that cannot be read just now is skipped and kept; one that fails its checks is set aside, never deleted.
 *
 * Within a process, every read and change of the store runs as one task of a serial queue, so `list` and `get`
 * see every change queued before them. `flush()` waits for the queue; `close()` waits (bounded) and then stores
 * nothing more.
 *
 * Not here: what a revert writes (`planRevert.ts`), or how it is approved and written (the guard's mutation path).
 */
import { randomBytes } from 'node:crypto';
import { nullLogger, systemClock, type Clock, type Logger } from '../ports';
import { type ChangeRecord, type RecordInput, invalidInput, isVersionId } from './changeRecord';
import type { ExportOptions, OmittedItem } from './exportLines';
import { writeExport } from './exportLog';
import type { HistoryStorage } from './historyStorage';
import { refreshRecords } from './loadRecords';
import { applyBudget, sweepOrphans } from './maintenance';
import { NotRecorded, type Queued, storeBatch } from './recordBatch';
import { idOfRecordName } from './recordFile';
import { newestFirst, RecordIndex } from './recordIndex';
import type { RevertChange } from './revertTypes';
import { SerialQueue } from './serialQueue';
import { errorData, type StoreContext } from './storeContext';
import { revertContents, readVersion, type VersionProblem } from './versionReads';
import { troubleOf } from './versionStore';

const MB = 1024 * 1024;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Records per batch at most, so the batch a crash can lose stays small however far recording fell behind. */
const MAX_BATCH = 64;
/** How often a process looks for orphaned versions (and at its first call). */
const SWEEP_MS = 10 * 60 * 1000;

export const HISTORY_DEFAULTS = { maxBytes: 200 * MB, maxAgeDays: 30, maxPendingBytes: 256 * MB, closeWaitMs: 10_000 } as const;

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

/** A record file a listing could not read (kept on disk, read again next time). */
export interface UnreadableRecord {
  /** Its id, from its file name. */
  change: string;
  reason: string;
}

/** What a listing found: the records it read, newest first, and what it could not read. */
export interface HistoryListing {
  records: ChangeRecord[];
  unreadable: UnreadableRecord[];
  /** Set when the folder itself could not be read (then `records` is what was known before). */
  failed?: string;
}

const positive = (value: number | undefined): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function matches(record: ChangeRecord, filter: HistoryFilter | undefined): boolean {
  if (filter?.sessionId !== undefined && record.sessionId !== filter.sessionId) return false;
  if (filter?.path !== undefined && !record.files.some((file) => file.path === filter.path || file.from === filter.path)) return false;
  return true;
}

/** Resolves true once `promise` settled, or false after `ms`. */
function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([promise.then(() => true), late]).finally(() => clearTimeout(timer));
}

export class History {
  private readonly ctx: StoreContext;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private maxBytes: number;
  private maxAgeDays: number;
  private readonly maxPendingBytes: number;
  private readonly queue = new SerialQueue();
  private readonly index = new RecordIndex();
  private readonly waiting: Queued[] = [];
  private readonly recordedListeners = new Set<(record: ChangeRecord) => void>();
  private batchQueued = false;
  private loaded = false;
  private lastSweep = 0;
  private pendingBytes = 0;
  private sequence = 0;
  private closed = false;
  private closing: Promise<void> | undefined;

  constructor(options: HistoryOptions) {
    this.logger = options.logger ?? nullLogger;
    this.clock = options.clock ?? systemClock;
    this.maxBytes = positive(options.maxBytes) ? options.maxBytes : HISTORY_DEFAULTS.maxBytes;
    this.maxAgeDays = positive(options.maxAgeDays) ? options.maxAgeDays : HISTORY_DEFAULTS.maxAgeDays;
    this.maxPendingBytes = positive(options.maxPendingBytes) ? options.maxPendingBytes : HISTORY_DEFAULTS.maxPendingBytes;
    this.ctx = {
      storage: options.storage,
      logger: this.logger,
      index: this.index,
      limits: () => ({ maxBytes: this.maxBytes, maxAgeMs: this.maxAgeDays * DAY_MS }),
      now: () => this.clock.now(),
    };
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
      if (this.closed) {
        this.logger.warn('[history] change not recorded: the history was closed', { sessionId: input.sessionId, tool: input.tool });
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
      return new Promise((resolve) => {
        this.waiting.push({ input, id, time, size, resolve });
        this.scheduleBatch();
      });
    } catch (error) {
      this.logger.warn('[history] change not recorded', errorData(error));
      return Promise.resolve(undefined);
    }
  }

  /**
   * Calls `listener` with each change this history stored, once it is stored (a listing from then on holds it);
   * never for a change it dropped. Returns the unsubscribe function.
   */
  onDidRecord(listener: (record: ChangeRecord) => void): () => void {
    this.recordedListeners.add(listener);
    return () => this.recordedListeners.delete(listener);
  }

  /** Waits until everything queued so far is stored (or dropped); with `timeoutMs`, no longer than that. */
  async flush(timeoutMs?: number): Promise<void> {
    if (timeoutMs === undefined) return this.queue.idle();
    await settledWithin(this.queue.idle(), timeoutMs);
  }

  /**
   * Waits for the changes still being stored, at most `timeoutMs` (default 10 s), then stores nothing more:
   * changes still waiting are dropped with a warning, and later ones are not recorded. Listing still works.
   */
  close(timeoutMs: number = HISTORY_DEFAULTS.closeWaitMs): Promise<void> {
    this.closing ??= (async () => {
      const settled = await settledWithin(this.queue.idle(), timeoutMs);
      this.closed = true;
      for (const queued of this.waiting.splice(0)) this.finish(queued, { error: new NotRecorded('the history was closed') });
      if (!settled) this.logger.warn('[history] closed while a batch of records was still being stored', { waitedMs: timeoutMs });
    })();
    return this.closing;
  }

  /** Records, newest first; `path` matches a file's path or a rename's old name. */
  async list(filter?: HistoryFilter): Promise<ChangeRecord[]> {
    return (await this.listing(filter)).records;
  }

  /** Records as `list` gives them, with the record files that could not be read just now. */
  listing(filter?: HistoryFilter): Promise<HistoryListing> {
    return this.queue.run(async () => {
      let failed: string | undefined;
      try {
        await this.ensureLoaded();
      } catch (error) {
        failed = troubleOf(error);
        this.logger.warn('[history] list failed', errorData(error));
      }
      const unreadable = [...this.index.unreadable].map(([name, reason]) => ({ change: idOfRecordName(name) ?? name, reason }));
      for (const name of this.index.newer) unreadable.push({ change: idOfRecordName(name) ?? name, reason: 'written by a newer version of ReadGate' });
      return { records: this.matching(filter).sort(newestFirst), unreadable, ...(failed !== undefined ? { failed } : {}) };
    });
  }

  get(id: string): Promise<ChangeRecord | undefined> {
    return this.read('get', undefined, async () => this.index.get(id));
  }

  /** A version's exact bytes, or undefined when it is not stored (dropped by the budget, damaged, unreadable). */
  versionBytes(versionId: string): Promise<Uint8Array | undefined> {
    if (!isVersionId(versionId)) return Promise.resolve(undefined);
    return this.read('versionBytes', undefined, async () => {
      const read = await readVersion(this.ctx, versionId);
      return 'bytes' in read ? read.bytes : undefined;
    });
  }

  /**
   * What `planRevert` needs of a record: each file with its bytes before and after the change. Undefined when
   * a version it names cannot be given back (`revertContents` says which and why).
   */
  async revertInput(record: ChangeRecord): Promise<RevertChange | undefined> {
    const contents = await this.revertContents(record);
    return 'change' in contents ? contents.change : undefined;
  }

  /** A record's contents for a revert, or each version that could not be given back and why. */
  revertContents(record: ChangeRecord): Promise<{ change: RevertChange } | { problems: VersionProblem[] }> {
    const failed = (error: unknown) => ({ problems: [{ version: '', path: '', reason: troubleOf(error), transient: true }] });
    return this.queue.run(() => revertContents(this.ctx, record)).catch(failed);
  }

  /**
   * Writes the log as JSON Lines, oldest record first, one `write` call per line (awaited, so a file sink keeps
   * up); resolves to the number of records. What it could not read is left out and named in a last line
   * (`exportLines.ts`); it rejects only when `write` does.
   */
  exportJsonLines(write: (line: string) => void | Promise<void>, options: ExportOptions = {}): Promise<number> {
    return this.queue.run(async () => {
      const omitted: OmittedItem[] = [];
      try {
        await this.ensureLoaded();
      } catch (error) {
        omitted.push({ reason: `the history folder could not be read: ${troubleOf(error)}` });
      }
      const records = this.matching(options).sort(newestFirst).reverse();
      return writeExport(this.ctx, { records, omitted }, write, options);
    });
  }

  /** New limits (a setting changed); the budget is applied again at once. */
  configure(limits: { maxBytes?: number; maxAgeDays?: number }): Promise<void> {
    if (positive(limits.maxBytes)) this.maxBytes = limits.maxBytes;
    if (positive(limits.maxAgeDays)) this.maxAgeDays = limits.maxAgeDays;
    return this.read('configure', undefined, () => applyBudget(this.ctx));
  }

  private matching(filter: HistoryFilter | undefined): ChangeRecord[] {
    return this.index
      .records()
      .map((stored) => stored.record)
      .filter((record) => matches(record, filter));
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
    const random = randomBytes(6).toString('hex');
    return `${Math.max(0, Math.floor(time)).toString(36).padStart(9, '0')}-${(this.sequence++ % 36 ** 5).toString(36).padStart(5, '0')}-${random}`;
  }

  private scheduleBatch(): void {
    if (this.batchQueued) return;
    this.batchQueued = true;
    void this.queue.run(() => this.runBatch());
  }

  private async runBatch(): Promise<void> {
    this.batchQueued = false;
    const batch = this.waiting.splice(0, MAX_BATCH);
    if (this.waiting.length) this.scheduleBatch();
    if (batch.length === 0) return;
    let outcomes: Map<Queued, ChangeRecord | { error: unknown }>;
    try {
      if (this.closed) throw new NotRecorded('the history was closed');
      // The first batch loads the folder before taking the lock; later ones read it again under the lock only.
      if (!this.loaded) await this.ensureLoaded();
      outcomes = await storeBatch(this.ctx, batch);
    } catch (error) {
      outcomes = new Map(batch.map((queued) => [queued, { error }]));
    }
    for (const queued of batch) this.finish(queued, outcomes.get(queued) ?? { error: new NotRecorded('the change was lost in its batch') });
    if (Date.now() - this.lastSweep >= SWEEP_MS) await this.sweep();
  }

  private finish(queued: Queued, outcome: ChangeRecord | { error: unknown }): void {
    this.pendingBytes -= queued.size;
    const { sessionId, tool } = queued.input;
    if ('error' in outcome) {
      this.logger.warn('[history] change not recorded', { sessionId, tool, ...errorData(outcome.error) });
      queued.resolve(undefined);
      return;
    }
    this.logger.debug('[history] change recorded', { id: outcome.id, sessionId, tool, files: outcome.files.length });
    queued.resolve(outcome);
    for (const listener of [...this.recordedListeners]) {
      try {
        listener(outcome);
      } catch (error) {
        this.logger.error('[history] a record listener threw', errorData(error));
      }
    }
  }

  /** Reads the folder's records again; the first time, also looks for orphans (learning every version's size) and applies the budget. */
  private async ensureLoaded(): Promise<void> {
    await refreshRecords(this.ctx);
    if (this.loaded) return;
    this.loaded = true;
    await this.sweep();
    await applyBudget(this.ctx).catch((error) => this.logger.debug('[history] could not apply the budget now', errorData(error)));
  }

  private async sweep(): Promise<void> {
    this.lastSweep = Date.now();
    await sweepOrphans(this.ctx);
  }
}
