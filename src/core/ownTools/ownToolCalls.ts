/**
 * One session's calls of its agent's own tools, from before they run to after: the reads and changes seen before
 * (`PendingCalls`, by the client's call id) and what each teaches the session's ledger, returned as updates for
 * the session to apply. The session's boundary (`guardSession.ts`) copies the arguments, orders the calls and
 * turns failures into refusals; this only decides and records.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { LedgerEntry } from '../ledger/sessionLedger';
import type { Refusal } from '../refusals/refusal';
import type { ObservedRead, OwnChangeCall, OwnChangeJudgement, OwnReadCall, RecordedOwnChange } from '../types';
import { type AllowedChange, judgeChange } from './judgeChange';
import { afterRead, beforeRead, type PendingRead } from './observeRead';
import { PendingCalls } from './pendingCalls';
import { recordOwnChange } from './recordOwnChange';

/** Each outcome with what the ledger learns from it (the session applies it). */
export interface Learned<T> {
  result: T;
  updates: readonly LedgerEntry[];
}

export class OwnToolCalls {
  private readonly reads = new PendingCalls<PendingRead>();
  /** Changes hold their plans (the files' texts) only between the two hooks: fewer of them. */
  private readonly changes = new PendingCalls<AllowedChange>({ max: 16, ttlMs: 30 * 60 * 1000 });

  constructor(
    private readonly ctx: GuardContext,
    private readonly s: SessionState,
  ) {}

  async beforeRead(call: OwnReadCall): Promise<{ ok: true }> {
    this.reads.put(call.callId, await beforeRead(this.ctx, call), this.ctx.clock.now());
    return { ok: true };
  }

  async afterRead(callId: string): Promise<Learned<ObservedRead>> {
    const pending = this.reads.take(callId, this.ctx.clock.now());
    if (!pending) return { result: { ok: true, path: '', lines: '', note: 'no read with this call id was seen before it ran' }, updates: [] };
    const { observed, updates } = await afterRead(this.ctx, this.s, pending);
    this.ctx.logger.info('[guard] own tool read', { session: this.s.id, path: observed.path, lines: observed.lines, note: observed.note });
    return { result: observed, updates };
  }

  async judge(call: OwnChangeCall): Promise<Learned<OwnChangeJudgement | Refusal>> {
    const judged = await judgeChange(this.ctx, this.s, call);
    const { outcome } = judged;
    if ('plans' in outcome) {
      this.changes.put(call.callId, outcome, this.ctx.clock.now());
      this.ctx.logger.info('[guard] own tool change allowed', { session: this.s.id, tool: call.tool, files: outcome.plans.map((plan) => plan.path) });
      return { result: { ok: true, files: outcome.plans.map((plan) => plan.path), approvedBy: outcome.approvedBy }, updates: judged.updates };
    }
    return { result: outcome, updates: judged.updates };
  }

  async afterChange(callId: string): Promise<Learned<RecordedOwnChange>> {
    const allowed = this.changes.take(callId, this.ctx.clock.now());
    if (!allowed) return { result: { ok: true, files: [] }, updates: [] };
    const { recorded, learned } = await recordOwnChange(this.ctx, this.s, allowed);
    return { result: recorded, updates: learned };
  }

  /** The session forgot what it saw (a compaction): reads on their way count for nothing. */
  forget(): void {
    this.reads.clear();
  }
}
