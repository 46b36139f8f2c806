/**
 * Plans one file's change for edit, write or multiEdit, in the guard's order: file kind checks → prior-read
 * decision from the ledger (before any content is used) → content version → staleness → the change itself →
 * encoding check. Nothing is written here; a plan is what approval shows and what `commitPlans` applies.
 */
import { displayPath } from '../path/displayPath';
import { decideStaleness } from '../ledger/staleness';
import { decidePriorRead } from './decidePriorRead';
import { applyEdits } from '../edit/applyEdits';
import type { TextEncoding } from '../edit/encoding';
import { eolStyle, indexLines, type LineIndex, withEol } from '../edit/lineEndings';
import { computeLineChanges } from '../edit/lineDiff';
import { EMPTY, type LineChange, type Ranges, formatRanges, gaps, rangesOf } from '../ledger/coverage';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { allowedSuggestions } from '../path/allowedSuggestions';
import type { FileStat } from '../ports';
import { sniffBinary } from '../read/binarySniff';
import { linesBeyondReadCap, linesToReadAlone } from '../read/longLines';
import { editRefusal } from '../refusals/editRefusal';
import { type Refusal, refuse } from '../refusals/refusal';
import type { Edit } from '../types';
import { fileChanged, refuseAppeared, refuseVanished, refuseWithDiff, refuseWithoutDiff } from '../refusals/fileChanged';
import type { GuardContext, Limits } from '../context/guardContext';
import { encodeFor, encodingName, type FileText, lineAt, loadFile } from '../read/loadText';
import { specialKindName } from '../refusals/specialFile';
import type { SessionState } from '../context/sessionState';
import { findAlias } from './aliases';
import { binaryFile } from '../refusals/binaryFile';
import { editNoChange } from '../refusals/editNoChange';
import { fileExists } from '../refusals/fileExists';
import { fileNotFound } from '../refusals/fileNotFound';
import { fileTooLarge } from '../refusals/fileTooLarge';
import { outsideSeenRange } from '../refusals/outsideSeenRange';
import { requiresPriorRead } from '../refusals/requiresPriorRead';
import { specialFile } from '../refusals/specialFile';
import { targetIsDirectory } from '../refusals/targetIsDirectory';
import { writeFailed } from '../refusals/writeFailed';

export type ChangeRequest = { kind: 'edit'; edits: Edit[] } | { kind: 'write'; content: string } | { kind: 'delete' };

export interface PlanInput {
  path: string;
  target: string;
  request: ChangeRequest;
  expectedVersion?: string;
  /** The file moves here (after its edits apply); both paths passed the path policy. */
  moveTo?: { path: string; target: string };
}

export interface FilePlan {
  path: string;
  target: string;
  created: boolean;
  /** The file is removed (`afterText` is ''). */
  deleted?: boolean;
  /** The file moves here: `afterBytes` are created there and the file at `target` is removed. */
  movedTo?: { path: string; target: string };
  /** The file as planned against (absent for a new file). */
  stat?: FileStat;
  before?: FileText;
  beforeText: string;
  encoding: TextEncoding;
  afterText: string;
  /** Coverage of the current version before the change (what the session had seen). */
  seenBefore: Ranges;
  /** Coverage of the new version if the plan is applied as proposed. */
  seenAfter: Ranges;
  replacements: number;
  /** Line changes from `beforeText` to `afterText` (computed once, for the approval diff and the result). */
  changes: LineChange[];
  /** `afterText` encoded in the file's encoding. */
  afterBytes: Uint8Array;
  beforeIndex: LineIndex;
  afterIndex: LineIndex;
}

async function readHead(ctx: GuardContext, target: string): Promise<Uint8Array> {
  const reader = await ctx.fs.openChunkReader(target);
  try {
    const head = new Uint8Array(8192);
    const count = await reader.read(head, 0);
    return head.subarray(0, count);
  } finally {
    await reader.close();
  }
}

function allLines(text: string): Ranges {
  return rangesOf(1, indexLines(text).count);
}

function planCreate(input: PlanInput & { request: Exclude<ChangeRequest, { kind: 'delete' }> }, limits: Limits): FilePlan | Refusal {
  const { request } = input;
  let text: string;
  let replacements = 0;
  if (request.kind === 'write') {
    text = request.content;
  } else {
    // The first edit has an empty oldString (the caller checked): it creates the file.
    const [first, ...rest] = request.edits;
    text = first.newString;
    if (rest.length) {
      const applied = applyEdits(text, rest, allLines(text));
      if (!applied.ok) return editRefusal(input.path, applied, limits, undefined, true);
      text = applied.text;
      replacements = applied.replacements;
    }
  }
  const afterBytes = new TextEncoder().encode(text);
  if (afterBytes.length > limits.maxFileBytes) return fileTooLarge.content(input.path, afterBytes.length, limits.maxFileBytes);
  const afterIndex = indexLines(text);
  return {
    path: input.path,
    target: input.target,
    created: true,
    beforeText: '',
    encoding: 'utf8',
    afterText: text,
    seenBefore: [],
    seenAfter: rangesOf(1, afterIndex.count),
    replacements,
    changes: computeLineChanges('', text),
    afterBytes,
    beforeIndex: indexLines(''),
    afterIndex,
  };
}

/**
 * What the session itself has seen of the current version: its own coverage, carried over a change that did
 * not touch it. An expectedVersion authorizes one call; it shows the session nothing.
 */
function ownCoverage(ctx: GuardContext, entry: LedgerEntry | undefined, current: FileText): Ranges {
  if (!entry?.version) return EMPTY;
  if (entry.version === current.version) return entry.seen;
  const staleness = decideStaleness({
    seenVersion: entry.version,
    seen: entry.seen,
    currentVersion: current.version,
    currentText: current.text,
    currentLines: current.index.count,
    snapshot: ctx.snapshots.get(entry.version),
    wholeFile: false,
  });
  if (staleness.kind === 'touched') return staleness.seenUntouched;
  return staleness.kind === 'unknown' ? EMPTY : staleness.seen;
}

/** A plan (or the refusal) and what the ledger learns from planning, applied by the caller once it is known
 * whether the agent gets this outcome (a refresh during review shows it to the user only). */
export interface Planned {
  outcome: FilePlan | Refusal;
  updates: LedgerEntry[];
}

export async function planFile(ctx: GuardContext, s: SessionState, input: PlanInput): Promise<Planned> {
  const updates: LedgerEntry[] = [];
  const outcome = await planInto(ctx, s, input, updates);
  return { outcome, updates };
}

async function planInto(ctx: GuardContext, s: SessionState, input: PlanInput, updates: LedgerEntry[]): Promise<FilePlan | Refusal> {
  const { path, target, request } = input;
  const stat = await ctx.fs.stat(target);
  const creates = request.kind === 'edit' && request.edits[0]?.oldString === '';
  // Deleting or moving a file removes every line of it: like a write, it needs the whole current version seen.
  const wholeFile = request.kind !== 'edit' || input.moveTo !== undefined;
  const entry = s.ledger.at(target);

  if (!stat) {
    const decision = decidePriorRead({ exists: false, entry, expectedVersion: input.expectedVersion });
    if (decision.kind === 'refuse') {
      if (decision.reason === 'vanished' && decision.entry) {
        updates.push({ ...decision.entry, identity: undefined, version: undefined, totalLines: 0, seen: [], shown: [], recordedAt: ctx.clock.now() });
        return refuseVanished(ctx.changes, s.id, path, target, decision.entry);
      }
      return fileChanged.expectedMissing(path, input.expectedVersion);
    }
    if ((request.kind === 'edit' && !creates) || request.kind === 'delete') return fileNotFound.missing(path, await allowedSuggestions(ctx, path));
    if (input.moveTo) return creates ? refuse('INVALID_INPUT', `${displayPath(path)} does not exist yet: create it at ${displayPath(input.moveTo.path)} instead of creating and moving it.`) : fileNotFound.missing(path, await allowedSuggestions(ctx, path));
    if (request.kind !== 'edit' && request.kind !== 'write') throw new Error('unreachable');
    return planCreate({ ...input, request }, s.limits(ctx.limits));
  }
  if (stat.kind === 'directory') return targetIsDirectory.directory(path, []);
  if (stat.kind !== 'file') return specialFile.special(path, specialKindName(stat.kind));
  if (creates) return fileExists.exists(path);
  // Facts of the file, not of what the session saw: refused before asking for a read that could not help.
  if (stat.nlink > 1) return writeFailed.hardLinked(path, `has ${stat.nlink} hard links`);
  if ((stat.mode & 0o222) === 0) return writeFailed.readOnly(path, `mode ${(stat.mode & 0o7777).toString(8).padStart(4, '0')}`);
  if (stat.size > ctx.limits.maxFileBytes) return fileTooLarge.tooLarge(path, stat.size, ctx.limits.maxFileBytes);

  // An unsaved buffer (the adapter folds its revision into the version) is text that exists nowhere else.
  if ((request.kind === 'delete' || input.moveTo) && stat.revision !== undefined) return writeFailed.unsaved(path, request.kind === 'delete' ? 'delete' : 'move');
  if (input.moveTo) {
    const destination = await ctx.fs.lstat(input.moveTo.target);
    if (destination) return fileExists.moveDestination(path, input.moveTo.path);
  }
  const verb = request.kind === 'edit' ? (input.moveTo ? 'moves' : 'edits') : request.kind === 'write' ? 'writes' : 'deletes';
  // Decided from the ledger alone: an unread file's content is never loaded (seed review: no in-memory
  // custody of bytes the model never read, and no error code that depends on them). Only its first bytes
  // are sniffed, so a binary file gets BINARY_FILE instead of a request to read something unreadable.
  const decision = decidePriorRead({ exists: true, entry, aliasCandidate: s.ledger.hasIdentity(stat.identity), expectedVersion: input.expectedVersion });
  const refuseUnread = async (appeared?: LedgerEntry): Promise<Refusal> => {
    const head = await readHead(ctx, target);
    const sniff = sniffBinary(head);
    if (sniff.binary) return binaryFile.binary(path, sniff.type, stat.size, verb);
    if (appeared) return refuseAppeared(ctx.changes, s.id, path, target, appeared, undefined);
    return requiresPriorRead.unread(path, s.standalone);
  };
  if (decision.kind === 'refuse') return refuseUnread(decision.code === 'FILE_CHANGED_SINCE_READ' ? decision.entry : undefined);
  const loaded = await loadFile(ctx, target, stat);
  if (loaded.kind === 'binary') return binaryFile.binary(path, loaded.type, loaded.size, verb);
  const current = loaded.file;

  let seen: Ranges;
  let own: Ranges | undefined;
  switch (decision.kind) {
    case 'create':
      throw new Error('unreachable: an existing file is never created');
    case 'expected':
      if (current.version !== decision.expectedVersion) {
        return fileChanged.expectedMismatch(path, decision.expectedVersion, s.standalone);
      }
      seen = allLines(current.text);
      own = ownCoverage(ctx, entry, current);
      break;
    case 'alias': {
      // The file the session saw under another name (renamed here), in exactly that content: the same coverage.
      const alias = await findAlias(ctx, s, target, stat.identity, current.version);
      if (!alias) return requiresPriorRead.unread(path, s.standalone);
      seen = alias.seen;
      updates.push({ ...alias, target, path, recordedAt: ctx.clock.now() });
      break;
    }
    case 'verify': {
      const seenEntry = decision.entry;
      const snapshot = seenEntry.version ? ctx.snapshots.get(seenEntry.version) : undefined;
      const staleness = decideStaleness({
        seenVersion: seenEntry.version as string,
        seen: seenEntry.seen,
        currentVersion: current.version,
        currentText: current.text,
        currentLines: current.index.count,
        snapshot,
        wholeFile,
      });
      const facts = { sessionId: s.id, path, target, identity: stat.identity, entry: seenEntry, current, when: 'since you read it', now: ctx.clock.now(), budget: s.diffBudget(ctx.limits) };
      if (staleness.kind === 'unknown') return refuseWithoutDiff(ctx.changes, facts);
      if (staleness.kind === 'touched') {
        const { refusal, update } = refuseWithDiff(ctx.changes, facts, snapshot as string, staleness.changes, staleness.seenUntouched);
        updates.push(update);
        return refusal;
      }
      if (staleness.kind === 'carried' || seenEntry.identity !== stat.identity) {
        // The change missed everything this session saw (or the same bytes now live on another inode): its
        // coverage moves to the current version and identity.
        updates.push({ ...seenEntry, identity: stat.identity, target, path, version: current.version, totalLines: current.index.count, seen: staleness.seen, shown: staleness.kind === 'same' ? seenEntry.shown : [], recordedAt: ctx.clock.now() });
        ctx.logger.debug('[guard] coverage carried over', { session: s.id, path, from: seenEntry.version, to: current.version, seen: formatRanges(staleness.seen) });
      }
      seen = staleness.seen;
      break;
    }
  }

  let afterText: string;
  let seenAfter: Ranges;
  let replacements = 0;
  let changes: LineChange[] | undefined;
  if (wholeFile) {
    const unseen = gaps(seen, 1, current.index.count);
    if (unseen.length) {
      const limits = s.limits(ctx.limits);
      const beyond = linesBeyondReadCap(unseen, (line) => lineAt(current, line), limits, current.index.longest);
      const what = request.kind === 'write' ? 'write' : request.kind === 'delete' ? 'delete' : 'move';
      if (beyond.length) return outsideSeenRange.writeBeyondReadCap(path, formatRanges(unseen), current.index.count, beyond.join(', '), limits, what);
      const readAlone = { lines: linesToReadAlone(unseen, (line) => lineAt(current, line), limits, current.index.longest), maxLineLength: limits.maxLineLength };
      return outsideSeenRange.writeNeedsFullRead(path, formatRanges(unseen), current.index.count, readAlone, what);
    }
  }
  if (request.kind === 'edit' && request.edits.length > 0) {
    const applied = applyEdits(current.text, request.edits, seen, current.index, own);
    if (!applied.ok) return editRefusal(path, applied, s.limits(ctx.limits), current);
    afterText = applied.text;
    seenAfter = applied.seen;
    replacements = applied.replacements;
    changes = applied.changes;
  } else if (request.kind === 'edit') {
    // A move alone: the content goes as it is, fully seen.
    afterText = current.text;
    seenAfter = seen;
  } else if (request.kind === 'delete') {
    afterText = '';
    seenAfter = [];
  } else {
    // A file whose line endings were all CRLF (or all CR) keeps them; the encoding (and its BOM) is kept.
    const style = eolStyle(current.text);
    afterText = style === 'crlf' || style === 'cr' ? withEol(request.content, style === 'crlf' ? '\r\n' : '\r') : request.content;
    if (afterText === current.text) return editNoChange.noChange(path);
    seenAfter = [];
  }
  const encoded = request.kind === 'delete' ? { ok: true as const, bytes: new Uint8Array(0) } : await encodeFor(current, afterText);
  if (!encoded.ok) {
    return refuse('INVALID_INPUT', `${displayPath(path)} is ${encodingName(current)}, which cannot hold the character ${JSON.stringify(encoded.char)} (U+${encoded.char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}) your change contains. Nothing was written; use characters that exist in this encoding.`);
  }
  if (encoded.bytes.length > ctx.limits.maxFileBytes) return fileTooLarge.content(path, encoded.bytes.length, ctx.limits.maxFileBytes);
  const afterIndex = indexLines(afterText);
  if (request.kind === 'write') seenAfter = rangesOf(1, afterIndex.count);
  return {
    path,
    target,
    created: false,
    ...(request.kind === 'delete' ? { deleted: true } : {}),
    ...(input.moveTo ? { movedTo: input.moveTo } : {}),
    stat,
    before: current,
    beforeText: current.text,
    encoding: current.encoding,
    afterText,
    seenBefore: own ?? seen,
    seenAfter,
    replacements,
    changes: changes ?? computeLineChanges(current.text, afterText, { old: current.index, new: afterIndex }),
    afterBytes: encoded.bytes,
    beforeIndex: current.index,
    afterIndex,
  };
}
