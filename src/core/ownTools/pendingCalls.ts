/**
 * The calls of an agent's own tools that were seen before they ran and not yet after, by the client's call id.
 * A client runs its after-hook only for calls that ran (a refused, invalid or cancelled call has none), so
 * entries are bounded: at most `max`, none older than `ttlMs`; the oldest go first. A call taken is removed, so
 * a repeated after-hook does nothing the second time.
 */

export const PENDING_CALL_LIMITS = { max: 64, ttlMs: 30 * 60 * 1000 };

export class PendingCalls<T> {
  private readonly calls = new Map<string, { at: number; value: T }>();

  constructor(private readonly limits = PENDING_CALL_LIMITS) {}

  put(callId: string, value: T, now: number): void {
    this.calls.delete(callId);
    this.calls.set(callId, { at: now, value });
    this.prune(now);
  }

  /** The call's entry, removed; undefined when unknown or too old. */
  take(callId: string, now: number): T | undefined {
    const entry = this.calls.get(callId);
    this.calls.delete(callId);
    this.prune(now);
    return entry && now - entry.at <= this.limits.ttlMs ? entry.value : undefined;
  }

  get size(): number {
    return this.calls.size;
  }

  /** When the newest call still waiting was put; undefined when none waits. */
  newestAt(): number | undefined {
    let at: number | undefined;
    for (const entry of this.calls.values()) at = entry.at;
    return at;
  }

  /** The calls still waiting, oldest first, as `[callId, value]`. */
  entries(): [string, T][] {
    return [...this.calls].map(([id, entry]) => [id, entry.value]);
  }

  delete(callId: string): void {
    this.calls.delete(callId);
  }

  clear(): void {
    this.calls.clear();
  }

  private prune(now: number): void {
    for (const [id, entry] of this.calls) {
      if (this.calls.size <= this.limits.max && now - entry.at <= this.limits.ttlMs) break;
      this.calls.delete(id);
    }
  }
}
