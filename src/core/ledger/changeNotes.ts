/**
 * Who last changed a file, as adapters (watchers, document events) and the guard itself report it, keyed by
 * resolved path. Refusals use it to say "changed by someone typing in the editor" instead of just "changed".
 * Hints only: staleness is always decided by content. Bounded (oldest notes are dropped).
 *
 * A session's own write is noted with the version it produced, and is named only while the file holds
 * exactly that content: whatever changed it afterwards was not that session.
 */
import type { ChangeSource } from '../ports';

export interface ChangeNote {
  source: ChangeSource;
  at: number;
  /** For a session's write: the version it produced. */
  version?: string;
}

const MAX_NOTES = 10_000;

export class ChangeNotes {
  private readonly notes = new Map<string, ChangeNote>();

  note(target: string, source: ChangeSource, at: number, version?: string): void {
    this.notes.delete(target);
    this.notes.set(target, { source, at, ...(version !== undefined ? { version } : {}) });
    if (this.notes.size > MAX_NOTES) this.notes.delete(this.notes.keys().next().value as string);
  }

  /** The latest note for `target`, as it is: decisions explain it with `noteExplains`. */
  latest(target: string): ChangeNote | undefined {
    return this.notes.get(target);
  }

  /** `noteExplains` of the latest note for `target`. */
  since(target: string, since: number, currentVersion?: string | null): ChangeSource | undefined {
    return noteExplains(this.notes.get(target), since, currentVersion);
  }
}

/**
 * The source of `note` if it came at or after `since` and can explain `currentVersion` (a session's write
 * explains only the content it wrote; `undefined` for a file that is gone, `null` for any content). Pure.
 */
export function noteExplains(note: ChangeNote | undefined, since: number, currentVersion?: string | null): ChangeSource | undefined {
  if (!note || note.at < since) return undefined;
  if (note.source.kind === 'session' && currentVersion !== null && note.version !== currentVersion) return undefined;
  return note.source;
}
