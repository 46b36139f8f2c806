/**
 * Finds a session's ledger entries for a path: by the identity of the file there now (following this guard's
 * own atomic replacements, which give a file a new inode), and by the path itself (a vanished file, a path
 * seen missing, or a stranger re-created at the same name).
 */
import type { LedgerEntry } from '../ledger/sessionLedger';
import type { GuardContext } from './context';
import type { SessionState } from './sessionState';

export function entryFor(ctx: GuardContext, s: SessionState, target: string, identity: string | undefined): { identityEntry?: LedgerEntry; targetEntry?: LedgerEntry } {
  let identityEntry: LedgerEntry | undefined;
  if (identity) {
    identityEntry = s.ledger.byIdentity(identity);
    for (let previous = ctx.predecessors.get(identity), hops = 0; !identityEntry && previous && hops < 8; previous = ctx.predecessors.get(previous), hops++) {
      const inherited = s.ledger.byIdentity(previous);
      if (inherited) {
        // Same file, new inode (our own temp + rename): re-key the entry so later lookups are direct.
        s.ledger.forget(inherited);
        identityEntry = { ...inherited, identity };
        s.ledger.record(identityEntry);
      }
    }
  }
  const targetEntry = s.ledger.atTarget(target);
  return { identityEntry, targetEntry };
}
