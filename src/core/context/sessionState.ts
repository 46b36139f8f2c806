/** The mutable state of one session: its ledger, its counters, its last refusal and its result budget. */
import { type LedgerEntry, SessionLedger } from '../ledger/sessionLedger';
import { budgetChars, limitsWithin } from '../text/resultBudget';
import type { ErrorCode } from '../refusals/refusal';
import type { ResultBudget, SessionStats } from '../types';
import type { Limits } from './guardContext';

export class SessionState {
  readonly ledger: SessionLedger;
  reads = 0;
  lastRefusal: { key: string; code: ErrorCode } | undefined;
  readonly stats: SessionStats = { reads: 0, contentReads: 0, placeholderHits: 0, deltaReads: 0, estimatedTokensSaved: 0, mutations: 0, refusals: {} };
  /** `SessionOptions.surface` and `label`: where the session's changes come from, for the change history. */
  origin: { surface: string; label: string };

  constructor(
    readonly id: string,
    readonly dedup: boolean | undefined,
    maxEntries: number,
    onLedgerChange: (path: string) => void = () => {},
    /** `SessionOptions.standalone`: refusals ask for an expectedVersion, not a read in this session. */
    readonly standalone = false,
    /** `SessionOptions.resultBudget`: what this session's client shows of one result. */
    private budget?: ResultBudget,
  ) {
    this.ledger = new SessionLedger(maxEntries, onLedgerChange);
    this.origin = { surface: 'api', label: id };
    this.maxChars = budgetChars(budget);
  }

  /**
   * Records what the session learned, in order. Reads and changes return what the ledger learns as values; the
   * session (`src/core/session/`) applies them here, once it is known that the agent gets the outcome.
   */
  learn(updates: readonly LedgerEntry[]): void {
    for (const update of updates) this.ledger.record(update);
  }

  /** Forgets everything the session saw. */
  forget(): void {
    this.ledger.clear();
  }

  /** What one result may hold (UTF-8 bytes), when the client has a budget. */
  maxChars: number | undefined;

  /** A new budget (a setting changed): later results follow it. */
  setBudget(budget: ResultBudget | undefined): void {
    if (JSON.stringify(budget) === JSON.stringify(this.budget)) return;
    this.budget = budget;
    this.maxChars = budgetChars(budget);
    this.limitsCache = undefined;
  }

  private limitsCache: { base: Limits; within: Limits } | undefined;

  /** What a refusal's or result's diff may take: the budget and the line length reads shorten at. */
  diffBudget(base: Limits): { maxChars: number; maxLineLength: number } | undefined {
    return this.maxChars === undefined ? undefined : { maxChars: this.maxChars, maxLineLength: this.limits(base).maxLineLength };
  }

  /** The guard's caps within this session's budget (the guard's own when it has none). */
  limits(base: Limits): Limits {
    if (this.limitsCache?.base !== base) this.limitsCache = { base, within: limitsWithin(base, this.budget) };
    return this.limitsCache.within;
  }
}
