/**
 * Another name of the same file (a hard link): an entry the session recorded at another path counts for this
 * path only while that path still leads to the same identity and the content is exactly the version the
 * session saw there. A renamed or deleted file's inode may already belong to a stranger.
 */
import type { LedgerEntry } from '../ledger/sessionLedger';
import type { GuardContext } from './context';
import type { SessionState } from './sessionState';

export async function findAlias(ctx: GuardContext, s: SessionState, target: string, identity: string, version: string): Promise<LedgerEntry | undefined> {
  for (const candidate of s.ledger.aliasCandidates(identity, version, target)) {
    const there = await ctx.fs.stat(candidate.target).catch(() => undefined);
    if (there?.identity === identity) return candidate;
  }
  return undefined;
}
