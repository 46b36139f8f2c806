/**
 * createGuard: composes the ports, the path policy, the shared snapshot store and the sessions into a Guard.
 * Sessions live until `dispose()` (or until the caller drops them); after disposal every call returns
 * CANCELLED without touching files.
 */
import * as nodePath from 'node:path';
import { DEFAULTS } from './defaults';
import { ChangeNotes } from './ledger/changeNotes';
import { SnapshotStore } from './ledger/snapshotStore';
import { KeyedLock } from './lock';
import { createNodeFileSystem } from './nodeFileSystem';
import { PathPolicy } from './path/pathPolicy';
import { type ChangeSource, nullLogger, systemClock } from './ports';
import type { GuardContext, Limits } from './context/guardContext';
import { GuardSessionImpl } from './session/guardSession';
import type { ApprovalDecision, EndedSession, Guard, GuardLimits, GuardOptions, GuardSession, GuardSettings, LedgerChange, SessionOptions } from './types';
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
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new TypeError(`ReadGate: ${name} must be a positive integer, not ${JSON.stringify(value)}`);
  return value;
}

const approveEverything = async (): Promise<ApprovalDecision> => ({ approved: true });

export function createGuard(options: GuardOptions): Guard {
  if (!options) throw new TypeError('ReadGate: createGuard needs options with roots');
  checkRoots(options.roots);
  const logger = options.logger;
  const fs = options.fileSystem ?? createNodeFileSystem(logger ? { warn: (message) => logger.warn(`[write] ${message}`) } : {});
  const limitsOf = (given: GuardLimits | undefined, base: Limits): Limits => ({
    maxLines: positive('limits.maxLines', given?.maxLines, base.maxLines),
    maxBytes: positive('limits.maxBytes', given?.maxBytes, base.maxBytes),
    maxLineLength: positive('limits.maxLineLength', given?.maxLineLength, base.maxLineLength),
    maxFileBytes: positive('limits.maxFileBytes', given?.maxFileBytes, base.maxFileBytes),
  });
  const limits = limitsOf(options.limits, DEFAULT_LIMITS);
  const snapshotBudget = positive('snapshotBudgetBytes', options.snapshotBudgetBytes, DEFAULTS.snapshotBudgetBytes);
  const sessions = new Map<string, GuardSessionImpl>();
  const listeners = new Set<(change: LedgerChange) => void>();
  const forgetListeners = new Set<(sessionId: string) => void>();
  const dropListeners = new Set<(ended: EndedSession) => void>();
  const notify = <T>(set: Set<(value: T) => void>, value: T): void => {
    for (const listener of [...set]) {
      try {
        listener(value);
      } catch (error) {
        ctx.logger.error('[ledger] a change listener threw', { error: String(error) });
      }
    }
  };
  const emit = (change: LedgerChange): void => notify(listeners, change);
  let disposed = false;
  let hasher: Promise<Hasher> | undefined;
  const clock = options.clock ?? systemClock;
  const changes = new ChangeNotes();
  let currentRoots = [...options.roots];
  let currentDeny = [...(options.deny ?? [])];
  const ctx: GuardContext = {
    fs,
    logger: options.logger ?? nullLogger,
    clock,
    limits,
    dedup: options.dedup ?? DEFAULTS.dedup,
    paths: new PathPolicy({ roots: currentRoots, deny: currentDeny }, fs),
    snapshots: new SnapshotStore(snapshotBudget),
    snapshotMaxFileBytes: Math.max(1, Math.floor(snapshotBudget / 8)),
    locks: new KeyedLock(),
    changes,
    approve: options.approve ?? approveEverything,
    hasher: () => (hasher ??= loadHasher()),
    maxEntriesPerSession: positive('maxEntriesPerSession', options.maxEntriesPerSession, 10_000),
    isDisposed: () => disposed,
  };

  return {
    session(id: string, sessionOptions: SessionOptions = {}): GuardSession {
      if (typeof id !== 'string' || id === '') throw new TypeError('ReadGate: a session id must be a non-empty string');
      let session = sessions.get(id);
      if (!session) {
        session = new GuardSessionImpl(ctx, id, sessionOptions, (path) => emit({ sessionId: id, path }), () => notify(forgetListeners, id));
        if (!disposed) sessions.set(id, session);
      } else if ('resultBudget' in sessionOptions) {
        session.setBudget(sessionOptions.resultBudget);
      }
      return session;
    },
    noteChange(path: string, source: ChangeSource): void {
      if (disposed || typeof path !== 'string' || !nodePath.isAbsolute(path)) return;
      // Noted as given (names are bytes: the on-disk spelling is the checked target) and in NFC, as before.
      const given = nodePath.normalize(path);
      changes.note(given, source, clock.now());
      if (given.normalize('NFC') !== given) changes.note(given.normalize('NFC'), source, clock.now());
    },
    configure(update: GuardSettings): void {
      if (update.roots !== undefined || update.deny !== undefined) {
        const roots = update.roots ?? currentRoots;
        checkRoots(roots);
        currentRoots = [...roots];
        currentDeny = [...(update.deny ?? currentDeny)];
        ctx.paths = new PathPolicy({ roots: currentRoots, deny: currentDeny }, fs);
      }
      if (update.limits !== undefined) ctx.limits = limitsOf(update.limits, ctx.limits);
      if (update.dedup !== undefined) ctx.dedup = update.dedup;
      if (update.snapshotBudgetBytes !== undefined) {
        const budget = positive('snapshotBudgetBytes', update.snapshotBudgetBytes, DEFAULTS.snapshotBudgetBytes);
        ctx.snapshots.resize(budget);
        ctx.snapshotMaxFileBytes = Math.max(1, Math.floor(budget / 8));
      }
      ctx.logger.info('[guard] settings changed', { roots: currentRoots, deny: currentDeny.length, dedup: ctx.dedup, limits: ctx.limits });
    },
    sessionIds(): string[] {
      return [...sessions.keys()];
    },
    hasSession(id: string): boolean {
      return sessions.has(id);
    },
    dropSession(id: string, reason: 'ended' | 'forgotten' = 'ended'): void {
      const session = sessions.get(id);
      if (!session) return;
      if (!session.standalone && dropListeners.size) notify(dropListeners, { sessionId: id, reason, stats: session.stats(), entries: session.entries() });
      session.clear();
      sessions.delete(id);
    },
    onWillDropSession(listener: (ended: EndedSession) => void): () => void {
      dropListeners.add(listener);
      return () => dropListeners.delete(listener);
    },
    onDidChangeLedger(listener: (change: LedgerChange) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onDidForgetSession(listener: (sessionId: string) => void): () => void {
      forgetListeners.add(listener);
      return () => forgetListeners.delete(listener);
    },
    dispose(): void {
      disposed = true;
      sessions.clear();
      listeners.clear();
      forgetListeners.clear();
      dropListeners.clear();
      ctx.snapshots.clear();
    },
  };
}
