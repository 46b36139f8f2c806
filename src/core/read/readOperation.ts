/**
 * read(path, {offset, limit, force}): path checks, file kind checks (FIFOs, sockets and devices are refused
 * without being opened), binary detection, then the requested lines within the caps, or the dedup placeholder
 * when this session was already shown exactly those lines of exactly this version. Files too big to load are
 * read by streaming the range. A file read ahead for this read (`Guard.readAhead`) is taken as it was read then.
 * Returns what the ledger learns with the result (the session applies it).
 */
import { EMPTY, type Ranges, formatRanges, union } from '../text/lineRanges';
import { decideStaleness } from '../ledger/staleness';
import { type LedgerEntry, missingEntry } from '../ledger/sessionLedger';
import { allowedSuggestions } from '../path/allowedSuggestions';
import { binaryFile } from '../refusals/binaryFile';
import { fileNotFound } from '../refusals/fileNotFound';
import { type Refusal, refuse } from '../refusals/refusal';
import { specialFile, specialKindName } from '../refusals/specialFile';
import { targetIsDirectory } from '../refusals/targetIsDirectory';
import type { FileStat } from '../ports';
import type { ReadOptions, ReadResult } from '../types';
import { type GuardContext, IN_MEMORY_MAX_BYTES, type Limits } from '../context/guardContext';
import type { SessionState } from '../context/sessionState';
import { type CutFact, cutBeforeDecoding, cutBeforeFormatting, decideRead, placeholderText } from './decideRead';
import { type FileText, type LoadedFile, decodeFile, decodedOf, encodingName, lineAt, versionOf } from '../text/loadText';
import { type RangeCall, type Shown, pastEnd, showLoaded, showStreamed } from './showRange';
import { computeLineChanges } from '../edit/lineDiff';
import { deltaText } from './deltaRead';
import { limitsWithin, utf8Size } from '../text/resultBudget';

/** A read's result and what the ledger learns from it. */
export interface ReadOutcome {
  result: ReadResult;
  updates: LedgerEntry[];
}

/** One read on its way: the file as checked, and what the session knows of it. */
export interface ReadCall extends RangeCall {
  s: SessionState;
  entry: LedgerEntry | undefined;
  dedup: boolean;
}

const refused = (result: Refusal): ReadOutcome => ({ result, updates: [] });

/** `options`: already validated at the session's boundary. */
export async function performRead(ctx: GuardContext, s: SessionState, given: string, options: ReadOptions): Promise<ReadOutcome> {
  const taking = ctx.readAhead.take(given);
  const ahead = taking && (await taking);
  if (ahead) {
    // Checked and read a moment ago for this read (`Guard.readAhead`): as if this read had happened then.
    try {
      const { file } = ahead;
      const call = callOf(ctx, s, file.path, file.target, file.stat, options);
      return finish(call, await readInMemory(call, file.bytes, file));
    } finally {
      ahead.release();
    }
  }
  const checked = await ctx.paths.check(given);
  if (!checked.ok) return refused(refuse(checked.code, checked.message));
  return readChecked(ctx, s, checked, options);
}

async function readChecked(ctx: GuardContext, s: SessionState, { path, target }: { path: string; target: string }, options: ReadOptions): Promise<ReadOutcome> {
  const stat = await ctx.fs.stat(target);
  if (!stat) {
    return { result: fileNotFound.missing(path, await allowedSuggestions(ctx.fs, ctx.paths, path)), updates: [missingEntry(target, path, ctx.clock.now())] };
  }
  if (stat.kind === 'directory') {
    const entries = await ctx.fs.readdir(target).catch(() => [] as string[]);
    return refused(targetIsDirectory.directory(path, [...entries].sort()));
  }
  if (stat.kind !== 'file') return refused(specialFile.special(path, specialKindName(stat.kind)));
  const call = callOf(ctx, s, path, target, stat, options);
  if (stat.size > IN_MEMORY_MAX_BYTES) return finish(call, await readStreamed(call));
  // The bytes serve only until the result is made: the next read may reuse their buffer.
  return ctx.readScratch.read(ctx.fs, target, async (bytes) => finish(call, await readInMemory(call, bytes)));
}

/** What this session saw at this path, whatever inode holds it now: the content decides. */
function callOf(ctx: GuardContext, s: SessionState, path: string, target: string, stat: FileStat, options: ReadOptions): ReadCall {
  return {
    ctx,
    s,
    path,
    target,
    stat,
    options,
    entry: s.ledger.at(target),
    dedup: s.dedup ?? ctx.dedup,
    limits: withinCallBudget(s.limits(ctx.limits), options.maxChars),
  };
}

function finish(call: ReadCall, shown: Shown | ReadOutcome | Refusal): ReadOutcome {
  if ('result' in shown) return shown;
  if ('ok' in shown) return refused(shown);
  return recordShown(call, shown);
}

/** The session's caps, tightened by the call's own budget where that is smaller. */
function withinCallBudget(limits: Limits, maxChars: number | undefined): Limits {
  if (maxChars === undefined || maxChars >= (limits.maxChars ?? Infinity)) return limits;
  return limitsWithin(limits, { maxChars, reason: 'the budget this call was given' });
}

/** The placeholder, counted: what the content would have cost is its share of the file's bytes, ~4 characters a token. */
function placeholder(call: ReadCall, version: string, range: { from: number; to: number }, sizeBytes: number, totalLines: number): ReadOutcome {
  const { s, path } = call;
  call.ctx.logger.debug('[guard] read: unchanged placeholder', { session: s.id, path, version, lines: `${range.from}-${range.to}` });
  s.stats.placeholderHits++;
  s.stats.estimatedTokensSaved += Math.round((sizeBytes * (range.to - range.from + 1)) / Math.max(1, totalLines) / 4);
  const text = placeholderText(path, range.from, range.to, call.entry?.shownByRead ?? 0, version);
  return { result: { ok: true, kind: 'unchanged', text, startLine: range.from, endLine: range.to, version }, updates: [] };
}

function requestedRange(total: number, options: ReadOptions): { from: number; to: number } | undefined {
  const from = options.offset ?? 1;
  if (total > 0 && from > total) return undefined;
  return { from, to: options.limit === undefined ? total : Math.min(total, from + options.limit - 1) };
}

/**
 * A file small enough to load. The dedup decision is taken as early as what is known proves the caps cannot cut
 * the range: from the hash alone when the session knows this version, else from the line index, else after
 * formatting (`decideRead`'s `cut` fact).
 */
async function readInMemory(call: ReadCall, bytes: Uint8Array, ahead?: { version: string; loaded: LoadedFile }): Promise<Shown | ReadOutcome | Refusal> {
  const { ctx, s, target, stat, entry, options, limits } = call;
  const version = ahead?.version ?? versionOf(await ctx.hasher(), bytes, stat.revision);
  const facts = { version, dedup: call.dedup, force: options.force === true };
  const known = entry?.version === version ? requestedRange(entry.totalLines, options) : undefined;
  if (
    known &&
    decideRead(entry, { ...facts, ...known, cut: cutBeforeDecoding(bytes, known, limits, ctx.snapshots.decoded(version)?.index.longest) }) === 'placeholder'
  ) {
    s.reads++;
    return placeholder(call, version, known, bytes.length, entry!.totalLines);
  }
  const loaded = ahead?.loaded ?? (await decodeFile(ctx, target, bytes, stat.revision, version));
  if (loaded.kind === 'binary') return binaryFile.binary(call.path, loaded.type, loaded.size, 'reads');
  const file: FileText = loaded.file;
  const range = requestedRange(file.index.count, options);
  if (!range) return pastEnd(call.path, options.offset ?? 1, file.index.count);
  const cut: CutFact = cutBeforeFormatting(file, range, limits);
  if (decideRead(entry, { ...facts, ...range, cut }) === 'placeholder') {
    s.reads++;
    return placeholder(call, version, range, bytes.length, file.index.count);
  }
  const shown = showLoaded(call, file, range, ++s.reads);
  if (cut === 'unknown' && decideRead(entry, { ...facts, ...range, cut: shown.truncated ? 'yes' : 'no' }) === 'placeholder') {
    return placeholder(call, version, range, bytes.length, file.index.count);
  }
  if (facts.dedup && !facts.force && !shown.truncated) shown.delta = deltaOf(call, file, shown);
  return shown;
}

/**
 * Where placeholders are on, a re-read of lines the session was shown in an older version: only what changed,
 * when every unchanged line of the range was shown to it and the delta is shorter than the content.
 */
function deltaOf(call: ReadCall, file: FileText, shown: Shown): string | undefined {
  const { entry, ctx } = call;
  if (!entry?.version || entry.version === file.version || entry.shown.length === 0) return undefined;
  const before = ctx.snapshots.get(entry.version);
  if (before === undefined) return undefined;
  const changes = computeLineChanges(before, file.text, { old: ctx.snapshots.decoded(entry.version)?.index, new: file.index });
  const text = deltaText({
    path: call.path,
    from: shown.from,
    to: shown.endLine,
    totalLines: file.index.count,
    sizeBytes: file.bytes.length,
    version: file.version,
    ...(file.encoding === 'utf8' && !file.codec ? {} : { encodingNote: encodingName(file) }),
    readNumber: shown.readNumber,
    lineAt: (line) => lineAt(file, line),
    seen: { version: entry.version, shown: entry.shown, readNumber: entry.shownByRead },
    changes,
  });
  return text !== undefined && utf8Size(text) < utf8Size(shown.text) ? text : undefined;
}

/** A file too big to load: the range is streamed, and a dedup hit is only known once the range is formatted. */
async function readStreamed(call: ReadCall): Promise<Shown | ReadOutcome | Refusal> {
  const shown = await showStreamed(call, ++call.s.reads);
  if ('ok' in shown) return shown;
  const facts = {
    version: shown.version,
    from: shown.from,
    to: shown.to,
    dedup: call.dedup,
    force: call.options.force === true,
    cut: shown.truncated ? ('yes' as const) : ('no' as const),
  };
  return decideRead(call.entry, facts) === 'placeholder' ? placeholder(call, shown.version, shown, call.stat.size, shown.totalLines) : shown;
}

/** The content result, and the ledger entry: what was shown now, with what the session saw before carried over. */
function recordShown(call: ReadCall, shown: Shown): ReadOutcome {
  const { ctx, s, path, target, stat, entry } = call;
  let carried: Ranges = EMPTY;
  let shownBefore: Ranges = EMPTY;
  if (entry && entry.version === shown.version) {
    carried = entry.seen;
    shownBefore = entry.shown;
  } else if (entry?.version && shown.file) {
    // The file changed since this session last saw it: keep what it saw of lines the change did not touch.
    const staleness = decideStaleness({
      seenVersion: entry.version,
      seen: entry.seen,
      currentVersion: shown.version,
      currentText: shown.file.text,
      currentLines: shown.totalLines,
      snapshot: ctx.snapshots.get(entry.version),
      wholeFile: false,
    });
    if (staleness.kind === 'carried') carried = staleness.seen;
    else if (staleness.kind === 'touched') carried = staleness.seenUntouched;
  }
  if (shown.file && shown.file.bytes.length <= ctx.snapshotMaxFileBytes) ctx.snapshots.put(shown.version, shown.file.text, decodedOf(shown.file));
  const update: LedgerEntry = {
    identity: stat.identity,
    target,
    path,
    version: shown.version,
    totalLines: shown.totalLines,
    seen: union(carried, shown.fullyShown),
    shown: union(shownBefore, shown.fullyShown),
    shownByRead: shown.readNumber,
    recordedAt: ctx.clock.now(),
  };
  ctx.logger.info('[guard] read', {
    session: s.id,
    path,
    version: shown.version,
    lines: formatRanges(shown.fullyShown),
    truncated: shown.truncated,
    totalLines: shown.totalLines,
  });
  if (shown.delta !== undefined) return { result: countDelta(call, shown, shown.delta, entry!.version!), updates: [update] };
  const result: ReadResult = {
    ok: true,
    kind: 'content',
    text: shown.text,
    startLine: shown.from,
    endLine: shown.endLine,
    totalLines: shown.totalLines,
    truncated: shown.truncated,
    version: shown.version,
  };
  return { result, updates: [update] };
}

/** A delta re-read's result, counted: what it saved is the content it stood for, less itself, ~4 characters a token. */
function countDelta(call: ReadCall, shown: Shown, text: string, since: string): ReadResult {
  call.s.stats.deltaReads++;
  call.s.stats.estimatedTokensSaved += Math.round((utf8Size(shown.text) - utf8Size(text)) / 4);
  call.ctx.logger.debug('[guard] read: delta', { session: call.s.id, path: call.path, version: shown.version, since });
  return { ok: true, kind: 'delta', text, startLine: shown.from, endLine: shown.endLine, totalLines: shown.totalLines, version: shown.version, since };
}
