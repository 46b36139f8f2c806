/**
 * The public contract of the headless library (API.md section 1). Names and result shapes are binding;
 * additions here (ports, `noteChange`, per-session options) extend it without renaming anything.
 */
import type { ChangeSource, Clock, FileSystem, Logger } from './ports';
import type { ErrorCode, Refusal } from './refusal';

export type { ChangeSource, ErrorCode, Refusal };

export interface GuardLimits {
  /** Lines returned by one read (default 2000). */
  maxLines?: number;
  /** Bytes of content returned by one read (default 100,000). */
  maxBytes?: number;
  /** Longer lines are shortened and marked (default 2000 characters). */
  maxLineLength?: number;
  /** edit/write of a larger file is refused with FILE_TOO_LARGE (default 10 MiB). */
  maxFileBytes?: number;
}

export interface GuardOptions {
  /** Absolute folders the agent may touch; anything else is PATH_DENIED. */
  roots: string[];
  /** Globs (relative to a root, or absolute) always refused with PATH_DENIED. */
  deny?: string[];
  /** Repeated-read placeholder (default true). */
  dedup?: boolean;
  limits?: GuardLimits;
  /** Asked before anything is written; the default approves everything. */
  approve?: (request: ApprovalRequest) => Promise<ApprovalDecision>;
  /** File system port (default: Node's fs). */
  fileSystem?: FileSystem;
  logger?: Logger;
  clock?: Clock;
  /**
   * Memory for content snapshots of versions sessions have seen, shared by all sessions (default 64 MiB).
   * Snapshots make range-aware staleness possible; an evicted snapshot falls back to the strict rule.
   */
  snapshotBudgetBytes?: number;
  /** Files tracked per session before the least recently used is forgotten (default 10,000). */
  maxEntriesPerSession?: number;
}

/** The settings `Guard.configure` can change while sessions live (roots, deny rules, dedup, caps, memory). */
export type GuardSettings = Partial<Pick<GuardOptions, 'roots' | 'deny' | 'dedup' | 'limits' | 'snapshotBudgetBytes'>>;

export interface SessionOptions {
  /**
   * Repeated-read placeholders for this session (default: the guard's `dedup`). Callers that cannot tell
   * their conversations apart (a shared anonymous session) turn it off: enforcement still applies.
   */
  dedup?: boolean;
}

/** What a session has done, for statistics views. Token figures are estimates (about 4 characters a token). */
export interface SessionStats {
  /** Successful reads (content or placeholder). */
  reads: number;
  contentReads: number;
  placeholderHits: number;
  /** Tokens the placeholders saved, estimated from the size of the content they stood for. */
  estimatedTokensSaved: number;
  /** Applied edits, writes and multiEdits. */
  mutations: number;
  refusals: Partial<Record<ErrorCode, number>>;
}

/** One file in a session's ledger, for views. */
export interface LedgerEntryView {
  /** The path as the session last named it. */
  path: string;
  /** Version seen; undefined when the session saw the path missing. */
  version: string | undefined;
  totalLines: number;
  /** Seen line ranges, flat inclusive pairs: [from1, to1, from2, to2, …]. */
  seen: readonly number[];
  /** The same as text, e.g. "1–40, 80–95". */
  seenText: string;
  /** Clock time the entry was last recorded. */
  recordedAt: number;
  /** Who changed the file after this session last saw it, when an adapter said (a hint; content decides). */
  changedBy?: ChangeSource;
}

export interface LedgerChange {
  sessionId: string;
  /** The path as the session named it (absolute). */
  path: string;
}

export interface Guard {
  /** Gets or creates a session; ids are opaque strings. Options apply when the session is created. */
  session(id: string, options?: SessionOptions): GuardSession;
  /**
   * Tells the guard who changed a file (an adapter's watcher or document events), so refusals can name the
   * source. A hint only: staleness is always decided by content.
   */
  noteChange(path: string, source: ChangeSource): void;
  /** Applies new settings to every session at once (the extension's settings apply live). */
  configure(settings: GuardSettings): void;
  /** Ids of the live sessions. */
  sessionIds(): string[];
  /** Forgets a session entirely (its ledger and statistics); a later `session(id)` starts afresh. */
  dropSession(id: string): void;
  /** Hears every change to any session's ledger; returns the unsubscribe function. */
  onDidChangeLedger(listener: (change: LedgerChange) => void): () => void;
  dispose(): void;
}

export interface ReadOptions {
  offset?: number;
  limit?: number;
  force?: boolean;
  signal?: AbortSignal;
}

export interface MutationOptions {
  expectedVersion?: string;
  explanation?: string;
  signal?: AbortSignal;
}

export interface GuardSession {
  readonly id: string;
  read(path: string, options?: ReadOptions): Promise<ReadResult>;
  edit(path: string, edits: Edit[], options?: MutationOptions): Promise<MutationResult>;
  write(path: string, content: string, options?: MutationOptions): Promise<MutationResult>;
  /** All files or none. */
  multiEdit(changes: { path: string; edits: Edit[] }[], options?: { explanation?: string; signal?: AbortSignal }): Promise<MutationResult>;
  check(path: string): Promise<'unknown' | 'stale' | 'fresh'>;
  /** Forgets everything seen (call after context compaction). */
  clear(): void;
  /** A snapshot of this session's statistics. */
  stats(): SessionStats;
  /** A snapshot of this session's ledger, most recently used last. */
  entries(): LedgerEntryView[];
}

export interface ApprovalFile {
  path: string;
  created: boolean;
  before: string;
  after: string;
  /** Unified diff of before → after. */
  diff: string;
}

export interface ApprovalRequest {
  sessionId: string;
  operation: 'edit' | 'write' | 'multiEdit';
  explanation?: string;
  files: ApprovalFile[];
  /** Aborted when the call is cancelled. */
  signal: AbortSignal;
  /**
   * Re-plans the same change against the files' current content, for when a file changed during review. On
   * success the change an approval applies is the refreshed one (show its files); a refusal means the change
   * can no longer be applied as proposed (approving it is then refused, and nothing is written).
   */
  refresh(): Promise<{ ok: true; files: ApprovalFile[] } | Refusal>;
}

export type ApprovalDecision =
  /** `files`: optional final content per file (the user accepted only some hunks or changed the proposal). */
  | { approved: true; files?: { path: string; content: string }[] }
  | { approved: false; reason?: string };

/** `oldString` "" on a path that does not exist creates the file with `newString`. */
export interface Edit {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
}

export type ReadResult =
  | { ok: true; kind: 'content'; text: string; startLine: number; endLine: number; totalLines: number; truncated: boolean; version: string }
  | { ok: true; kind: 'unchanged'; text: string; startLine: number; endLine: number; version: string }
  | Refusal;

export interface MutatedFile {
  path: string;
  version: string;
  created: boolean;
  diff: string;
}

export type MutationResult = { ok: true; text: string; files: MutatedFile[] } | Refusal;
