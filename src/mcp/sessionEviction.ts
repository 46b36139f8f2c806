/**
 * Which MCP session the HTTP server ends when one more than its cap is open. Not the first opened: a client
 * that has worked all day would be ended while sessions nobody uses stay. The least recently used one (by its
 * last request's start or end), and among those none with a request under way (a call waiting for the user's
 * review may have started long ago, yet it is in use); only when every other session is busy, the least recently
 * used of those. The session just opened is never chosen: it was asked for now. Pure.
 */

export interface SessionUse {
  /** Requests under way. */
  busy: number;
  /** When the last request started or ended (ms). */
  lastUsed: number;
}

export function sessionToEvict<Id>(sessions: Iterable<readonly [Id, SessionUse]>, keep: Id): Id | undefined {
  let idle: { id: Id; lastUsed: number } | undefined;
  let busy: { id: Id; lastUsed: number } | undefined;
  for (const [id, use] of sessions) {
    if (id === keep) continue;
    const best = use.busy > 0 ? busy : idle;
    if (best && best.lastUsed <= use.lastUsed) continue;
    if (use.busy > 0) busy = { id, lastUsed: use.lastUsed };
    else idle = { id, lastUsed: use.lastUsed };
  }
  return (idle ?? busy)?.id;
}
