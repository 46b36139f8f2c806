/**
 * What the core needs from the world, and nothing more. The core never touches `fs`, the clock or a log
 * directly: it goes through these ports, so the VS Code adapter can put open editor buffers first and tests
 * can observe every decision. `nodeFileSystem.ts` is the default file system for headless use.
 */

export type FileKind = 'file' | 'directory' | 'symlink' | 'fifo' | 'socket' | 'characterDevice' | 'blockDevice' | 'other';

export interface FileStat {
  kind: FileKind;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  /** Permission bits (`mode & 0o7777`); kept across atomic rewrites. */
  mode: number;
  /**
   * Number of hard links. The guard refuses to change a file with several: replacing it would split it from its
   * other names, and rewriting it in place could leave it torn by a crash.
   */
  nlink: number;
  /**
   * Identity of the file, not of the name: `dev:ino` for local files (hard links, symlinks and case variants
   * are one file, rm + recreate is a stranger); a normalized path or URI where inodes are unusable.
   */
  identity: string;
  /**
   * An extra revision the adapter wants folded into the version (e.g. an open document's version): present
   * when the content is an unsaved buffer, absent for plain files, whose version is the hash of their bytes
   * alone. A file with unsaved content is never deleted or moved (the unsaved text would be lost).
   */
  revision?: string;
}

/** Reads a file in chunks (huge files are never loaded whole). */
export interface ChunkReader {
  /** Reads up to `buffer.length` bytes at `position`; returns the count read (0 at end of file). */
  read(buffer: Uint8Array, position: number): Promise<number>;
  close(): Promise<void>;
}

/** A real directory (never a link) on the way to a file, with the identity it had when the guard checked it. */
export interface FolderExpectation {
  path: string;
  identity: string;
}

/**
 * What the guard checked before a write and what must still hold when the new content replaces the file. A
 * port that can (the Node one does) verifies it synchronously, after the new content is complete and synced and
 * with nothing in between but the replacing call, and rejects with a `WriteConflict` (nothing changed) if it no
 * longer holds.
 */
export interface WriteExpectation {
  /**
   * The file being replaced: exactly these bytes (and this identity, when given). Absent: the call creates the
   * file, and the path must still be free (an existing file is never replaced by a create).
   */
  current?: { bytes: Uint8Array; identity?: string };
  /** The directories from a root down to the file's folder, outermost first: each still a real directory with this identity. */
  folders: readonly FolderExpectation[];
}

export interface WriteOptions {
  /** Permission bits for the written file (the old file's, when replacing one). */
  mode?: number;
  expect?: WriteExpectation;
}

/** Why a write or removal was not made (see `WriteConflict`). */
export type ConflictReason = 'changed' | 'created' | 'deleted' | 'folder' | 'changedDuringWrite' | 'putBackFailed' | 'escaped';

/**
 * Rejection of a write whose expectation no longer held: nothing was changed. `changedDuringWrite`: another
 * writer changed the old file in the instant the new one replaced it; the port put the other writer's content
 * back, so nothing of theirs is lost. `putBackFailed`: that happened and the file changed again before it could
 * be put back: the new content stays and their change may be lost (`message` says so). `escaped`: where
 * something did change: a folder was swapped for a link between the two lookups of the replacing call, and the
 * new content went where the link leads (`message` says so; no system call lets a port close this window).
 */
export interface WriteConflict extends Error {
  code: 'READGATE_CONFLICT';
  reason: ConflictReason;
}

/**
 * Rejection of a read or write whose file is not a regular file when opened (a FIFO, device or directory
 * swapped in after the guard's stat): checked on the opened descriptor, never by path first.
 */
export interface NotRegularFile extends Error {
  code: 'READGATE_NOT_REGULAR';
  kind: FileKind;
}

/** Rejection of a write the file's permissions forbid (`reason` says which way), before anything changed. */
export interface NotWritable extends Error {
  code: 'READGATE_NOT_WRITABLE';
  reason: 'readOnly' | 'notWritableByUser' | 'hardLinked';
}

/** A text encoding the adapter knows and the core does not (a legacy code page, a configured encoding). */
export interface TextCodec {
  /** Its name for messages, e.g. "windows1252". */
  name: string;
  decode(bytes: Uint8Array): Promise<string>;
  encode(text: string): Promise<Uint8Array>;
}

export interface BatchWrite {
  path: string;
  data: Uint8Array;
  options: WriteOptions;
  /** The file did not exist before (its folder already does). */
  created: boolean;
  /**
   * Removes the file instead (a deletion, or the old name of a moved file; `data` is empty): only while it
   * still holds `options.expect.current`. Removals come after every write of the batch.
   */
  remove?: true;
}

/**
 * File system port. Paths are absolute. `stat`/`lstat` resolve to `undefined` when the path does not exist
 * (ENOENT, ENOTDIR) and reject for any other failure (the guard then fails closed).
 */
/** What a one-pass write did: `done` writes completed in order; `failed` is the index of the one that failed. */
export type PassOutcome = ({ done: number } | { done: number; failed: number; error: unknown }) & { written?: (FileStat | undefined)[] };

/** Buffer space lent to one read at a time (`FileSystem.readFile`): a read into it allocates nothing. */
export interface ScratchSpace {
  buffer?: Uint8Array;
}

export interface FileSystem {
  /**
   * Optional: true when every `writeFile` verifies its `expect` synchronously with the replacement (the Node port).
   * The guard then leaves the content check right before a single-file write to the port; otherwise it checks first.
   */
  readonly verifiesExpectations?: boolean;
  lstat(path: string): Promise<FileStat | undefined>;
  stat(path: string): Promise<FileStat | undefined>;
  readlink(path: string): Promise<string>;
  realpath(path: string): Promise<string>;
  /**
   * The file's bytes. Never blocks on a FIFO or device swapped in after a stat: the kind is checked on the opened
   * descriptor, and anything but a regular file rejects with `NotRegularFile`.
   * `scratch`: space the caller lends to this read only. A port may read into `scratch.buffer` and return a view of
   * it when the file fits, or leave the buffer it allocated there for the caller's next read; the caller uses
   * such bytes only until it lends the space again. Ports may ignore it.
   */
  readFile(path: string, scratch?: ScratchSpace): Promise<Uint8Array>;
  /** As `readFile`, for reading a huge file in chunks. */
  openChunkReader(path: string): Promise<ChunkReader>;
  /**
   * Replaces the file's content atomically: the whole new content is written (every byte count checked) and
   * synced to a temp file beside it, `options.expect` is verified, then the temp file takes the file's place.
   * Any failure rejects with nothing changed and no temp file left. `readFile` must return what this wrote.
   * May resolve with the stat of the file it placed, which saves the guard a stat of its own.
   */
  writeFile(path: string, data: Uint8Array, options?: WriteOptions): Promise<FileStat | void>;
  /**
   * Optional: writes several files as one change (an editor applies them as one undo step). Must be all or
   * nothing: when it rejects, every file is as it was. Without it, files are written one by one and the
   * guard restores earlier ones if a later one fails.
   */
  writeBatch?(writes: BatchWrite[]): Promise<void>;
  /**
   * Optional: writes and removes several files in one synchronous pass, in order, stopping at the first failure.
   * Every expectation is checked before the first file is touched, and nothing else in this process runs between
   * two replacements, so no one in it can see the change half made. Resolves with how many were done and, on a
   * failure, which one failed and why; the guard restores the done ones (a port only writes, it never undoes).
   */
  writeInOnePass?(writes: BatchWrite[]): Promise<PassOutcome>;
  /**
   * Optional: the encoding the editor uses for a file whose bytes are not UTF-8 (e.g. `files.encoding`). The
   * core uses it only if it round-trips the file's bytes exactly; otherwise it keeps its byte-exact Latin-1 view.
   */
  codecFor?(path: string): Promise<TextCodec | undefined>;
  /**
   * Removes a file (a deletion or a move the user approved, or the undo of a file this guard created when a
   * multiEdit fails mid-way). With `expect`, only while the file still holds `expect.current` bytes (else a
   * `WriteConflict`): never someone else's file.
   */
  unlink(path: string, expect?: WriteExpectation): Promise<void>;
  /**
   * Creates a directory and its missing parents. With `expect` (the existing folders on the way), each level is
   * made only while every folder above it is still the real directory expected.
   */
  mkdirp(path: string, expect?: { folders: readonly FolderExpectation[] }): Promise<void>;
  /**
   * Optional: removes an empty directory and rejects if it is not empty. Used only to remove the parent
   * directories a create made when its call then fails (a failed call leaves no trace); without it, those
   * directories stay behind.
   */
  rmdir?(path: string): Promise<void>;
  /**
   * Names in a directory, as stored (for near-miss suggestions, and to find a name stored in another Unicode form
   * when the exact one is missing); rejects if it is not a readable directory.
   */
  readdir(path: string): Promise<string[]>;
  /** The home directory `~` expands to. */
  homedir(): string;
}

export interface Clock {
  now(): number;
}

/** Structured log lines: a message plus data (ids, codes, versions, ranges; never file content). */
export interface Logger {
  trace(message: string, data?: Record<string, unknown>): void;
  debug(message: string, data?: Record<string, unknown>): void;
  info(message: string, data?: Record<string, unknown>): void;
  warn(message: string, data?: Record<string, unknown>): void;
  error(message: string, data?: Record<string, unknown>): void;
}

/** Who changed a file, as far as an adapter can tell (the guard names it in refusals). */
export interface ChangeSource {
  kind: 'editor' | 'save' | 'session' | 'external' | 'git' | 'unknown';
  /** Free text for the agent, e.g. "format on save" or the other session's id. */
  detail?: string;
  /** A session's name for people ("Claude Code 2.1.197", "Your revert"), said instead of its id. */
  label?: string;
}

export const systemClock: Clock = { now: () => Date.now() };

const noop = (): void => {};
export const nullLogger: Logger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop };
