/**
 * read(path, {offset, limit, force}): path checks, file kind checks (FIFOs, sockets and devices are refused
 * without being opened), binary detection, then the requested lines within the caps, or the dedup placeholder
 * when this session was already shown exactly those lines of exactly this version. Files too big to load are
 * read by streaming the range. Every read records what the session has now seen.
 */
import { displayPath } from '../path/displayPath';
import { decideRead, placeholderText } from './decideRead';
import { decideStaleness } from '../ledger/staleness';
import { EMPTY, type Ranges, covers, formatRanges, union } from '../ledger/coverage';
import { missingEntry } from '../ledger/sessionLedger';
import { allowedSuggestions } from '../path/allowedSuggestions';
import type { FileStat } from '../ports';
import { sniffBinary } from './binarySniff';
import { formatRead, type ReadLimits } from './formatRead';
import { mayHaveLongLines, shortensLines } from './longLines';
import { scanRange } from './scanRange';
import { type Refusal, refuse } from '../refusals/refusal';
import type { ReadOptions, ReadResult } from '../types';
import { type GuardContext, IN_MEMORY_MAX_BYTES, type Limits } from '../context/guardContext';
import { specialKindName } from '../refusals/specialFile';
import { decodeFile, encodingName, type FileText, lineAt, versionOf } from './loadText';
import type { SessionState } from '../context/sessionState';
import { binaryFile } from '../refusals/binaryFile';
import { fileNotFound } from '../refusals/fileNotFound';
import { specialFile } from '../refusals/specialFile';
import { targetIsDirectory } from '../refusals/targetIsDirectory';

interface Shown {
  version: string;
  totalLines: number;
  from: number;
  to: number;
  text: string;
  endLine: number;
  truncated: boolean;
  fullyShown: Ranges;
  /** The decoded text, when the whole file was loaded (for snapshots and carried coverage). */
  file?: FileText;
}

function positiveInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1;
}

export function validateReadOptions(options: ReadOptions): Refusal | undefined {
  if (options.offset !== undefined && !positiveInteger(options.offset)) return refuse('INVALID_INPUT', `offset must be a whole number ≥ 1 (the first line to return), not ${JSON.stringify(options.offset)}.`);
  if (options.limit !== undefined && !positiveInteger(options.limit)) return refuse('INVALID_INPUT', `limit must be a whole number ≥ 1 (how many lines to return), not ${JSON.stringify(options.limit)}.`);
  if (options.force !== undefined && typeof options.force !== 'boolean') return refuse('INVALID_INPUT', 'force must be true or false.');
  return undefined;
}

function pastEnd(path: string, offset: number, totalLines: number): Refusal {
  return refuse('INVALID_INPUT', `offset ${offset} is past the end of ${displayPath(path)}, which has ${totalLines} line${totalLines === 1 ? '' : 's'}. Read with an offset from 1 to ${totalLines}.`);
}

function requestedRange(total: number, options: ReadOptions): { from: number; to: number } | undefined {
  const from = options.offset ?? 1;
  if (total > 0 && from > total) return undefined;
  return { from, to: options.limit === undefined ? total : Math.min(total, from + options.limit - 1) };
}

/**
 * True when no cap can cut lines from..to: few enough lines, a byte bound that fits, and no long line among
 * shorter ones (formatRead.ts would shorten it).
 */
function fitsUntruncated(file: FileText, from: number, to: number, limits: ReadLimits): boolean {
  if (to < from || to - from + 1 > limits.maxLines) return false;
  if (shortensLines(from, to, (line) => file.index.end(line) - file.index.start(line), limits.maxLineLength, file.index.longest)) return false;
  const chars = file.index.end(to) - file.index.start(from);
  const perLine = String(to).length + 2;
  return Math.min(file.bytes.length * 2, chars * 3) + (to - from + 1) * perLine <= limits.maxBytes;
}

async function showLoaded(path: string, file: FileText, options: ReadOptions, limits: Limits, readNumber: number): Promise<Shown | Refusal> {
  const total = file.index.count;
  const from = options.offset ?? 1;
  if (total > 0 && from > total) return pastEnd(path, from, total);
  const to = options.limit === undefined ? total : Math.min(total, from + options.limit - 1);
  const formatted = formatRead({
    path,
    version: file.version,
    totalLines: total,
    sizeBytes: file.bytes.length,
    ...(file.encoding === 'utf8' && !file.codec ? {} : { encodingNote: encodingName(file) }),
    from,
    to,
    lineAt: (line) => lineAt(file, line),
    limits,
    readNumber,
  });
  return { version: file.version, totalLines: total, from, to, text: formatted.text, endLine: formatted.endLine, truncated: formatted.truncated, fullyShown: formatted.fullyShown, file };
}

async function showStreamed(ctx: GuardContext, path: string, target: string, stat: FileStat, options: ReadOptions, limits: Limits, readNumber: number): Promise<Shown | Refusal> {
  const from = options.offset ?? 1;
  const wanted = Math.min(options.limit ?? limits.maxLines, limits.maxLines);
  const reader = await ctx.fs.openChunkReader(target);
  let scan;
  try {
    scan = await scanRange(reader, { startLine: from, maxLines: wanted, maxBytes: limits.maxBytes, hasher: await ctx.hasher(), signal: options.signal });
  } finally {
    await reader.close();
  }
  const sniff = sniffBinary(scan.head);
  if (sniff.binary) return binaryFile.binary(path, sniff.type, stat.size, 'reads');
  const total = scan.totalLines;
  if (total > 0 && from > total) return pastEnd(path, from, total);
  const to = options.limit === undefined ? total : Math.min(total, from + options.limit - 1);
  const decoder = new TextDecoder('utf-8');
  const lastAvailable = scan.firstLine + scan.lines.length - 1;
  const formatted = formatRead({
    path,
    version: scan.version,
    totalLines: total,
    sizeBytes: scan.size,
    from,
    to,
    lastAvailable,
    lineAt: (line) => decoder.decode(scan.lines[line - scan.firstLine]),
    limits,
    readNumber,
  });
  return { version: scan.version, totalLines: total, from, to, text: formatted.text, endLine: formatted.endLine, truncated: formatted.truncated, fullyShown: formatted.fullyShown };
}

export async function performRead(ctx: GuardContext, s: SessionState, input: unknown, options: ReadOptions): Promise<ReadResult> {
  const invalid = validateReadOptions(options);
  if (invalid) return invalid;
  const checked = await ctx.paths.check(input);
  if (!checked.ok) return refuse(checked.code, checked.message);
  const { path, target } = checked;
  const stat = await ctx.fs.stat(target);
  if (!stat) {
    s.ledger.record(missingEntry(target, path, ctx.clock.now()));
    return fileNotFound.missing(path, await allowedSuggestions(ctx, path));
  }
  if (stat.kind === 'directory') {
    const entries = await ctx.fs.readdir(target).catch(() => [] as string[]);
    return targetIsDirectory.directory(path, [...entries].sort());
  }
  if (stat.kind !== 'file') return specialFile.special(path, specialKindName(stat.kind));

  // What this session saw at this path, whatever inode holds it now: the content decides below.
  const entry = s.ledger.at(target);
  const dedup = s.dedup ?? ctx.dedup;
  const limits = s.limits(ctx.limits);
  const force = options.force === true;
  const placeholder = (version: string, from: number, to: number, sizeBytes: number, totalLines: number): ReadResult => {
    ctx.logger.debug('[guard] read: unchanged placeholder', { session: s.id, path, version, lines: `${from}-${to}` });
    s.stats.placeholderHits++;
    // What the content would have cost: its share of the file's bytes, about 4 characters a token.
    s.stats.estimatedTokensSaved += Math.round((sizeBytes * (to - from + 1)) / Math.max(1, totalLines) / 4);
    return { ok: true, kind: 'unchanged', text: placeholderText(path, from, to, entry?.shownByRead ?? 0, version), startLine: from, endLine: to, version };
  };

  let shown: Shown | Refusal;
  // Numbered before formatting: the header names it, and concurrent reads of the session must not share it.
  let readNumber = 0;
  if (stat.size > IN_MEMORY_MAX_BYTES) {
    shown = await showStreamed(ctx, path, target, stat, options, limits, (readNumber = ++s.reads));
  } else {
    const hasher = await ctx.hasher();
    const bytes = await ctx.fs.readFile(target);
    // Dedup hits are decided from the hash alone when the session knows this version and the caps provably
    // cannot cut the range (nor shorten a long line in it): no decoding, no line index, no formatting.
    let version: string | undefined;
    if (entry?.version !== undefined && dedup && !force) {
      version = versionOf(hasher, bytes, stat.revision);
      const range = entry.version === version ? requestedRange(entry.totalLines, options) : undefined;
      const fits = range && range.to - range.from < limits.maxLines && bytes.length * 2 + (range.to - range.from + 1) * (String(range.to).length + 2) <= limits.maxBytes;
      if (range && fits && covers(entry.shown, range.from, range.to) && (range.from === range.to || !mayHaveLongLines(bytes, limits.maxLineLength))) {
        s.reads++;
        return placeholder(version, range.from, range.to, bytes.length, entry.totalLines);
      }
    }
    const loaded = await decodeFile(ctx, target, bytes, stat.revision, version);
    if (loaded.kind === 'binary') return binaryFile.binary(path, loaded.type, loaded.size, 'reads');
    const file = loaded.file;
    // Otherwise a dedup hit is still decided before formatting whenever the caps provably cannot cut the range.
    const range = requestedRange(file.index.count, options);
    if (range && fitsUntruncated(file, range.from, range.to, limits) && decideRead(entry, { version: file.version, ...range, truncated: false, dedup, force }) === 'placeholder') {
      s.reads++;
      return placeholder(file.version, range.from, range.to, file.bytes.length, file.index.count);
    }
    shown = await showLoaded(path, file, options, limits, (readNumber = ++s.reads));
  }
  if (!('version' in shown)) return shown;

  const decision = decideRead(entry, { version: shown.version, from: shown.from, to: shown.to, truncated: shown.truncated, dedup, force });
  if (decision === 'placeholder') return placeholder(shown.version, shown.from, shown.to, stat.size, shown.totalLines);

  let carried: Ranges = EMPTY;
  let shownBefore: Ranges = EMPTY;
  if (entry && entry.version === shown.version) {
    carried = entry.seen;
    shownBefore = entry.shown;
  } else if (entry && entry.version && shown.file) {
    // The file changed since this session last saw it: keep what it saw of lines the change did not touch.
    const staleness = decideStaleness({ seenVersion: entry.version, seen: entry.seen, currentVersion: shown.version, currentText: shown.file.text, currentLines: shown.totalLines, snapshot: ctx.snapshots.get(entry.version), wholeFile: false });
    if (staleness.kind === 'carried') carried = staleness.seen;
    else if (staleness.kind === 'touched') carried = staleness.seenUntouched;
  }
  if (shown.file && shown.file.bytes.length <= ctx.snapshotMaxFileBytes) ctx.snapshots.put(shown.version, shown.file.text);
  s.ledger.record({
    identity: stat.identity,
    target,
    path,
    version: shown.version,
    totalLines: shown.totalLines,
    seen: union(carried, shown.fullyShown),
    shown: union(shownBefore, shown.fullyShown),
    shownByRead: readNumber,
    recordedAt: ctx.clock.now(),
  });
  ctx.logger.info('[guard] read', { session: s.id, path, version: shown.version, lines: formatRanges(shown.fullyShown), truncated: shown.truncated, totalLines: shown.totalLines });
  return { ok: true, kind: 'content', text: shown.text, startLine: shown.from, endLine: shown.endLine, totalLines: shown.totalLines, truncated: shown.truncated, version: shown.version };
}
