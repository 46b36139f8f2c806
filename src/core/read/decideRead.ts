/**
 * Whether a read returns content or the short "unchanged" placeholder. Pure.
 *
 * The placeholder must never lie: it is given only when every requested line was shown to this session in
 * this exact version (decided by content hash, not mtime), the read is not truncated (a truncated read means
 * the model never saw everything it asked for), and dedup is on and not bypassed with `force`. Lines the
 * session only wrote are seen but were never shown, so reading them returns content.
 */
import { covers } from '../ledger/coverage';
import { displayPath } from '../path/displayPath';
import type { LedgerEntry } from '../ledger/sessionLedger';

export interface ReadRequestFacts {
  version: string;
  from: number;
  to: number;
  truncated: boolean;
  dedup: boolean;
  force: boolean;
}

export function decideRead(entry: LedgerEntry | undefined, facts: ReadRequestFacts): 'placeholder' | 'content' {
  if (!facts.dedup || facts.force || facts.truncated) return 'content';
  if (!entry || entry.version !== facts.version) return 'content';
  if (facts.to < facts.from) return 'content';
  return covers(entry.shown, facts.from, facts.to) ? 'placeholder' : 'content';
}

/**
 * Names the result that showed the lines (reads are numbered in their headers) and says how to get them back,
 * because a client may have summarized or cut that result since (SPEC section 3).
 */
export function placeholderText(path: string, from: number, to: number, readNumber: number, version: string): string {
  const source = readNumber > 0 ? `your read #${readNumber} (version ${version}), which showed them to you` : `a refusal showed them to you in its diff (version ${version})`;
  return `${displayPath(path)}: lines ${from}–${to} are unchanged since ${source}; their content is exactly as shown then. If that result is no longer in your context (it was summarized or cut, or another agent made that read), read again with force: true to get the lines back.`;
}
