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
import type { ObservedRead, OwnChangeCall, OwnChangeJudgement, OwnReadCall, RecordedOwnChange, ShownOutput, ShownRange } from '../types';
import { intersect, rangesOf } from '../text/lineRanges';
import { type AllowedChange, judgeChange } from './judgeChange';
import { afterRead, beforeRead, type PendingRead } from './observeRead';
import { PendingCalls } from './pendingCalls';
import { landing, recordOwnChange } from './recordOwnChange';

/** Each outcome with what the ledger learns from it (the session applies it). */
export interface Learned<T> {
  result: T;
  updates: readonly LedgerEntry[];
}

/**
 * How often a change not written yet is looked for, and how long one is waited for before the session's next call;
 * and how long a change waits for a read that started just before it to be seen to its end.
 */
const LANDING = { pollMs: 20, lateMs: 60_000, readWaitMs: 2000 };

/** A read's lines narrowed to those the client reports its tool returned. */
function narrowed(pending: PendingRead, reported: ShownRange): PendingRead {
  if (pending.kind !== 'read') return pending;
  const from = Math.max(1, Math.floor(reported.startLine));
  const count = Math.max(0, Math.floor(reported.lineCount));
  return { ...pending, shown: count ? intersect(pending.shown, rangesOf(from, from + count - 1)) : [] };
}

export class OwnToolCalls {
  private readonly reads = new PendingCalls<PendingRead>();
  /** Changes hold their plans (the files' texts) only between the two hooks: fewer of them. */
  private readonly changes = new PendingCalls<AllowedChange>({ max: 16, ttlMs: 30 * 60 * 1000 });
  /** Changes whose tool had not written yet after it ran: recorded once they land, before the session's next call. */
  private late: { allowed: AllowedChange; until: number }[] = [];

  constructor(
    private readonly ctx: GuardContext,
    private readonly s: SessionState,
  ) {}

  async beforeRead(call: OwnReadCall): Promise<Learned<{ ok: true }>> {
    const updates = await this.settleLate();
    this.reads.put(call.callId, await beforeRead(this.ctx, call), this.ctx.clock.now());
    return { result: { ok: true }, updates };
  }

  async afterRead(callId: string, reported?: ShownRange | ShownOutput): Promise<Learned<ObservedRead>> {
    const pending = this.reads.take(callId, this.ctx.clock.now());
    if (!pending) return { result: { ok: true, path: '', lines: '', note: 'no read with this call id was seen before it ran' }, updates: [] };
    const output = reported && 'output' in reported ? reported : undefined;
    const range = reported && 'startLine' in reported ? reported : undefined;
    const { observed, updates } = await afterRead(this.ctx, this.s, range ? narrowed(pending, range) : pending, output);
    this.ctx.logger.info('[guard] own tool read', { session: this.s.id, path: observed.path, lines: observed.lines, note: observed.note });
    return { result: observed, updates };
  }

  async judge(call: OwnChangeCall): Promise<Learned<OwnChangeJudgement | Refusal>> {
    // A client may run a call's after-hook only after the next call's before-hook (Copilot does not wait for it):
    // a read that started a moment ago is seen to its end first, and the session's earlier changes that have
    // landed are recorded as its own, not taken for changes it missed.
    await this.readsSettled();
    this.s.learn(await this.settleLate());
    const judged = await judgeChange(this.ctx, this.s, call);
    const { outcome } = judged;
    if ('plans' in outcome) {
      this.changes.put(call.callId, outcome, this.ctx.clock.now());
      this.ctx.logger.info('[guard] own tool change allowed', { session: this.s.id, tool: call.tool, files: outcome.plans.map((plan) => plan.path) });
      return { result: { ok: true, files: outcome.plans.map((plan) => plan.path), approvedBy: outcome.approvedBy }, updates: judged.updates };
    }
    return { result: outcome, updates: judged.updates };
  }

  /**
   * `settleMs`: how long to wait for the tool's write to land (a client may apply it a moment after the tool
   * returned). One that has not landed by then is recorded when it lands, before the session's next call.
   */
  async afterChange(callId: string, settleMs = 0): Promise<Learned<RecordedOwnChange>> {
    const allowed = this.changes.take(callId, this.ctx.clock.now());
    if (!allowed) return { result: { ok: true, files: [] }, updates: [] };
    const deadline = this.ctx.clock.now() + settleMs;
    // Recorded as saved where the client saves what its tool wrote (an unsaved buffer's version is its own).
    for (let state = await landing(this.ctx, allowed); state !== 'saved'; state = await landing(this.ctx, allowed)) {
      if (this.ctx.clock.now() >= deadline) {
        if (state === 'unsaved') break;
        this.late.push({ allowed, until: this.ctx.clock.now() + LANDING.lateMs });
        return { result: { ok: true, files: allowed.plans.map((plan) => ({ path: plan.path, outcome: 'unchanged' as const })) }, updates: [] };
      }
      await new Promise((resolve) => setTimeout(resolve, LANDING.pollMs));
    }
    const { recorded, learned } = await recordOwnChange(this.ctx, this.s, allowed);
    return { result: recorded, updates: learned };
  }

  /**
   * Records the session's changes that have landed, whether their after-hook came (late ones) or not yet (it then
   * finds nothing to do), and drops late ones past their time; what the ledger learns.
   */
  private async settleLate(): Promise<LedgerEntry[]> {
    const learned: LedgerEntry[] = [];
    for (const [callId, allowed] of this.changes.entries()) {
      if (!((await landing(this.ctx, allowed)) !== 'not yet')) continue;
      this.changes.delete(callId);
      learned.push(...(await recordOwnChange(this.ctx, this.s, allowed)).learned);
    }
    const now = this.ctx.clock.now();
    const waiting = this.late;
    this.late = [];
    for (const entry of waiting) {
      if ((await landing(this.ctx, entry.allowed)) !== 'not yet') learned.push(...(await recordOwnChange(this.ctx, this.s, entry.allowed)).learned);
      else if (entry.until > now) this.late.push(entry);
    }
    return learned;
  }

  /** Waits (bounded) until no read that started in the last moments is still waiting for its after-hook. */
  private async readsSettled(): Promise<void> {
    const deadline = this.ctx.clock.now() + LANDING.readWaitMs;
    for (;;) {
      const newest = this.reads.newestAt();
      const now = this.ctx.clock.now();
      if (newest === undefined || now - newest >= LANDING.readWaitMs || now >= deadline) return;
      await new Promise((resolve) => setTimeout(resolve, LANDING.pollMs));
    }
  }

  /** The session forgot what it saw (a compaction): reads on their way count for nothing. */
  forget(): void {
    this.reads.clear();
  }
}
