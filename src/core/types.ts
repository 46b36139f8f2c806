/**
 * The public contract of the headless library: names and result shapes are binding, and additions extend it
 * without renaming anything. Types a lower module owns (an edit, a result budget, a revert target) are re-exported.
 */
import type { ChangeSource, Clock, FileSystem, Logger } from './ports';
import type { ErrorCode, Refusal } from './refusals/refusal';
import type { Edit, MultiEditChange } from './edit/editTypes';
import type { Hunk } from './edit/hunks';
import type { ChangeRecord } from './history/changeRecord';
import type { ExportOptions } from './history/exportLines';
import type { History, HistoryFilter } from './history/history';
import type { RevertConflict, RevertTarget } from './history/revertTypes';
import type { ResultBudget } from './text/resultBudget';

export type { ChangeSource, Edit, ErrorCode, MultiEditChange, Refusal, ResultBudget, RevertTarget };

export interface GuardLimits {
  /** Lines returned by one read (default 2000). */
  maxLines?: number;
  /** Bytes of content returned by one read (default 100,000). */
  maxBytes?: number;
  /** Longer lines are shortened and marked among shorter ones; read alone, shown whole (default 2000 characters). */
  maxLineLength?: number;
  /** edit/write of a larger file, or one whose content would become larger (a new file too), is refused with FILE_TOO_LARGE (default 10 MiB). */
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
  /**
   * Keep a history of every applied change in this folder (absolute; created mode 0700), with the bytes of each
   * file before and after, so `Guard.history` lists them and `Guard.revert` undoes them. Within `maxBytes`
   * (default 200 MB) and `maxAgeDays` (default 30), oldest first. Recording never delays or fails a change: a
   * full disk drops that record with a warning in the log. Several guards, in one process or several, may share
   * the folder: every `history()`, `revert` and `exportHistory` reads the records as they are on disk then, so
   * each sees what the others recorded (a record still being stored is listed once it is written).
   */
  history?: { dir: string; maxBytes?: number; maxAgeDays?: number };
  /**
   * A history built by the caller (e.g. the VS Code adapter's, on its own storage); wins over `history`. The
   * caller owns it: the guard records into it and reads it, and never reconfigures or closes it.
   */
  historyStore?: History;
}

/** The settings `Guard.configure` can change while sessions live (roots, deny rules, dedup, caps, memory). */
export type GuardSettings = Partial<Pick<GuardOptions, 'roots' | 'deny' | 'dedup' | 'limits' | 'snapshotBudgetBytes'>>;

export interface SessionOptions {
  /**
   * Repeated-read placeholders for this session (default: the guard's `dedup`). Callers that cannot tell
   * their conversations apart turn it off: enforcement still applies.
   */
  dedup?: boolean;
  /**
   * The session serves one call of a caller that keeps no conversation (e.g. a tool call without a chat; the
   * adapter drops it afterwards): no placeholders, and a refusal of an unread or changed file asks for the
   * read's version as `expectedVersion` rather than a read in this session. Enforcement is the same.
   */
  standalone?: boolean;
  /**
   * The most a result of this session may hold, for clients that cut longer tool results (
   * nothing is counted that the client did not show). Reads stop at a line boundary within it and are marked
   * cut; diffs in refusals and results are cut to fit and long lines in them shortened; only what a result
   * shows counts as shown or seen. Default: no budget beyond `limits`.
   */
  resultBudget?: ResultBudget;
  /**
   * Where the session's changes come from, as the change history records it (`ChangeRecord.surface`): 'chat',
   * 'tool', 'mcp', 'api' (default) or 'palette' (the user's own command); any other string is kept as given.
   * Given again for a live session, it replaces the old one (later changes are recorded with it).
   */
  surface?: string;
  /**
   * Who the session is, for people reading the history (`ChangeRecord.label`): an MCP client's name and version,
   * a chat's title, an API caller's name. Default: the session id. Given again, it replaces the old one.
   */
  label?: string;
}

/** What a session has done, for statistics views. Token figures are estimates (about 4 characters a token). */
export interface SessionStats {
  /** Successful reads (content or placeholder). */
  reads: number;
  contentReads: number;
  placeholderHits: number;
  /** Re-reads answered with only what changed (`kind: 'delta'`). */
  deltaReads: number;
  /** Tokens the placeholders and deltas saved, estimated from the size of the content they stood for. */
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

/** A session as it was when it was dropped (`Guard.onWillDropSession`). */
export interface EndedSession {
  sessionId: string;
  /** `GuardSession.startedAt`. */
  startedAt: number;
  reason: 'ended' | 'forgotten';
  stats: SessionStats;
  entries: LedgerEntryView[];
}

export interface LedgerChange {
  sessionId: string;
  /** The path as the session named it (absolute). */
  path: string;
}

export interface Guard {
  /**
   * Gets or creates a session; ids are opaque strings. Options apply when the session is created, except
   * `resultBudget`, `surface` and `label`, which given again replace a live session's (a client's limit setting
   * changed; an MCP client said its name).
   */
  session(id: string, options?: SessionOptions): GuardSession;
  /**
   * Tells the guard who changed a file (an adapter's watcher or document events), so refusals can name the
   * source. A hint only: staleness is always decided by content.
   */
  noteChange(path: string, source: ChangeSource): void;
  /** Applies new settings to every session at once (the extension's settings apply live). */
  configure(settings: GuardSettings): void;
  /**
   * Starts reading a file for a read about to come (VS Code asks a tool for its progress message a round trip
   * before it runs the tool). The next read of the same path, by any session, within a second and with no write by
   * the guard in between, shows the bytes read now instead of reading again, as if it had read them at this moment.
   * Best effort: never throws, and reads nothing a read would refuse.
   */
  readAhead(path: string): void;
  /** Ids of the live sessions. */
  sessionIds(): string[];
  /**
   * Whether a session with this id is live. Views and reports look with it first: `session(id)` creates a
   * missing session, so looking through it would bring a dropped session back (empty).
   */
  hasSession(id: string): boolean;
  /**
   * Forgets a session entirely (its ledger and statistics); a later `session(id)` starts afresh. `reason`:
   * 'ended' (default: its conversation or call is over) or 'forgotten' (the user asked to forget it).
   */
  dropSession(id: string, reason?: 'ended' | 'forgotten'): void;
  /**
   * Hears a session about to be dropped, with what it did and saw, so views can keep ended sessions; not for
   * sessions of one call (`standalone`). Returns the unsubscribe function.
   */
  onWillDropSession(listener: (ended: EndedSession) => void): () => void;
  /** Hears every change to any session's ledger (standalone sessions' excepted: they end with their call); returns the unsubscribe function. */
  onDidChangeLedger(listener: (change: LedgerChange) => void): () => void;
  /**
   * Hears every session that forgot what it had seen (`clear()`, or `dropSession`), with its id; returns the
   * unsubscribe function. Adapters drop what they keep per session on it (e.g. approval grants).
   */
  onDidForgetSession(listener: (sessionId: string) => void): () => void;
  /**
   * The change history, newest first (changes still being stored are waited for, so a change just applied is
   * listed). `path` matches a changed file's path or a renamed file's old name. Empty without `history`.
   */
  history(filter?: HistoryFilter): Promise<ChangeRecord[]>;
  /**
   * Undoes one recorded change, every change of a session (newest first), or what a session did to one file
   * (`{ sessionId, path }`: its changes of that file only, following the file back through its moves), while
   * keeping every change made since elsewhere in the files byte for byte. Planned against the files as they are now (through the file
   * system port, so unsaved editor text counts), then asked for approval and written all or none like any
   * multi-file change; a file that changes between the plan and the write is refused as stale. A revert needs
   * no read: the user owns it. Lines changed since that the revert must restore are a conflict: the approval
   * request lists them (`ApprovalRequest.conflicts`) and the merged parts are written only on an approval with
   * `takeMerged: true`; otherwise REVERT_CONFLICT, nothing written. The revert runs in a session of its own
   * (`revert:<uuid>` unless `sessionId` is given, surface 'palette' unless given) and is recorded with
   * `revertOf` (for a session or a file of it: the newest change reverted), so it can be reverted too. A target
   * with any other field, or a field that is not a non-empty string, is INVALID_INPUT and nothing is changed.
   */
  revert(target: RevertTarget, options?: RevertOptions): Promise<MutationResult>;
  /**
   * Writes the history as JSON Lines (oldest first; one `write` call per line, awaited) and resolves to the
   * number of lines. File contents only with `contents: true` (base64, per version). 0 without `history`.
   */
  exportHistory(write: (line: string) => void | Promise<void>, options?: ExportOptions): Promise<number>;
  /**
   * Ends every session (later calls return CANCELLED) and resolves once the records of changes already applied
   * are stored, waiting at most 10 s. A history the guard made from `history` is then closed: nothing more is
   * written to its folder. A `historyStore` is waited for the same way but left open (its owner closes it).
   */
  dispose(): Promise<void>;
}

export interface RevertOptions {
  /** Why, to show the user in the approval and to keep in the history (default: names what is reverted). */
  explanation?: string;
  signal?: AbortSignal;
  /** The revert's own session id (default `revert:<uuid>`); its changes can be reverted by it. */
  sessionId?: string;
  /** The revert session's `surface` (default 'palette': the user asked for it). */
  surface?: string;
  /** The revert session's `label` (default "Revert of <what>"). */
  label?: string;
}

export interface ReadOptions {
  offset?: number;
  limit?: number;
  force?: boolean;
  /**
   * This call's own result budget (a caller that learns it per call, such as VS Code's `tokenBudget`): the result
   * stays within it as well as within the session's; only what it shows counts as shown.
   */
  maxChars?: number;
  signal?: AbortSignal;
}

export interface MutationOptions {
  expectedVersion?: string;
  explanation?: string;
  signal?: AbortSignal;
}

export interface GuardSession {
  readonly id: string;
  /** When the guard opened this session (its clock, ms): tells two sessions of the same client apart. */
  readonly startedAt: number;
  read(path: string, options?: ReadOptions): Promise<ReadResult>;
  edit(path: string, edits: Edit[], options?: MutationOptions): Promise<MutationResult>;
  write(path: string, content: string, options?: MutationOptions): Promise<MutationResult>;
  /** All files or none: edits, creations, deletions and moves of several files as one change. */
  multiEdit(changes: MultiEditChange[], options?: { explanation?: string; signal?: AbortSignal }): Promise<MutationResult>;
  /** Removes a file the session has fully seen in its current version (reviewed like any change). */
  delete(path: string, options?: MutationOptions): Promise<MutationResult>;
  /** Moves a file the session has fully seen to a path that does not exist (reviewed like any change). */
  rename(from: string, to: string, options?: MutationOptions): Promise<MutationResult>;
  /**
   * Applies a patch the session's agent wrote (a unified diff, search/replace blocks or OpenAI's apply_patch
   * format) as one reviewed change, all files or none, under the same rules as its edits: every context and
   * removed line must be a line it has seen in the current version, new files need no read, deleting, moving
   * or copying a file needs all of it seen. Nothing is read on its behalf.
   */
  applyPatch(patch: string, options?: { explanation?: string; signal?: AbortSignal }): Promise<MutationResult>;
  check(path: string): Promise<'unknown' | 'stale' | 'fresh'>;
  /** Forgets everything seen (call after context compaction). */
  clear(): void;
  /** The most one result of this session may hold (its `resultBudget`, in UTF-8 bytes), or undefined without one. */
  maxResultChars(): number | undefined;
  /** A snapshot of this session's statistics. */
  stats(): SessionStats;
  /** A snapshot of this session's ledger, most recently used last. */
  entries(): LedgerEntryView[];
  /**
   * An agent's own read tool is about to read a file (its client's hook, before the call): notes the version it
   * reads and the lines it will show. Never refuses: reads are not the guard's to stop.
   */
  beforeOwnRead(call: OwnReadCall): Promise<{ ok: true } | Refusal>;
  /**
   * ...and has read it: the lines it showed count as seen, if the file held the same version throughout. `shown`:
   * the lines the client says its tool returned (Claude Code's hook reports them), which the cut is narrowed to.
   */
  afterOwnRead(callId: string, shown?: ShownRange | ShownOutput): Promise<ObservedRead | Refusal>;
  /**
   * An agent's own edit tool is about to change files: decides as for this session's own edits (exact matches in
   * lines it has seen, unchanged since), through the `approve` port; writes nothing. The tool then writes.
   */
  judgeOwnChange(call: OwnChangeCall): Promise<OwnChangeJudgement>;
  /**
   * ...and has run: the change is recorded (history, who changed the files) and what it wrote counts as seen.
   * `settleMs`: how long to wait for the tool's write to land, for a client that applies it a moment after the
   * tool returned (default 0); one not landed by then is recorded once it lands, before the session's next call.
   */
  afterOwnChange(callId: string, options?: { settleMs?: number }): Promise<RecordedOwnChange | Refusal>;
}

/** One file of a change awaiting approval, as it would be written if approved unchanged. */
export interface ApprovalFile {
  /**
   * Absolute, normalized path as the agent named it (not a symlink's target). A decision's `files` entries
   * are matched to this exact string.
   */
  path: string;
  /** The file does not exist yet and the change creates it (with its missing parent directories). */
  created: boolean;
  /** The change removes the file (`after` is ''). */
  deleted?: boolean;
  /** The change moves the file to this path (absolute, normalized); `after` is its content there. */
  movedTo?: string;
  /** The file's current text as the agent may change it (decoded; '' for a created file). */
  before: string;
  /** The text the change proposes: what is written if the approval names no other content. */
  after: string;
  /** Unified diff of `before` → `after`, with the path in its headers. */
  diff: string;
  /**
   * The same change as data: hunks with their line ranges (1-based, 3 lines of context) and the line changes
   * in each, numbered in `before` and `after`. Accepting some of them is `applyHunks(before, after, hunks, rejected)`.
   */
  hunks: Hunk[];
}

/**
 * What the `approve` port is asked before anything is written : one request per edit, write
 * or multiEdit call, listing every file the call changes. Nothing is written while it is pending.
 *
 * The per-file lock of every listed file is held while the request is pending: other edit, write and multiEdit
 * calls on those files (from any session) wait for the decision; reads do not wait. After the decision the
 * guard re-checks each file's path and version, so a file changed, deleted or re-linked during review is
 * refused (FILE_CHANGED_SINCE_READ or PATH_DENIED) and nothing is written.
 *
 * If `approve` throws or its promise rejects, the call is refused with REJECTED_BY_USER ("the approval could
 * not be completed") and nothing is written; the guard never throws it on to the caller.
 */
export interface ApprovalRequest {
  /** Id of the session making the call (`Guard.session(id)`). */
  sessionId: string;
  /** The GuardSession method that was called ('revert': `Guard.revert`). */
  operation: 'edit' | 'write' | 'multiEdit' | 'delete' | 'rename' | 'revert';
  /** The agent's stated reason for the change (the call's `explanation` option), to show the user. */
  explanation?: string;
  /** Every file the call changes, in the order the call named them; a file named twice appears once. */
  files: ApprovalFile[];
  /**
   * Aborted when the call is cancelled (its own `signal` aborts). The call then returns CANCELLED at once and
   * writes nothing, even if a decision arrives later: close the review UI when it fires.
   */
  signal: AbortSignal;
  /**
   * Re-plans the same change against the files' current content, for when a file changed during review. On
   * success the change an approval applies is the refreshed one (show its files); a refusal means the change
   * can no longer be applied as proposed (approving it is then refused, and nothing is written).
   */
  refresh(): Promise<
    | {
        ok: true;
        files: ApprovalFile[];
        /** A revert's conflicts as planned again (they replace `conflicts`); absent when there are none now. */
        conflicts?: ApprovalConflict[];
      }
    | Refusal
  >;
  /**
   * A revert only: the parts that cannot be reverted as planned, because they were changed since. `files` then
   * hold the merged parts (everything else reverted, conflicting lines kept as they are now). They are written
   * only when the decision says `takeMerged: true`; any other approval is refused with REVERT_CONFLICT.
   */
  conflicts?: ApprovalConflict[];
  /**
   * The agent's own tool (`name`) carries the change out once it is approved (`GuardSession.judgeOwnChange`):
   * only the change as a whole can be taken, so a decision with other content refuses it. `preview: false`: the
   * tool decides the new content itself (`files` show each file as it is now), so there is nothing to review.
   */
  ownTool?: { name: string; preview: boolean };
}

/** One part of a revert that conflicts with what was changed since (`ApprovalRequest.conflicts`). */
export interface ApprovalConflict {
  /** The file as it is now (absolute, as the history recorded it). */
  path: string;
  /**
   * `lines`: lines the revert must restore were changed since; `changedSinceCreated`: a file the change created
   * was changed since, so it is not deleted; `pathTaken`: a file to bring back (deleted, or renamed away) has
   * another file at its path; `missing`: the file the change edited is gone; `alreadyReverted`: a later change
   * already put this part back (nothing to write there, but reverting that later change would bring it back).
   */
  reason: RevertConflict['reason'];
  /** The history record whose revert conflicts. */
  changeId?: string;
  /**
   * Both sides, per range of the file now (1-based, inclusive; `end = start - 1` is the place before `start`):
   * the text there now (kept when the merged parts are taken) and the text the revert wanted there.
   */
  ranges: { start: number; end: number; current: string; wanted?: string }[];
  /** The file's whole text if the merged parts are taken; null when no file would be at `path`. */
  merged: string | null;
}

/** The user's answer to an ApprovalRequest. */
export type ApprovalDecision =
  | {
      /** Apply the change: the proposal (as last refreshed), or the content given in `files`. */
      approved: true;
      /**
       * Optional final content per file, for when the user accepted only some hunks or changed the proposal.
       * An entry applies to the request's file whose `path` it equals exactly (or whose resolved target
       * path it equals); entries naming no file of the request are ignored, and files without an entry get
       * the proposed `after`. `content` is the complete new text of the file, encoded in the file's encoding
       * (a created file as UTF-8; content the encoding cannot hold refuses the call with WRITE_FAILED and
       * writes nothing); content equal to `before` leaves that file unchanged, and if every file is
       * left unchanged the call is refused with REJECTED_BY_USER. The result tells the agent exactly what was
       * applied, including the user's changes.
       */
      files?: {
        /** The `path` of one of the request's files. */
        path: string;
        /** The complete final text of that file. */
        content: string;
      }[];
      /**
       * Who approved, as the change history records it (`ChangeRecord.approvedBy`): 'user' (in a review UI),
       * 'grant' (a "don't ask again" grant), 'policy' (a setting said not to ask), 'approver' (default: a
       * callback that does not say). The guard's default approver says 'policy'.
       */
      approvedBy?: string;
      /**
       * A revert with `conflicts` only: take the merged parts (every other part reverted, the conflicting lines
       * kept as they are now). Without it an approved revert with conflicts is refused (REVERT_CONFLICT).
       */
      takeMerged?: boolean;
    }
  | {
      /** Write nothing: the call is refused with REJECTED_BY_USER and the agent told the files were NOT modified. */
      approved: false;
      /** Why the user rejected the change: passed to the agent in the REJECTED_BY_USER message. */
      reason?: string;
    };

export type ReadResult =
  | { ok: true; kind: 'content'; text: string; startLine: number; endLine: number; totalLines: number; truncated: boolean; version: string }
  | { ok: true; kind: 'unchanged'; text: string; startLine: number; endLine: number; version: string }
  /**
   * A re-read after the file changed, where placeholders are on: only the changed lines (numbered as now) and
   * the unchanged runs named; every unchanged line was shown to the session in `since`, the version it last saw.
   */
  | { ok: true; kind: 'delta'; text: string; startLine: number; endLine: number; totalLines: number; version: string; since: string }
  | Refusal;

export interface MutatedFile {
  /** The path the change named (for a move, where the file was). */
  path: string;
  /** The new content's version ('' for a deleted file). */
  version: string;
  created: boolean;
  /** The file was removed. */
  deleted?: boolean;
  /** The file now lives at this path. */
  movedTo?: string;
  diff: string;
}

export type MutationResult = { ok: true; text: string; files: MutatedFile[] } | Refusal;

// An agent's own tool call, judged by the guard (`GuardSession.beforeOwnRead` … `afterOwnChange`): the agent keeps
// the read and edit tools its client gives it, and the client's hooks bring each call to the guard before and
// after it runs. A read counts as seen for the lines the client showed the model (`ReadCut` says how the client
// cuts them), in the version that held from before the read until after it. A change is allowed only under the
// rules of the guard's own tools, its old text matched exactly (never loosely: the client's own tool looks for
// it again); the client writes it; afterwards the change goes on record and the written lines count as seen.

/**
 * Which lines a client's read tool shows of a file: the range it asked for, clamped to the file as the client
 * clamps it, and cut where the client cuts.
 */
export interface ReadCut {
  /** The first line asked for (1-based); below 1 counts as 1. */
  startLine: number;
  /** The last line asked for (inclusive); undefined: to the end. A range given backwards is turned round. */
  endLine?: number;
  /** Lines longer than this (in UTF-16 code units, without the line break) are shortened by the client: not seen. */
  maxLineChars?: number;
  /**
   * What the client is sure to show of one result, in characters (each line counts its text and a break): the
   * lines from where the range passes it are not counted, as the client may leave them out.
   */
  maxChars?: number;
  /** The client shows a file of only whitespace as a note, not its lines: then nothing counts. */
  blankShownAsNote?: boolean;
}

/** The lines a client reports its read tool returned: `lineCount` lines from `startLine` on. */
export interface ShownRange {
  startLine: number;
  lineCount: number;
}

/**
 * What a shell command showed the model of a file (`cat`, `sed -n`, `nl -ba`, `rg -n` …), as the client reports its
 * output: a line counts only where the output holds it exactly, at the place the command puts it. The client's
 * own markers (a cut's "…N tokens truncated…") match no line, so what they replace never counts.
 */
export interface ShownOutput {
  /** The output the model received. */
  output: string;
  /**
   * `numbered`: each line carries its number (`nl -ba`, `cat -n`: "    12\tline"; `rg -n`, `grep -n`: "12:line"),
   * and counts where its text is the file's line of that number. `plain`: the output is the file's lines from
   * `first` on and up to `last` (negative: counted from the file's end, -1 its last line), matched from each end
   * until the first line that differs; an end not known is not matched from.
   */
  form: 'numbered' | 'plain';
  first?: number;
  last?: number;
}

/** Before an agent's own read tool runs (`GuardSession.beforeOwnRead`). */
export interface OwnReadCall {
  /** The client's id of the tool call, which names the same call after it ran. */
  callId: string;
  path: string;
  cut: ReadCut;
  signal?: AbortSignal;
}

/** What a read by an agent's own tool taught the session (`GuardSession.afterOwnRead`). */
export interface ObservedRead {
  ok: true;
  /** The file as the caller named it ('' when the call was not known). */
  path: string;
  /** The lines that now count as seen, as "1-50, 60" ('' for none). */
  lines: string;
  /** Why nothing (or less than asked) counts, in words, when that is so. */
  note?: string;
}

/**
 * One file of a change an agent's own tool is about to make:
 * - `edit`: its old texts replaced by new ones, matched exactly;
 * - `write`: the whole file replaced (or a new file created) with this content;
 * - `loose`: the tool decides the new content itself (a merge of a sketch, a notebook cell edit): it needs the
 *   whole file seen in its current version, and its result cannot be previewed.
 */
export type OwnChange = { kind: 'edit'; path: string; edits: Edit[] } | { kind: 'write'; path: string; content: string } | { kind: 'loose'; path: string };

/** Before an agent's own edit tool runs (`GuardSession.judgeOwnChange`). */
export interface OwnChangeCall {
  callId: string;
  /** The tool's own name ("replace_string_in_file", "Edit", "apply_patch"), for the review and the history. */
  tool: string;
  /** The files it changes, or a patch (any format `parsePatch` reads) whose hunks are placed by exact context. */
  change: { files: OwnChange[] } | { patch: string };
  explanation?: string;
  signal?: AbortSignal;
}

/** The guard's answer before the tool runs: let it run, or the refusal the client should give the model. */
export type OwnChangeJudgement = { ok: true; files: string[]; approvedBy: string } | Refusal;

/** One file after the tool ran, against what was allowed. */
export interface OwnChangedFile {
  path: string;
  /**
   * - `as-allowed`: the file holds exactly what was allowed;
   * - `different`: it changed, but not into what was allowed (recorded as it is; what the agent wrote is not
   *   counted as seen);
   * - `unchanged`: the tool left it as it was (it failed, or was cancelled);
   * - `unreadable`: it could not be read back.
   */
  outcome: 'as-allowed' | 'different' | 'unchanged' | 'unreadable';
}

/** What the guard did after an agent's own edit tool ran (`GuardSession.afterOwnChange`). */
export interface RecordedOwnChange {
  ok: true;
  /** Empty when the call was not one the guard allowed (unknown, or older than the guard keeps calls). */
  files: OwnChangedFile[];
}
