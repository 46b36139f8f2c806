/**
 * The facts a change of one file is decided on, gathered from the world: what the session's ledger says, the
 * file's stat, and, only when the decision asks for them (`Need`), the near misses of a missing path, whether a
 * move's destination is taken, the first bytes of an unread file, the file's content, another name the session
 * saw it under, the adapter's encoding of the new text. `decideMutation` never touches the world; this is the
 * only place a change's planning does.
 */
import type { ChangeNote } from '../ledger/changeNotes';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { allowedSuggestions } from '../path/allowedSuggestions';
import type { FileStat } from '../ports';
import type { SniffResult } from '../text/binarySniff';
import { type LoadedFile, sniffHead } from '../text/loadText';
import type { CallFiles } from './callFiles';
import type { GuardContext, Limits } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import { findAlias } from './aliases';
import type { PlanInput } from './filePlan';

export interface MutationFacts {
  sessionId: string;
  /** `SessionOptions.standalone`: refusals ask for an expectedVersion, not a read in this session. */
  standalone: boolean;
  now: number;
  /** The session's read caps (within its result budget). */
  limits: Limits;
  /** The guard's own size limit for files it changes. */
  maxFileBytes: number;
  diffBudget: { maxChars: number; maxLineLength: number } | undefined;
  input: PlanInput;
  /** Undefined: nothing at the path. */
  stat: FileStat | undefined;
  /** The session's entry at the path, whichever file it was. */
  entry: LedgerEntry | undefined;
  /** The session has an entry under another name with this file's identity. */
  aliasCandidate: boolean;
  /** The text of the version the entry saw, while the snapshot store keeps it. */
  snapshot: string | undefined;
  /** The latest change note for the file (who changed it), if any. */
  note: ChangeNote | undefined;
  /** Gathered on demand (`Need`). */
  suggestions?: string[];
  destinationTaken?: boolean;
  head?: SniffResult;
  loaded?: LoadedFile;
  /** The entry of another name the session saw this content under; null when there is none. */
  alias?: LedgerEntry | null;
}

/** What the decision needs to know before it can decide. */
export type Need = 'suggestions' | 'destination' | 'head' | 'content' | 'alias';

export function startFacts(ctx: GuardContext, s: SessionState, input: PlanInput, stat: FileStat | undefined): MutationFacts {
  const entry = s.ledger.at(input.target);
  return {
    sessionId: s.id,
    standalone: s.standalone,
    now: ctx.clock.now(),
    limits: s.limits(ctx.limits),
    maxFileBytes: ctx.limits.maxFileBytes,
    diffBudget: s.diffBudget(ctx.limits),
    input,
    stat,
    entry,
    aliasCandidate: stat !== undefined && s.ledger.hasIdentity(stat.identity),
    snapshot: entry?.version === undefined ? undefined : ctx.snapshots.get(entry.version),
    note: ctx.changes.latest(input.target),
  };
}

export async function gather(ctx: GuardContext, s: SessionState, facts: MutationFacts, need: Need, files: CallFiles): Promise<void> {
  const { input, stat } = facts;
  switch (need) {
    case 'suggestions':
      facts.suggestions = await allowedSuggestions(ctx.fs, ctx.paths, input.path);
      return;
    case 'destination':
      facts.destinationTaken = input.moveTo !== undefined && (await ctx.fs.lstat(input.moveTo.target)) !== undefined;
      return;
    case 'head':
      facts.head = await sniffHead(ctx.fs, input.target);
      return;
    case 'content':
      facts.loaded = await files.load(input.target, stat as FileStat);
      return;
    case 'alias': {
      const version = facts.loaded?.kind === 'text' ? facts.loaded.file.version : undefined;
      facts.alias = (stat && version && (await findAlias(ctx, s, input.target, stat.identity, version))) || null;
      return;
    }
  }
}
