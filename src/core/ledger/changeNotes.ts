/**
 * Who last changed a file, as adapters (watchers, document events) and the guard itself report it, keyed by
 * resolved path. Refusals use it to say "changed by someone typing in the editor" instead of just "changed".
 * Hints only: staleness is always decided by content. Bounded (oldest notes are dropped).
 */
import type { ChangeSource } from '../ports';

interface Note {
  source: ChangeSource;
  at: number;
}

const MAX_NOTES = 10_000;

export class ChangeNotes {
  private readonly notes = new Map<string, Note>();

  note(target: string, source: ChangeSource, at: number): void {
    this.notes.delete(target);
    this.notes.set(target, { source, at });
    if (this.notes.size > MAX_NOTES) this.notes.delete(this.notes.keys().next().value as string);
  }

  /** The latest source noted for `target` at or after `since`, if any. */
  since(target: string, since: number): ChangeSource | undefined {
    const note = this.notes.get(target);
    return note && note.at >= since ? note.source : undefined;
  }
}
