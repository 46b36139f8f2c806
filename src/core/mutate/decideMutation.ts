/**
 * The decision of one file's change, in the guard's order: facts of the file no read could
 * change (kind, hard links, mode, size, unsaved text, a move's destination) → the prior-read decision from the
 * ledger alone (an unread file's content is never loaded, so no error code can be used to probe it) → what the session has
 * seen of the current version → the change itself → its encoding. Pure: facts in, and out the plan or the
 * refusal with what the ledger learns, or the fact it needs first (`mutationFacts.ts` gathers it).
 */
import { Buffer } from 'node:buffer';
import { encodeText, type EncodeResult, spliceAsciiUtf8 } from '../text/encoding';
import type { Splice } from '../edit/applyEdits';
import { indexLines, type LineIndex } from '../text/lineEndings';
import { computeLineChanges } from '../edit/lineDiff';
import { type LineChange, rangesOf, type Ranges } from '../text/lineRanges';
import type { LedgerEntry } from '../ledger/sessionLedger';
import type { FileStat } from '../ports';
import { encodingName, type FileText } from '../text/loadText';
import { binaryFile } from '../refusals/binaryFile';
import { fileChanged, refuseAppeared, refuseVanished } from '../refusals/fileChanged';
import { fileExists } from '../refusals/fileExists';
import { fileNotFound } from '../refusals/fileNotFound';
import { fileTooLarge } from '../refusals/fileTooLarge';
import { invalidInput } from '../refusals/invalidInput';
import { isRefusal, type Refusal } from '../refusals/refusal';
import { requiresPriorRead } from '../refusals/requiresPriorRead';
import { specialFile, specialKindName } from '../refusals/specialFile';
import { targetIsDirectory } from '../refusals/targetIsDirectory';
import { writeFailed } from '../refusals/writeFailed';
import { changeText } from './changeText';
import { type PriorReadDecision, decidePriorRead } from './decidePriorRead';
import type { ChangeRequest, FilePlan, PlanInput } from './filePlan';
import type { MutationFacts, Need } from './mutationFacts';
import { planCreate } from './planCreate';
import { ownCoverage, seenNow } from './seenNow';

/**
 * A plan before its new text is encoded. `seenAfter` undefined: every line (a write); `changes` undefined: still to
 * diff; `afterIndex` undefined: still to index; `splices`: the old text's ranges a single edit replaced.
 */
export interface DraftPlan extends Omit<FilePlan, 'afterBytes' | 'afterIndex' | 'changes' | 'seenAfter'> {
  seenAfter?: Ranges;
  changes?: LineChange[];
  afterIndex?: LineIndex;
  splices?: Splice[];
}

export type MutationDecision =
  | { kind: 'need'; need: Need }
  /** The adapter's codec must encode `plan.afterText`; `finishEncoded` then decides on its answer. */
  | { kind: 'encode'; plan: DraftPlan; ledgerUpdates: LedgerEntry[] }
  | { kind: 'decided'; outcome: FilePlan | Refusal; ledgerUpdates: LedgerEntry[] };

interface Seen {
  seen: Ranges;
  /** What the session itself saw, when an expectedVersion authorized more. */
  own?: Ranges;
  updates: LedgerEntry[];
}

const need = (what: Need): MutationDecision => ({ kind: 'need', need: what });
const decided = (outcome: FilePlan | Refusal, ledgerUpdates: LedgerEntry[] = []): MutationDecision => ({ kind: 'decided', outcome, ledgerUpdates });

function createsFile(request: ChangeRequest): boolean {
  return request.kind === 'edit' && request.edits[0]?.oldString === '';
}

/** The verb of BINARY_FILE's message. */
function verbOf(input: PlanInput): string {
  if (input.request.kind === 'edit' || input.request.kind === 'loose') return input.moveTo ? 'moves' : 'edits';
  return input.request.kind === 'write' ? 'writes' : 'deletes';
}

export function decideMutation(f: MutationFacts): MutationDecision {
  const { stat, input } = f;
  if (!stat) return decideMissing(f);
  const blocked = blockedByFile(f, stat);
  if (blocked) return blocked;
  const prior = decidePriorRead({ exists: true, entry: f.entry, aliasCandidate: f.aliasCandidate, expectedVersion: input.expectedVersion });
  if (prior.kind === 'refuse') return decideUnread(f, stat, prior);
  if (!f.loaded) return need('content');
  if (f.loaded.kind === 'binary') return decided(binaryFile.binary(input.path, f.loaded.type, f.loaded.size, verbOf(input)));
  const seen = decideSeen(f, stat, prior, f.loaded.file);
  if ('kind' in seen) return seen;
  return decideChange(f, stat, f.loaded.file, seen);
}

function decideMissing(f: MutationFacts): MutationDecision {
  const { input } = f;
  const prior = decidePriorRead({ exists: false, entry: f.entry, expectedVersion: input.expectedVersion });
  if (prior.kind === 'refuse') {
    if (prior.reason !== 'vanished' || !prior.entry) return decided(fileChanged.expectedMissing(input.path, input.expectedVersion));
    const missing: LedgerEntry = { ...prior.entry, identity: undefined, version: undefined, totalLines: 0, seen: [], shown: [], recordedAt: f.now };
    return decided(refuseVanished(f.note, f.sessionId, input.path, prior.entry), [missing]);
  }
  const { request } = input;
  if (request.kind === 'delete' || request.kind === 'loose' || (!createsFile(request) && request.kind === 'edit')) {
    return f.suggestions ? decided(fileNotFound.missing(input.path, f.suggestions)) : need('suggestions');
  }
  if (input.moveTo) return decided(invalidInput.createThenMove(input.path, input.moveTo.path));
  return decided(planCreate({ ...input, request }, f.limits, f.maxFileBytes));
}

/** Facts of the file, not of what the session saw: refused before asking for a read that could not help. */
function blockedByFile(f: MutationFacts, stat: FileStat): MutationDecision | undefined {
  const { path, request, moveTo } = f.input;
  if (stat.kind === 'directory') return decided(targetIsDirectory.directory(path, []));
  if (stat.kind !== 'file') return decided(specialFile.special(path, specialKindName(stat.kind)));
  if (createsFile(request)) return decided(fileExists.exists(path));
  if (stat.nlink > 1) return decided(writeFailed.hardLinked(path, `has ${stat.nlink} hard links`));
  if ((stat.mode & 0o222) === 0) return decided(writeFailed.readOnly(path, `mode ${(stat.mode & 0o7777).toString(8).padStart(4, '0')}`));
  if (stat.size > f.maxFileBytes) return decided(fileTooLarge.tooLarge(path, stat.size, f.maxFileBytes));
  // An unsaved buffer (the adapter folds its revision into the version) is text that exists nowhere else.
  if ((request.kind === 'delete' || moveTo) && stat.revision !== undefined) {
    return decided(writeFailed.unsaved(path, request.kind === 'delete' ? 'delete' : 'move'));
  }
  if (!moveTo) return undefined;
  if (f.destinationTaken === undefined) return need('destination');
  return f.destinationTaken ? decided(fileExists.moveDestination(path, moveTo.path)) : undefined;
}

/** Refused from the ledger alone; only the first bytes are sniffed, so a binary file gets BINARY_FILE instead of a request to read something unreadable. */
function decideUnread(f: MutationFacts, stat: FileStat, prior: Extract<PriorReadDecision, { kind: 'refuse' }>): MutationDecision {
  const { path } = f.input;
  if (!f.head) return need('head');
  if (f.head.binary) return decided(binaryFile.binary(path, f.head.type, stat.size, verbOf(f.input)));
  if (prior.code === 'FILE_CHANGED_SINCE_READ' && prior.entry) return decided(refuseAppeared(f.note, f.sessionId, path, prior.entry, undefined));
  return decided(requiresPriorRead.unread(path, f.standalone));
}

function decideSeen(f: MutationFacts, stat: FileStat, prior: PriorReadDecision, current: FileText): Seen | MutationDecision {
  const { path, target } = f.input;
  switch (prior.kind) {
    case 'expected':
      if (current.version !== prior.expectedVersion) return decided(fileChanged.expectedMismatch(path, prior.expectedVersion, f.standalone));
      return { seen: rangesOf(1, current.index.count), own: ownCoverage(f.entry, f.snapshot, current), updates: [] };
    case 'alias':
      // The file the session saw under another name (renamed here), in exactly that content: the same coverage.
      if (f.alias === undefined) return need('alias');
      if (f.alias === null) return decided(requiresPriorRead.unread(path, f.standalone));
      return { seen: f.alias.seen, updates: [{ ...f.alias, target, path, recordedAt: f.now }] };
    case 'verify': {
      const wholeFile = f.input.request.kind !== 'edit' || f.input.moveTo !== undefined;
      const now = seenNow({
        sessionId: f.sessionId,
        path,
        target,
        identity: stat.identity,
        entry: prior.entry,
        current,
        snapshot: f.snapshot,
        note: f.note,
        now: f.now,
        diffBudget: f.diffBudget,
        wholeFile,
      });
      return now.kind === 'refused' ? decided(now.refusal, now.updates) : { seen: now.seen, updates: now.updates };
    }
    default:
      throw new Error(`unreachable: an existing file decided as ${prior.kind}`);
  }
}

function decideChange(f: MutationFacts, stat: FileStat, current: FileText, seen: Seen): MutationDecision {
  const { input } = f;
  const changed = changeText(input, current, seen.seen, seen.own, f.limits);
  if (isRefusal(changed)) return decided(changed, seen.updates);
  const plan: DraftPlan = {
    path: input.path,
    target: input.target,
    created: false,
    ...(input.request.kind === 'delete' ? { deleted: true } : {}),
    ...(input.moveTo ? { movedTo: input.moveTo } : {}),
    stat,
    before: current,
    beforeText: current.text,
    encoding: current.encoding,
    beforeIndex: current.index,
    seenBefore: seen.own ?? seen.seen,
    ...changed,
  };
  if (input.request.kind === 'delete') return decided(finishEncoded(f, plan, { ok: true, bytes: new Uint8Array(0) }), seen.updates);
  if (current.codec) return { kind: 'encode', plan, ledgerUpdates: seen.updates };
  if (!current.ascii || !changed.splices) return decided(finishEncoded(f, plan, encodeText(changed.afterText, current.encoding)), seen.updates);
  // An ASCII UTF-8 file: only the replaced ranges are encoded. When they are ASCII too, the new text is read
  // back from the new bytes, which is a flat copy instead of the joined pieces of the old text.
  const bom = current.encoding === 'utf8bom' ? 3 : 0;
  const spliced = spliceAsciiUtf8(current.bytes, bom, changed.splices);
  if (spliced.ok && spliced.ascii) {
    plan.afterText = Buffer.from(spliced.bytes.buffer, spliced.bytes.byteOffset + bom, spliced.bytes.byteLength - bom).toString('latin1');
  }
  return decided(finishEncoded(f, plan, spliced), seen.updates);
}

/** The plan once its new text is encoded: refused when the encoding cannot hold a character or the file would be too large. */
export function finishEncoded(f: Pick<MutationFacts, 'maxFileBytes'>, plan: DraftPlan, encoded: EncodeResult): FilePlan | Refusal {
  if (!encoded.ok) return invalidInput.unencodable(plan.path, encodingName(plan.before as FileText), encoded.char);
  if (encoded.bytes.length > f.maxFileBytes) return fileTooLarge.content(plan.path, encoded.bytes.length, f.maxFileBytes);
  const { splices: _splices, ...rest } = plan;
  const afterIndex = plan.afterIndex ?? indexLines(plan.afterText);
  return {
    ...rest,
    afterIndex,
    seenAfter: plan.seenAfter ?? rangesOf(1, afterIndex.count),
    changes: plan.changes ?? computeLineChanges(plan.beforeText, plan.afterText, { old: plan.beforeIndex, new: afterIndex }),
    afterBytes: encoded.bytes,
  };
}
