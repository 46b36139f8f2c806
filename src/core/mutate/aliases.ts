/**
 * Another name of the same file: an entry the session recorded at another path counts for this path only while
 * the content is exactly the version the session saw there, and the identity is surely the same file: the other
 * name still leads to it (a hard link), or it was renamed away and the identity carries a birth time. A bare
 * inode of a deleted file may already belong to a stranger, so it never counts.
 */
import type { LedgerEntry } from '../ledger/sessionLedger';
import { survivesInodeReuse } from '../version/fileIdentity';
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';

export async function findAlias(ctx: GuardContext, s: SessionState, target: string, identity: string, version: string): Promise<LedgerEntry | undefined> {
  for (const candidate of s.ledger.aliasCandidates(identity, version, target)) {
    const there = await ctx.fs.stat(candidate.target).catch(() => undefined);
    if (there?.identity === identity || (!there && survivesInodeReuse(identity))) return candidate;
  }
  return undefined;
}
