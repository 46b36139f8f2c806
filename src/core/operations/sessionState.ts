/** The mutable state of one session: its ledger, its counters and its last refusal. */
import { SessionLedger } from '../ledger/sessionLedger';
import type { ErrorCode } from '../refusals/refusal';
import type { SessionStats } from '../types';

export class SessionState {
  readonly ledger: SessionLedger;
  reads = 0;
  lastRefusal: { key: string; code: ErrorCode } | undefined;
  readonly stats: SessionStats = { reads: 0, contentReads: 0, placeholderHits: 0, estimatedTokensSaved: 0, mutations: 0, refusals: {} };

  constructor(
    readonly id: string,
    readonly dedup: boolean | undefined,
    maxEntries: number,
    onLedgerChange: (path: string) => void = () => {},
    /** `SessionOptions.standalone`: refusals ask for an expectedVersion, not a read in this session. */
    readonly standalone = false,
  ) {
    this.ledger = new SessionLedger(maxEntries, onLedgerChange);
  }
}
