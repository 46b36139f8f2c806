/**
 * A whole-file read started a moment before the read it is for. VS Code asks a tool for its progress message and
 * waits a round trip through the workbench before running it; reading, hashing and decoding the file in that wait
 * takes them off the call's path. The read that takes the entry shows these bytes and records their version, so
 * it is as if it had read the file then: content still decides everything after.
 *
 * An entry is taken once, by a read of the same path within `READ_AHEAD_MS` of its start, and only when the guard
 * wrote no file since it started; otherwise it is dropped and the read reads afresh. It borrows the guard's read
 * buffer (`ReadScratch`) until it is taken and used, dropped, or out of date.
 */
import type { Clock, FileStat } from '../ports';
import { IN_MEMORY_MAX_BYTES, type LoadedFile, type TextSource, decodeFile, versionOf } from './loadText';
import type { ReadScratch } from './readScratch';

/** How long a read-ahead serves: far above the wait it is for (a few milliseconds), far below a person's edit. */
export const READ_AHEAD_MS = 1000;

/** What a read-ahead read: the path as checked, the file's stat and bytes of one moment, their version and text. */
export interface FileAhead {
  path: string;
  target: string;
  stat: FileStat;
  bytes: Uint8Array;
  version: string;
  loaded: LoadedFile;
}

/** A taken read-ahead: its bytes are valid until `release()`. */
export interface TakenAhead {
  file: FileAhead;
  release(): void;
}

interface Entry {
  given: string;
  startedAt: number;
  generation: number;
  file: Promise<FileAhead | undefined>;
  release(): void;
}

export interface ReadAheadSource extends TextSource {
  readScratch: ReadScratch;
  clock: Clock;
}

export class ReadAhead {
  private entry: Entry | undefined;
  /** Bumped when a write starts; an entry from an older generation is never used. */
  private generation = 0;
  private writes = 0;

  constructor(private readonly source: ReadAheadSource) {}

  /**
   * Starts reading the file `given` names (`checked`: its path and target as the path policy gave them, or
   * undefined for a path a read would refuse).
   * Only regular files small enough to load are read ahead; any failure leaves the read to read for itself.
   */
  start(given: string, checked: Promise<{ path: string; target: string } | undefined>): void {
    this.drop();
    if (this.writes > 0) return;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let ready!: (file: FileAhead | undefined) => void;
    const file = new Promise<FileAhead | undefined>((resolve) => (ready = resolve));
    const entry: Entry = { given, startedAt: this.source.clock.now(), generation: this.generation, file, release };
    this.entry = entry;
    // Out of date after READ_AHEAD_MS: its buffer goes back even if no read ever comes.
    setTimeout(() => this.drop(entry), READ_AHEAD_MS).unref?.();
    this.load(checked, ready, released).catch(() => ready(undefined));
  }

  private async load(
    checked: Promise<{ path: string; target: string } | undefined>,
    ready: (file: FileAhead | undefined) => void,
    released: Promise<void>,
  ): Promise<void> {
    const { fs, readScratch } = this.source;
    const names = await checked;
    const stat = names && (await fs.stat(names.target));
    if (!names || stat?.kind !== 'file' || stat.size > IN_MEMORY_MAX_BYTES) return ready(undefined);
    await readScratch.read(fs, names.target, async (bytes) => {
      const version = versionOf(await this.source.hasher(), bytes, stat.revision);
      const loaded = await decodeFile(this.source, names.target, bytes, stat.revision, version);
      ready({ ...names, stat, bytes, version, loaded });
      await released;
    });
  }

  /**
   * The read-ahead of `given`, when it is still current and no write started and no setting changed since it
   * began; its buffer stays lent until `release()`. Waits for one still on its way; undefined at once when there is
   * none for `given` (most reads: no promise to wait for).
   */
  take(given: string): Promise<TakenAhead | undefined> | undefined {
    const entry = this.entry;
    if (entry?.given !== given) return undefined;
    this.entry = undefined;
    return this.taken(entry);
  }

  private async taken(entry: Entry): Promise<TakenAhead | undefined> {
    const file = await entry.file;
    if (file && entry.generation === this.generation && this.source.clock.now() - entry.startedAt <= READ_AHEAD_MS) return { file, release: entry.release };
    entry.release();
    return undefined;
  }

  /** The roots or deny rules changed: what was read ahead was checked against the old ones. */
  invalidate(): void {
    this.generation++;
    this.drop();
  }

  /** Runs a write: no read-ahead started before it is used after, and none starts while it runs. */
  async whileWriting<T>(write: () => Promise<T>): Promise<T> {
    this.writes++;
    this.generation++;
    this.drop();
    try {
      return await write();
    } finally {
      this.writes--;
    }
  }

  /** Drops the waiting entry (only `entry`, when given), giving its buffer back. */
  drop(entry: Entry | undefined = this.entry): void {
    if (!entry || entry !== this.entry) return;
    this.entry = undefined;
    entry.release();
  }
}
