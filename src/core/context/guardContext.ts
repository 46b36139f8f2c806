/**
 * What every session of one guard shares: the ports, the settings, the path policy, the snapshot store, the
 * per-file locks and the change notes. Built once by `createGuard`.
 */
import type { History } from '../history/history';
import type { ChangeNotes } from '../ledger/changeNotes';
import type { SnapshotStore } from '../ledger/snapshotStore';
import type { ReadAhead } from '../text/readAhead';
import type { ReadScratch } from '../text/readScratch';
import type { KeyedLock } from '../lock';
import type { PathPolicy } from '../path/pathPolicy';
import type { Clock, FileSystem, Logger } from '../ports';
import type { ReadLimits } from '../text/resultBudget';
import type { ApprovalDecision, ApprovalRequest } from '../types';
import type { Hasher } from '../version/contentVersion';

export interface Limits extends ReadLimits {
  maxFileBytes: number;
}

export interface GuardContext {
  fs: FileSystem;
  logger: Logger;
  clock: Clock;
  limits: Limits;
  dedup: boolean;
  paths: PathPolicy;
  snapshots: SnapshotStore;
  /** The buffer whole-file reads are lent, one at a time. */
  readScratch: ReadScratch;
  /** A file read just before the read it is for (`Guard.readAhead`); every write goes through it. */
  readAhead: ReadAhead;
  /** Largest file whose text is kept as a snapshot. */
  snapshotMaxFileBytes: number;
  locks: KeyedLock;
  changes: ChangeNotes;
  approve(request: ApprovalRequest): Promise<ApprovalDecision>;
  hasher(): Promise<Hasher>;
  maxEntriesPerSession: number;
  /** Where applied changes are recorded (`GuardOptions.history`); none when the guard keeps no history. */
  history?: History;
  isDisposed(): boolean;
}

export { IN_MEMORY_MAX_BYTES } from '../text/loadText';
