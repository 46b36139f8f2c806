/**
 * Which of a session's files the Sessions view lists and checks on a redraw. Pure. A side bar shows a few dozen
 * rows and a redraw checks files by content, so a long ledger (a session that read thousands of files, then a
 * git checkout) is neither sent whole nor checked whole on every redraw.
 */

/** Files listed per session (the most recent); the rest are counted in one item that opens the full ledger. */
export const LISTED_FILES = 100;
/** Of those, the files whose staleness is checked by content (the most recent first). */
export const CHECKED_FILES = 50;

/** `entries` oldest first, as the ledger keeps them. */
export function sessionFiles<E>(entries: readonly E[]): { listed: E[]; checked: number; more: number } {
  const listed = entries.slice(Math.max(0, entries.length - LISTED_FILES)).reverse();
  return { listed, checked: Math.min(CHECKED_FILES, listed.length), more: entries.length - listed.length };
}
