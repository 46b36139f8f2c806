/**
 * Sessions that ended (a chat idle past its time, an MCP client that disconnected, an API session disposed, an
 * Apply Patch run), kept with what each did and saw until the user clears them, so the Sessions view and the
 * statistics still show them: what an agent did must not vanish the moment it stops. Sessions the user asked
 * to forget are not kept, nor one-call sessions (their statistics are summed up elsewhere). Bounded: the oldest
 * go first past `MAX_ENDED`. The label is taken when the session ends, before its owner forgets it.
 */
import * as vscode from 'vscode';
import type { EndedSession, Guard, LedgerEntryView, SessionStats } from '../../core/index';
import type { SessionLabels } from './sessionLabels';
import { isUsersOwnSession } from './sessionKeys';
import { Disposable } from '../util/dispose';

/** Most ended sessions kept. */
export const MAX_ENDED = 100;

export interface EndedRecord {
  id: string;
  label: string;
  /** The user's own change (Apply Patch), not an agent's. */
  own: boolean;
  startedAt: number;
  endedAt: number;
  stats: SessionStats;
  entries: LedgerEntryView[];
}

export class EndedSessions extends Disposable {
  private records: EndedRecord[] = [];
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this._onDidChange.event;

  constructor(
    guard: Guard,
    private readonly labels: SessionLabels,
    private readonly now: () => number = Date.now,
  ) {
    super();
    const unsubscribe = guard.onWillDropSession((ended) => this.keep(ended));
    this._register(new vscode.Disposable(unsubscribe));
  }

  private keep(ended: EndedSession): void {
    if (ended.reason === 'forgotten') return this.remove(ended.sessionId);
    // A session that saw nothing and did nothing leaves nothing to show.
    if (ended.entries.length === 0 && ended.stats.reads === 0 && ended.stats.mutations === 0 && Object.keys(ended.stats.refusals).length === 0) return;
    const record: EndedRecord = {
      id: ended.sessionId,
      label: this.labels.labelOf(ended.sessionId),
      own: isUsersOwnSession(ended.sessionId),
      startedAt: ended.startedAt,
      endedAt: this.now(),
      stats: ended.stats,
      entries: ended.entries,
    };
    this.records = [record, ...this.records.filter((kept) => kept.id !== record.id)].slice(0, MAX_ENDED);
    this._onDidChange.fire();
  }

  /** Newest first. */
  list(): readonly EndedRecord[] {
    return this.records;
  }

  get(id: string): EndedRecord | undefined {
    return this.records.find((record) => record.id === id);
  }

  remove(id: string): void {
    const before = this.records.length;
    this.records = this.records.filter((record) => record.id !== id);
    if (this.records.length !== before) this._onDidChange.fire();
  }

  clear(): void {
    if (this.records.length === 0) return;
    this.records = [];
    this._onDidChange.fire();
  }
}
