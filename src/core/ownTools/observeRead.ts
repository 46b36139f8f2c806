/**
 * A read by an agent's own tool, observed from both sides: before it runs, the file as the guard sees it (an
 * open editor's buffer in VS Code, as the client's tool reads it) and the lines the client's cut will show;
 * after it ran, the file again. Only when the content is the same version at both moments do those lines count
 * as seen: a change in between may have been shown or not, so nothing of that read counts. The version's text
 * is kept (snapshots) so a later change of those lines can be shown to the agent as a diff.
 *
 * Nothing here ever refuses or returns content: the client's tool shows the file; the guard only learns.
 */
import type { GuardContext } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import type { LedgerEntry } from '../ledger/sessionLedger';
import { ownCoverage } from '../mutate/seenNow';
import { EMPTY, formatRanges, intersect, type Ranges, union } from '../text/lineRanges';
import { decodedOf, type FileText, IN_MEMORY_MAX_BYTES, loadFile } from '../text/loadText';
import type { ObservedRead, OwnReadCall, ShownOutput } from '../types';
import { linesInOutput } from './outputLines';
import { shownLines } from './shownLines';

/** What was known before the read ran: the version and the lines it will show, or why nothing will count. */
export type PendingRead =
  | { kind: 'read'; path: string; target: string; identity: string; version: string; totalLines: number; shown: Ranges; note?: string }
  | { kind: 'none'; path: string; note: string };

/** The length of a line as the client measures it: its text, and the carriage return a split at "\n" leaves on it. */
function clientLength(file: FileText, line: number): number {
  const end = file.index.end(line);
  return end - file.index.start(line) + (file.text.charCodeAt(end) === 13 ? 1 : 0);
}

function cutNote(stoppedAt: number | undefined, shortened: readonly number[]): string | undefined {
  const notes: string[] = [];
  if (stoppedAt !== undefined) notes.push(`lines from ${stoppedAt} on may not have been shown (the client may cut a long result)`);
  if (shortened.length) {
    notes.push(`line${shortened.length === 1 ? '' : 's'} ${formatRanges(shortened.flatMap((line) => [line, line]))} shortened by the client`);
  }
  return notes.length ? notes.join('; ') : undefined;
}

export async function beforeRead(ctx: GuardContext, call: OwnReadCall): Promise<PendingRead> {
  const none = (note: string): PendingRead => ({ kind: 'none', path: call.path, note });
  const checked = await ctx.paths.check(call.path);
  if (!checked.ok) return none(`not a file ReadGate guards (${checked.code})`);
  const stat = await ctx.fs.stat(checked.target);
  if (!stat || stat.kind !== 'file') return none('not a regular file');
  if (stat.size > IN_MEMORY_MAX_BYTES) return none('too large to follow what a read of it shows');
  const loaded = await loadFile(ctx, checked.target, stat);
  if (loaded.kind === 'binary') return none('not text');
  const { file } = loaded;
  if (call.cut.blankShownAsNote && file.text.length > 0 && file.text.trim() === '') {
    return none('the client shows a file of only whitespace as a note, not its lines');
  }
  const cut = shownLines(call.cut, file.index.count, (line) => clientLength(file, line));
  const note = cutNote(cut.stoppedAt, cut.shortened);
  // Kept now, not with the pending call (which holds no content): a later change of these lines is shown as a diff.
  if (file.bytes.length <= ctx.snapshotMaxFileBytes) ctx.snapshots.put(file.version, file.text, decodedOf(file));
  return {
    kind: 'read',
    path: checked.path,
    target: checked.target,
    identity: stat.identity,
    version: file.version,
    totalLines: file.index.count,
    shown: cut.shown,
    ...(note ? { note } : {}),
  };
}

/**
 * After the read: the lines it showed, learned if the version held; the ledger update is returned, not applied.
 * `output`: what a shell command's output holds of the file, which narrows the lines its cut would show.
 */
export async function afterRead(
  ctx: GuardContext,
  s: SessionState,
  given: PendingRead,
  output?: ShownOutput,
): Promise<{ observed: ObservedRead; updates: LedgerEntry[] }> {
  let pending = given;
  if (pending.kind === 'none') return { observed: { ok: true, path: pending.path, lines: '', note: pending.note }, updates: [] };
  const stat = await ctx.fs.stat(pending.target);
  const loaded = stat?.kind === 'file' && stat.size <= IN_MEMORY_MAX_BYTES ? await loadFile(ctx, pending.target, stat) : undefined;
  const file = loaded?.kind === 'text' ? loaded.file : undefined;
  if (file?.version !== pending.version) {
    return { observed: { ok: true, path: pending.path, lines: '', note: 'the file changed while it was read, so nothing of that read counts' }, updates: [] };
  }
  if (output) {
    const lineAt = (line: number): string => file.text.slice(file.index.start(line), file.index.end(line));
    pending = { ...pending, shown: intersect(pending.shown, linesInOutput(output, file.index.count, lineAt)) };
  }
  const entry = s.ledger.at(pending.target);
  const update: LedgerEntry = {
    identity: pending.identity,
    target: pending.target,
    path: pending.path,
    version: pending.version,
    totalLines: pending.totalLines,
    // What the session saw before, kept where this version did not change it.
    seen: union(ownCoverage(entry, entry?.version ? ctx.snapshots.get(entry.version) : undefined, file), pending.shown),
    // Shown by another tool: the guard's own placeholders and delta re-reads never stand for it.
    shown: entry?.version === pending.version ? entry.shown : EMPTY,
    shownByRead: entry?.version === pending.version ? entry.shownByRead : 0,
    recordedAt: ctx.clock.now(),
  };
  const observed: ObservedRead = { ok: true, path: pending.path, lines: formatRanges(pending.shown), ...(pending.note ? { note: pending.note } : {}) };
  return { observed, updates: [update] };
}
