/**
 * `GuardSession.check(path)`: whether what the session saw of a file is still its current content ('fresh'),
 * no longer is ('stale'), or the session never saw it ('unknown'). Decided by content, never by timestamps.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import { findAlias } from '../mutate/aliases';
import { currentVersion } from '../text/loadText';

export async function freshness(ctx: GuardContext, s: SessionState, path: string): Promise<'unknown' | 'stale' | 'fresh'> {
  if (ctx.isDisposed() || typeof path !== 'string') return 'unknown';
  const checked = await ctx.paths.check(path);
  if (!checked.ok) return 'unknown';
  const { target } = checked;
  const stat = await ctx.fs.stat(target);
  const entry = s.ledger.at(target);
  if (!stat) return entry ? (entry.version === undefined ? 'fresh' : 'stale') : 'unknown';
  if (entry && entry.version === undefined) return 'stale';
  if (!entry && !s.ledger.hasIdentity(stat.identity)) return 'unknown';
  if (stat.kind !== 'file') return entry ? 'stale' : 'unknown';
  const version = await currentVersion(ctx.fs, await ctx.hasher(), target, stat);
  if (entry) return version === entry.version ? 'fresh' : 'stale';
  // Seen only under another name of this file: fresh while it holds exactly that content.
  return (await findAlias(ctx, s, target, stat.identity, version)) ? 'fresh' : 'unknown';
}
