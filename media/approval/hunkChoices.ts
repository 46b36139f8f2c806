/**
 * Which hunks the user rejected, per request and file: the data behind the per-hunk toggles and the
 * `rejectedHunks` of an `approve` message. Plain JSON so it persists through `setState`.
 *
 * Identity: a choice is keyed by request id, file path and hunk index, and remembers a fingerprint of the
 * file's hunks. When the extension re-sends a request whose diff changed (the file changed on disk during
 * review), indexes may point at different text, so the choices for that file are dropped rather than applied
 * to hunks the user never judged. Choices of requests that left the queue are dropped too.
 *
 * A deleted file has no choices: its one hunk is the whole old content, approved or rejected with the request.
 */
import type { FileView, RequestView } from '../../src/vscode/approval/protocol';
import { isWholeFileChange } from './requestWording';

export interface FileChoice {
  /** Fingerprint of the file's hunks when the choice was made. */
  hunks: string;
  rejected: number[];
}

/** request id → file path → choice. */
export type ChoicesData = Record<string, Record<string, FileChoice>>;

const fingerprints = new WeakMap<FileView, string>();

/** FNV-1a over the hunks' JSON: cheap (a 5,000-line file hashes in about a millisecond) and stable across reloads. */
export function fingerprintOf(file: FileView): string {
  let cached = fingerprints.get(file);
  if (cached === undefined) {
    const text = JSON.stringify(file.hunks);
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193);
    }
    cached = `${file.hunks.length}:${text.length}:${(hash >>> 0).toString(16)}`;
    fingerprints.set(file, cached);
  }
  return cached;
}

export interface Tally {
  /** Hunks the user can reject (not a deleted file's). */
  total: number;
  rejected: number;
  /** Files deleted or moved: applied on approval whatever the hunk choices. */
  wholeFile: number;
}

export class HunkChoices {
  private data: ChoicesData;

  constructor(data: ChoicesData = {}) {
    this.data = data;
  }

  toJSON(): ChoicesData {
    return this.data;
  }

  isRejected(requestId: string, file: FileView, index: number): boolean {
    const choice = this.data[requestId]?.[file.path];
    return !!choice && choice.rejected.includes(index);
  }

  /** Flips one hunk; returns whether it is now rejected. */
  toggle(requestId: string, file: FileView, index: number): boolean {
    const forRequest = (this.data[requestId] ??= {});
    const choice = (forRequest[file.path] ??= { hunks: fingerprintOf(file), rejected: [] });
    const at = choice.rejected.indexOf(index);
    if (at >= 0) choice.rejected.splice(at, 1);
    else choice.rejected.push(index);
    if (choice.rejected.length === 0) delete forRequest[file.path];
    if (Object.keys(forRequest).length === 0) delete this.data[requestId];
    return at < 0;
  }

  /**
   * Keeps only choices that still apply to the queue. Returns the files whose choices were dropped because
   * their diff changed, so the page can say so.
   */
  reconcile(requests: readonly RequestView[]): { requestId: string; path: string }[] {
    const reset: { requestId: string; path: string }[] = [];
    const next: ChoicesData = {};
    for (const request of requests) {
      const forRequest = this.data[request.id];
      if (!forRequest) continue;
      for (const [path, choice] of Object.entries(forRequest)) {
        const file = request.files.find((f) => f.path === path);
        if (!file) continue;
        if (fingerprintOf(file) !== choice.hunks) {
          reset.push({ requestId: request.id, path });
          continue;
        }
        const valid = choice.rejected.filter((index) => file.hunks.some((hunk) => hunk.index === index));
        if (valid.length) (next[request.id] ??= {})[path] = { hunks: choice.hunks, rejected: valid };
      }
    }
    this.data = next;
    return reset;
  }

  /** The `rejectedHunks` of an approve message: only files with a rejection, indexes ascending. */
  rejectedHunks(request: RequestView): Record<string, number[]> {
    const out: Record<string, number[]> = {};
    for (const file of request.files) {
      if (file.deleted) continue;
      const indexes = file.hunks.filter((hunk) => this.isRejected(request.id, file, hunk.index)).map((hunk) => hunk.index);
      if (indexes.length) out[file.path] = indexes.sort((a, b) => a - b);
    }
    return out;
  }

  tally(request: RequestView): Tally {
    let total = 0;
    let rejected = 0;
    let wholeFile = 0;
    for (const file of request.files) {
      if (isWholeFileChange(file)) wholeFile++;
      if (file.deleted) continue;
      for (const hunk of file.hunks) {
        total++;
        if (this.isRejected(request.id, file, hunk.index)) rejected++;
      }
    }
    return { total, rejected, wholeFile };
  }
}

/** Every hunk the user can reject is rejected (a deletion or a move may still be applied). */
export function isEveryHunkRejected(tally: Tally): boolean {
  return tally.total > 0 && tally.rejected === tally.total;
}

/** Approving makes no sense when the user rejected every hunk and nothing is deleted or moved: nothing would be written. */
export function isEverythingRejected(tally: Tally): boolean {
  return isEveryHunkRejected(tally) && tally.wholeFile === 0;
}
