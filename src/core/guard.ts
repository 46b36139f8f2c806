/**
 * createGuard: composes the ports, the path policy, the shared snapshot store and the sessions into a Guard.
 * Sessions live until `dispose()` (or until the caller drops them); after disposal every call returns
 * CANCELLED without touching files.
 */
import { randomUUID } from 'node:crypto';
import * as nodePath from 'node:path';
import { DEFAULTS } from './defaults';
import type { ChangeRecord } from './history/changeRecord';
import { createHistory } from './nodeFs/createHistory';
import type { ExportOptions } from './history/exportLines';
import { HISTORY_DEFAULTS, type History, type HistoryFilter } from './history/history';
import { ChangeNotes } from './ledger/changeNotes';
import { SnapshotStore } from './ledger/snapshotStore';
import { ReadAhead } from './text/readAhead';
import { ReadScratch } from './text/readScratch';
import { KeyedLock } from './lock';
import { createNodeFileSystem } from './nodeFileSystem';
import { PathPolicy } from './path/pathPolicy';
import { type ChangeSource, type Clock, type Logger, nullLogger, systemClock } from './ports';
import { callCancelled } from './refusals/cancelled';
import { isRefusal } from './refusals/refusal';
import { revertWhat } from './history/revertQuery';
import { revertCall } from './session/callArguments';
import type { GuardContext, Limits } from './context/guardContext';
import { GuardSessionImpl } from './session/guardSession';
import type {
  ApprovalDecision,
  EndedSession,
  Guard,
  GuardLimits,
  GuardOptions,
  GuardSession,
  GuardSettings,
  LedgerChange,
  MutationResult,
  RevertOptions,
  RevertTarget,
  SessionOptions,
} from './types';
import { type Hasher, loadHasher } from './version/contentVersion';

const DEFAULT_LIMITS: Limits = {
  maxLines: DEFAULTS.maxLines,
  maxBytes: DEFAULTS.maxBytes,
  maxLineLength: DEFAULTS.maxLineLength,
  maxFileBytes: DEFAULTS.maxFileBytes,
};

function checkRoots(roots: unknown): asserts roots is string[] {
  if (!Array.isArray(roots) || roots.some((root) => typeof root !== 'string' || !nodePath.isAbsolute(root))) {
    throw new TypeError('ReadGate: roots must be a list of absolute folder paths');
  }
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new TypeError(`ReadGate: ${name} must be a positive integer, not ${JSON.stringify(value)}`);
  }
  return value;
}

/** The default approver: nothing asks, so the history records the change as let through by policy. */
const approveEverything = async (): Promise<ApprovalDecision> => ({ approved: true, approvedBy: 'policy' });

const isHistory = (value: unknown): value is History =>
  typeof value === 'object' &&
  value !== null &&
  ['record', 'flush', 'list', 'listing', 'get', 'revertContents', 'exportJsonLines'].every(
    (name) => typeof (value as Record<string, unknown>)[name] === 'function',
  );

/** The history `GuardOptions.history` (or `historyStore`) asks for; none without either. */
function historyOf(options: GuardOptions, logger: Logger, clock: Clock): History | undefined {
  if (options.historyStore !== undefined) {
    if (!isHistory(options.historyStore)) throw new TypeError('ReadGate: historyStore must be a History (see createHistory)');
    return options.historyStore;
  }
  const given = options.history;
  if (given === undefined) return undefined;
  if (typeof given !== 'object' || given === null || typeof given.dir !== 'string' || !nodePath.isAbsolute(given.dir)) {
    throw new TypeError('ReadGate: history.dir must be an absolute folder path');
  }
  for (const name of ['maxBytes', 'maxAgeDays'] as const) {
    const value = given[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)) {
      throw new TypeError(`ReadGate: history.${name} must be a positive number, not ${JSON.stringify(value)}`);
    }
  }
  const limits = {
    ...(given.maxBytes !== undefined ? { maxBytes: given.maxBytes } : {}),
    ...(given.maxAgeDays !== undefined ? { maxAgeDays: given.maxAgeDays } : {}),
  };
  return createHistory({ dir: given.dir, ...limits, logger, clock });
}

function limitsOf(given: GuardLimits | undefined, base: Limits): Limits {
  return {
    maxLines: positive('limits.maxLines', given?.maxLines, base.maxLines),
    maxBytes: positive('limits.maxBytes', given?.maxBytes, base.maxBytes),
    maxLineLength: positive('limits.maxLineLength', given?.maxLineLength, base.maxLineLength),
    maxFileBytes: positive('limits.maxFileBytes', given?.maxFileBytes, base.maxFileBytes),
  };
}

/** Listeners of one kind; one that throws is logged and the others still hear. */
class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();
  constructor(private readonly logger: () => Logger) {}
  get size(): number {
    return this.set.size;
  }
  add(listener: (value: T) => void): () => void {
    this.set.add(listener);
    return () => this.set.delete(listener);
  }
  notify(value: T): void {
    for (const listener of [...this.set]) {
      try {
        listener(value);
      } catch (error) {
        this.logger().error('[ledger] a change listener threw', { error: String(error) });
      }
    }
  }
  clear(): void {
    this.set.clear();
  }
}

function contextOf(options: GuardOptions, isDisposed: () => boolean): GuardContext {
  const logger = options.logger;
  const fs = options.fileSystem ?? createNodeFileSystem(logger ? { warn: (message) => logger.warn(`[write] ${message}`) } : {});
  const snapshotBudget = positive('snapshotBudgetBytes', options.snapshotBudgetBytes, DEFAULTS.snapshotBudgetBytes);
  let hasher: Promise<Hasher> | undefined;
  const clock = options.clock ?? systemClock;
  const history = historyOf(options, logger ?? nullLogger, clock);
  const text = { fs, clock, snapshots: new SnapshotStore(snapshotBudget), readScratch: new ReadScratch(), hasher: () => (hasher ??= loadHasher()) };
  return {
    ...text,
    logger: logger ?? nullLogger,
    limits: limitsOf(options.limits, DEFAULT_LIMITS),
    dedup: options.dedup ?? DEFAULTS.dedup,
    paths: new PathPolicy({ roots: [...options.roots], deny: [...(options.deny ?? [])] }, fs),
    readAhead: new ReadAhead(text),
    snapshotMaxFileBytes: Math.max(1, Math.floor(snapshotBudget / 8)),
    locks: new KeyedLock(),
    changes: new ChangeNotes(),
    approve: options.approve ?? approveEverything,
    maxEntriesPerSession: positive('maxEntriesPerSession', options.maxEntriesPerSession, 10_000),
    ...(history ? { history } : {}),
    isDisposed,
  };
}

class GuardImpl implements Guard {
  private readonly ctx: GuardContext;
  private readonly sessions = new Map<string, GuardSessionImpl>();
  private readonly ledgerListeners = new Listeners<LedgerChange>(() => this.ctx.logger);
  private readonly forgetListeners = new Listeners<string>(() => this.ctx.logger);
  private readonly dropListeners = new Listeners<EndedSession>(() => this.ctx.logger);
  private disposed = false;
  /** The history was made here from `GuardOptions.history` (not given as `historyStore`): closed on dispose. */
  private readonly ownsHistory: boolean;
  private roots: string[];
  private deny: string[];

  constructor(options: GuardOptions) {
    if (!options) throw new TypeError('ReadGate: createGuard needs options with roots');
    checkRoots(options.roots);
    this.roots = [...options.roots];
    this.deny = [...(options.deny ?? [])];
    this.ctx = contextOf(options, () => this.disposed);
    this.ownsHistory = options.historyStore === undefined;
  }

  session(id: string, sessionOptions: SessionOptions = {}): GuardSession {
    if (typeof id !== 'string' || id === '') throw new TypeError('ReadGate: a session id must be a non-empty string');
    let session = this.sessions.get(id);
    if (!session) {
      session = new GuardSessionImpl(
        this.ctx,
        id,
        sessionOptions,
        (path) => this.ledgerListeners.notify({ sessionId: id, path }),
        () => this.forgetListeners.notify(id),
      );
      if (!this.disposed) this.sessions.set(id, session);
    } else {
      if ('resultBudget' in sessionOptions) session.setBudget(sessionOptions.resultBudget);
      session.setOrigin(sessionOptions);
    }
    return session;
  }

  noteChange(path: string, source: ChangeSource): void {
    if (this.disposed || typeof path !== 'string' || !nodePath.isAbsolute(path)) return;
    // Noted as given (names are bytes: the on-disk spelling is the checked target) and in NFC, as before.
    const given = nodePath.normalize(path);
    const now = this.ctx.clock.now();
    this.ctx.changes.note(given, source, now);
    if (given.normalize('NFC') !== given) this.ctx.changes.note(given.normalize('NFC'), source, now);
  }

  readAhead(path: string): void {
    if (this.disposed || typeof path !== 'string') return;
    const { ctx } = this;
    const checked = ctx.paths.check(path).then(
      (result) => (result.ok ? { path: result.path, target: result.target } : undefined),
      () => undefined,
    );
    ctx.readAhead.start(path, checked);
  }

  configure(update: GuardSettings): void {
    const { ctx } = this;
    if (update.roots !== undefined || update.deny !== undefined) {
      const roots = update.roots ?? this.roots;
      checkRoots(roots);
      this.roots = [...roots];
      this.deny = [...(update.deny ?? this.deny)];
      ctx.paths = new PathPolicy({ roots: this.roots, deny: this.deny }, ctx.fs);
      ctx.readAhead.invalidate();
    }
    if (update.limits !== undefined) ctx.limits = limitsOf(update.limits, ctx.limits);
    if (update.dedup !== undefined) ctx.dedup = update.dedup;
    if (update.snapshotBudgetBytes !== undefined) {
      const budget = positive('snapshotBudgetBytes', update.snapshotBudgetBytes, DEFAULTS.snapshotBudgetBytes);
      ctx.snapshots.resize(budget);
      ctx.snapshotMaxFileBytes = Math.max(1, Math.floor(budget / 8));
    }
    ctx.logger.info('[guard] settings changed', { roots: this.roots, deny: this.deny.length, dedup: ctx.dedup, limits: ctx.limits });
  }

  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }

  hasSession(id: string): boolean {
    return this.sessions.has(id);
  }

  dropSession(id: string, reason: 'ended' | 'forgotten' = 'ended'): void {
    const session = this.sessions.get(id);
    if (!session) return;
    if (!session.standalone && this.dropListeners.size) {
      this.dropListeners.notify({ sessionId: id, startedAt: session.startedAt, reason, stats: session.stats(), entries: session.entries() });
    }
    session.clear();
    this.sessions.delete(id);
  }

  onWillDropSession(listener: (ended: EndedSession) => void): () => void {
    return this.dropListeners.add(listener);
  }

  onDidChangeLedger(listener: (change: LedgerChange) => void): () => void {
    return this.ledgerListeners.add(listener);
  }

  onDidForgetSession(listener: (sessionId: string) => void): () => void {
    return this.forgetListeners.add(listener);
  }

  async history(filter?: HistoryFilter): Promise<ChangeRecord[]> {
    const { history } = this.ctx;
    if (!history) return [];
    await history.flush();
    return history.list(this.historyFilter(filter));
  }

  /** A filter as plain data: strings only; a relative path is taken from the first root, as session calls do. */
  private historyFilter(filter: HistoryFilter | undefined): HistoryFilter {
    const copy: HistoryFilter = {};
    const sessionId: unknown = filter?.sessionId;
    const path: unknown = filter?.path;
    if (typeof sessionId === 'string') copy.sessionId = sessionId;
    if (typeof path === 'string' && path !== '') copy.path = this.historyPath(path);
    return copy;
  }

  /** A path as the history names files: a relative one is taken from the first root, as session calls do. */
  private historyPath(path: string): string {
    return nodePath.resolve(this.roots[0] ?? nodePath.sep, path);
  }

  revert(target: RevertTarget, options?: RevertOptions): Promise<MutationResult> {
    if (this.disposed) return Promise.resolve(callCancelled.disposed());
    const call = revertCall(target, options, (path) => this.historyPath(path));
    if (isRefusal(call)) {
      this.ctx.logger.info('[guard] revert refused', { code: call.code });
      return Promise.resolve(call);
    }
    const origin = { surface: call.session.surface ?? 'palette', label: call.session.label ?? `Revert of ${revertWhat(call.target)}` };
    // A session of its own for the one call, not listed among the guard's sessions: its records name it.
    return new GuardSessionImpl(this.ctx, call.session.id ?? `revert:${randomUUID()}`, origin).revert(call);
  }

  async exportHistory(write: (line: string) => void | Promise<void>, options: ExportOptions = {}): Promise<number> {
    if (typeof write !== 'function') throw new TypeError('ReadGate: exportHistory needs a function that takes each line');
    const { history } = this.ctx;
    if (!history) return 0;
    const filter = this.historyFilter(options);
    return history.exportJsonLines(write, { ...filter, ...(options?.contents === true ? { contents: true } : {}) });
  }

  dispose(): Promise<void> {
    this.disposed = true;
    this.sessions.clear();
    this.ledgerListeners.clear();
    this.forgetListeners.clear();
    this.dropListeners.clear();
    this.ctx.snapshots.clear();
    this.ctx.readAhead.drop();
    // Records of changes already applied are still being stored: wait for them (bounded), and close a history
    // this guard made so that nothing is written to its folder afterwards.
    const { history } = this.ctx;
    if (!history) return Promise.resolve();
    return this.ownsHistory ? history.close() : history.flush(HISTORY_DEFAULTS.closeWaitMs);
  }
}

export function createGuard(options: GuardOptions): Guard {
  return new GuardImpl(options);
}
