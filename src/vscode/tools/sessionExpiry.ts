/**
 * Which tool sessions to drop: those idle past the TTL, and the least recently used beyond the cap. Pure
 * bookkeeping (keys and times in, keys to drop out), so it is tested without VS Code.
 */
export interface ExpiryLimits {
  ttlMs: number;
  maxSessions: number;
}

export class SessionExpiry {
  private readonly lastUsed = new Map<string, number>();

  constructor(private readonly limits: ExpiryLimits) {}

  /** Records a use of `key` at `now`. */
  touch(key: string, now: number): void {
    this.lastUsed.delete(key);
    this.lastUsed.set(key, now);
  }

  /** Removes and returns the keys to drop at `now` (never the most recently used one). */
  expired(now: number): string[] {
    const dropped: string[] = [];
    const cutoff = now - this.limits.ttlMs;
    for (const [key, at] of this.lastUsed) {
      if (this.lastUsed.size <= 1) break;
      if (at >= cutoff && this.lastUsed.size <= this.limits.maxSessions) break;
      this.lastUsed.delete(key);
      dropped.push(key);
    }
    return dropped;
  }
}
