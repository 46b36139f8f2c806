/**
 * Content snapshots of versions sessions have seen, keyed by version tag and shared by all sessions (the
 * same bytes are the same version). A snapshot lets the guard diff what a session saw against what the file
 * holds now, which is what makes range-aware staleness and "here is what changed" refusals possible.
 *
 * Bounded by a byte budget with LRU eviction. Losing a snapshot never makes the guard permissive: without
 * one, any change to a file counts as touching what the session saw (the strict rule).
 */
export class SnapshotStore {
  private readonly texts = new Map<string, string>();
  private bytes = 0;

  constructor(private budgetBytes: number) {}

  /** Changes the budget, evicting the least recently used snapshots that no longer fit. */
  resize(budgetBytes: number): void {
    this.budgetBytes = budgetBytes;
    this.evict();
  }

  get usedBytes(): number {
    return this.bytes;
  }

  get(version: string): string | undefined {
    const text = this.texts.get(version);
    if (text !== undefined) {
      this.texts.delete(version);
      this.texts.set(version, text);
    }
    return text;
  }

  put(version: string, text: string): void {
    const cost = costOf(text);
    if (cost > this.budgetBytes) return;
    const previous = this.texts.get(version);
    if (previous !== undefined) {
      this.texts.delete(version);
      this.bytes -= costOf(previous);
    }
    this.texts.set(version, text);
    this.bytes += cost;
    this.evict();
  }

  private evict(): void {
    for (const [oldest, oldText] of this.texts) {
      if (this.bytes <= this.budgetBytes) break;
      this.texts.delete(oldest);
      this.bytes -= costOf(oldText);
    }
  }

  clear(): void {
    this.texts.clear();
    this.bytes = 0;
  }
}

/** V8 keeps strings as 1 or 2 bytes per UTF-16 unit; count 2 to stay under budget whatever the content. */
function costOf(text: string): number {
  return text.length * 2 + 64;
}
