/**
 * Content snapshots of versions sessions have seen, keyed by version tag and shared by all sessions (the
 * same bytes are the same version). A snapshot lets the guard diff what a session saw against what the file
 * holds now, which is what makes range-aware staleness and "here is what changed" refusals possible. It also
 * keeps what decoding those bytes gave (the line index, the encoding, whether every byte is ASCII), so a file
 * read or written a moment ago is not decoded and indexed again when it is next changed.
 *
 * Bounded by a byte budget with LRU eviction. Losing a snapshot never makes the guard permissive: without
 * one, any change to a file counts as touching what the session saw (the strict rule).
 */
import type { Decoded, DecodedVersions } from '../text/loadText';

interface Snapshot {
  text: string;
  decoded?: Decoded;
}

export class SnapshotStore implements DecodedVersions {
  private readonly snapshots = new Map<string, Snapshot>();
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

  /** The text of a version. */
  get(version: string): string | undefined {
    return this.touch(version)?.text;
  }

  /** The decoded file of a version, when it was kept with its text. */
  decoded(version: string): Decoded | undefined {
    return this.touch(version)?.decoded;
  }

  /** `decoded`: what decoding gave, kept with the text when the core decoded it itself. */
  put(version: string, text: string, decoded?: Decoded): void {
    const snapshot: Snapshot = decoded && decoded.text === text ? { text, decoded } : { text };
    const cost = costOf(snapshot);
    if (cost > this.budgetBytes) return;
    const previous = this.snapshots.get(version);
    if (previous !== undefined) {
      this.snapshots.delete(version);
      this.bytes -= costOf(previous);
    }
    this.snapshots.set(version, snapshot);
    this.bytes += cost;
    this.evict();
  }

  clear(): void {
    this.snapshots.clear();
    this.bytes = 0;
  }

  private touch(version: string): Snapshot | undefined {
    const snapshot = this.snapshots.get(version);
    if (snapshot !== undefined) {
      this.snapshots.delete(version);
      this.snapshots.set(version, snapshot);
    }
    return snapshot;
  }

  private evict(): void {
    for (const [oldest, snapshot] of this.snapshots) {
      if (this.bytes <= this.budgetBytes) break;
      this.snapshots.delete(oldest);
      this.bytes -= costOf(snapshot);
    }
  }
}

/** V8 keeps strings as 1 or 2 bytes per UTF-16 unit; count 2 to stay under budget whatever the content. A line index takes 4 bytes a line. */
function costOf(snapshot: Snapshot): number {
  return snapshot.text.length * 2 + 64 + (snapshot.decoded ? snapshot.decoded.index.count * 4 : 0);
}
