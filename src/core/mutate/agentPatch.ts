/**
 * `GuardSession.applyPatch` (the `readgate_applyPatch` tool): an agent's patch in any of the three formats,
 * under the guard's rules for that agent. Before anything of a file is used to place the patch, the session must
 * have read it (EDIT_REQUIRES_PRIOR_READ, decided from the ledger alone), and a file that changed in lines it
 * saw is FILE_CHANGED_SINCE_READ with the diff, exactly as for an edit. The patch is then placed in the current
 * text, where a refusal quotes only lines the session has read (the others are named, not shown: no content
 * oracle), and becomes one multiEdit: every hunk's context and removed lines must lie in seen lines (the guard
 * refuses the rest with EDIT_OUTSIDE_SEEN_RANGE naming them), new files need no read, deleting, moving or
 * copying a file needs all of it seen. Nothing is read on the agent's behalf.
 */
import { toLf } from '../text/lineEndings';
import { covers, EMPTY, gaps, formatRanges, type Ranges } from '../text/lineRanges';
import { patchChanges } from '../patch/patchChanges';
import { planPatch } from '../patch/planPatch';
import type { FilePatch } from '../patch/patchTypes';
import { binaryFile } from '../refusals/binaryFile';
import { outsideSeenRange } from '../refusals/outsideSeenRange';
import type { Refusal } from '../refusals/refusal';
import { invalidInput } from '../refusals/invalidInput';
import { requiresPriorRead } from '../refusals/requiresPriorRead';
import { specialFile } from '../refusals/specialFile';
import { targetIsDirectory } from '../refusals/targetIsDirectory';
import type { MultiEditChange } from '../types';
import type { GuardContext } from '../context/guardContext';
import { specialKindName } from '../refusals/specialFile';
import { type FileText, sniffHead } from '../text/loadText';
import type { CallFiles } from './callFiles';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { seenNow } from './seenNow';
import type { SessionState } from '../context/sessionState';

/** What the session may use of one file the patch names. */
interface Known {
  exists: boolean;
  file?: FileText;
  seen: Ranges;
}

/** The patch as the guard's change: a multiEdit, or the one write that fills an empty file. */
export type PlannedPatch = { ok: true; changes: MultiEditChange[] } | { ok: true; write: { path: string; content: string } } | Refusal;

/** The paths a file section needs the content of (changed, deleted, moved or copied), and those it only creates. */
function needs(file: FilePatch): { content: string[]; created: string[] } {
  switch (file.kind) {
    case 'create':
      return { content: [], created: [file.path] };
    case 'copy':
      return { content: [file.from], created: [file.path] };
    case 'rename':
      return { content: [file.from], created: [file.path] };
    case 'refused':
      return { content: [], created: [] };
    default:
      return { content: [file.path], created: [] };
  }
}

/** Every path a patch names, and whether its content is needed (else it is only created). */
export function patchPaths(files: readonly FilePatch[]): Map<string, { content: boolean }> {
  const paths = new Map<string, { content: boolean }>();
  for (const file of files) {
    const need = needs(file);
    for (const path of need.content) paths.set(path, { content: true });
    for (const path of need.created) if (!paths.has(path)) paths.set(path, { content: false });
  }
  return paths;
}

/** A path of the patch, checked by the path policy. */
export interface PatchTarget {
  path: string;
  target: string;
}

async function know(
  ctx: GuardContext,
  s: SessionState,
  checked: PatchTarget,
  mustHaveRead: boolean,
  files: CallFiles,
  updates: LedgerEntry[],
): Promise<Known | Refusal> {
  const { target } = checked;
  const stat = await files.stat(target);
  if (!stat) return { exists: false, seen: EMPTY };
  if (stat.kind === 'directory') return targetIsDirectory.directory(checked.path, []);
  if (stat.kind !== 'file') return specialFile.special(checked.path, specialKindName(stat.kind));
  // Only "it exists" is needed of a file the patch merely creates (it refuses to create over it).
  if (!mustHaveRead) return { exists: true, seen: EMPTY };
  const entry = s.ledger.at(target);
  if (!entry?.version) {
    // Decided from the ledger alone: an unread file's content is never loaded to place a patch.
    const sniff = await sniffHead(ctx.fs, target);
    if (sniff.binary) return binaryFile.binary(checked.path, sniff.type, stat.size, 'patches');
    // A call without a session cannot name what it read in a patch: only an edit with expectedVersion can.
    return s.standalone ? requiresPriorRead.patchStandalone(checked.path) : requiresPriorRead.unread(checked.path);
  }
  const loaded = await files.load(target, stat);
  if (loaded.kind === 'binary') return binaryFile.binary(checked.path, loaded.type, loaded.size, 'patches');
  const file = loaded.file;
  const now = seenNow({
    sessionId: s.id,
    path: checked.path,
    target,
    identity: stat.identity,
    entry,
    current: file,
    snapshot: ctx.snapshots.get(entry.version),
    note: ctx.changes.latest(target),
    now: ctx.clock.now(),
    diffBudget: s.diffBudget(ctx.limits),
    wholeFile: false,
  });
  updates.push(...now.updates);
  return now.kind === 'refused' ? now.refusal : { exists: true, file, seen: now.seen };
}

/**
 * Places the patch in the files as they are, under the call's locks. `targets`: every path the patch names
 * (`patchPaths`), checked; `files`: the call's files, each loaded once. `updates`: what the ledger learns from
 * looking at the files (a refusal's diff, coverage carried over).
 */
export async function planAgentPatch(
  ctx: GuardContext,
  s: SessionState,
  patch: readonly FilePatch[],
  targets: ReadonlyMap<string, PatchTarget>,
  files: CallFiles,
  updates: LedgerEntry[],
): Promise<PlannedPatch> {
  const known = new Map<string, Known>();
  for (const [path, { content }] of patchPaths(patch)) {
    const found = await know(ctx, s, targets.get(path) as PatchTarget, content, files, updates);
    if ('ok' in found) return found;
    known.set(path, found);
  }
  // A copy's new file shows all of its source: only a source seen whole may be copied.
  for (const file of patch) {
    if (file.kind !== 'copy') continue;
    const source = known.get(file.from);
    const unseen = source?.file ? gaps(source.seen, 1, source.file.index.count) : [];
    if (source?.file && unseen.length) return outsideSeenRange.writeNeedsFullRead(file.from, formatRanges(unseen), source.file.index.count, undefined, 'copy');
  }
  const plan = planPatch(patch, (path) => {
    const file = known.get(path);
    if (!file?.exists) return { exists: false };
    if (!file.file) return { exists: true };
    const seen = file.seen;
    return { exists: true, text: file.file.text, bytes: file.file.bytes, hidden: (line) => !covers(seen, line, line) };
  });
  if (!plan.ok) return plan;
  const changes = patchChanges(plan.operations, (path) => {
    const file = known.get(path)?.file;
    return file ? toLf(file.text) : undefined;
  });
  if (!Array.isArray(changes)) return changes;
  const whole = changes.find((change) => change.write !== undefined);
  if (whole) {
    if (changes.length > 1) return invalidInput.patchFillsEmptyWithOthers(whole.change.path, true);
    return { ok: true, write: { path: whole.change.path, content: whole.write as string } };
  }
  return { ok: true, changes: changes.map((change) => change.change) };
}
