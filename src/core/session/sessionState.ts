/** The mutable state of one session: its ledger, its counters and its last refusal. */
import { SessionLedger } from '../ledger/sessionLedger';
import type { ErrorCode } from '../refusal';

export class SessionState {
  readonly ledger: SessionLedger;
  reads = 0;
  lastRefusal: { key: string; code: ErrorCode } | undefined;

  constructor(
    readonly id: string,
    readonly dedup: boolean | undefined,
    maxEntries: number,
  ) {
    this.ledger = new SessionLedger(maxEntries);
  }
}
