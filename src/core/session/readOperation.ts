/**
 * read(path, {offset, limit, force}): path checks, file kind checks (FIFOs, sockets and devices are refused
 * without being opened), binary detection, then the requested lines within the caps, or the dedup placeholder
 * when this session was already shown exactly those lines of exactly this version. Files too big to load are
 * read by streaming the range. Every read records what the session has now seen.
 */
import { decideRead, placeholderText } from '../decide/decideRead';
import { decideStaleness } from '../decide/decideMutation';
import { encodingLabel } from '../edit/encoding';
import { EMPTY, type Ranges, formatRanges, union } from '../ledger/coverage';
import { missingEntry } from '../ledger/sessionLedger';
import { allowedSuggestions } from './nearMisses';
import type { FileStat } from '../ports';
import { sniffBinary } from '../read/binarySniff';
import { formatRead } from '../read/formatRead';
import { scanRange } from '../read/scanRange';
import { type Refusal, messages, refuse } from '../refusal';
import type { ReadOptions, ReadResult } from '../types';
import { type GuardContext, IN_MEMORY_MAX_BYTES } from './context';
import { specialKindName } from './fileKinds';
import { type FileText, lineAt, loadFile } from './fileText';
import { entryFor } from './ledgerLookup';
import type { SessionState } from './sessionState';

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
  return refuse('INVALID_INPUT', `offset ${offset} is past the end of ${path}, which has ${totalLines} line${totalLines === 1 ? '' : 's'}. Read with an offset from 1 to ${totalLines}.`);
}

async function showLoaded(ctx: GuardContext, path: string, file: FileText, options: ReadOptions): Promise<Shown | Refusal> {
  const total = file.index.count;
  const from = options.offset ?? 1;
  if (total > 0 && from > total) return pastEnd(path, from, total);
  const to = options.limit === undefined ? total : Math.min(total, from + options.limit - 1);
  const formatted = formatRead({
    path,
    version: file.version,
    totalLines: total,
    sizeBytes: file.bytes.length,
    ...(file.encoding === 'utf8' ? {} : { encodingNote: encodingLabel(file.encoding) }),
    from,
    to,
    lineAt: (line) => lineAt(file, line),
    limits: ctx.limits,
  });
  return { version: file.version, totalLines: total, from, to, text: formatted.text, endLine: formatted.endLine, truncated: formatted.truncated, fullyShown: formatted.fullyShown, file };
}

async function showStreamed(ctx: GuardContext, path: string, target: string, stat: FileStat, options: ReadOptions): Promise<Shown | Refusal> {
  const from = options.offset ?? 1;
  const wanted = Math.min(options.limit ?? ctx.limits.maxLines, ctx.limits.maxLines);
  const reader = await ctx.fs.openChunkReader(target);
  let scan;
  try {
    scan = await scanRange(reader, { startLine: from, maxLines: wanted, maxBytes: ctx.limits.maxBytes, hasher: await ctx.hasher(), signal: options.signal });
  } finally {
    await reader.close();
  }
  const sniff = sniffBinary(scan.head);
  if (sniff.binary) return refuse('BINARY_FILE', messages.binary(path, sniff.type, stat.size, 'reads'));
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
    limits: ctx.limits,
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
    return refuse('FILE_NOT_FOUND', messages.notFound(path, await allowedSuggestions(ctx, path)));
  }
  if (stat.kind === 'directory') {
    const entries = await ctx.fs.readdir(target).catch(() => [] as string[]);
    return refuse('TARGET_IS_DIRECTORY', messages.directory(path, [...entries].sort()));
  }
  if (stat.kind !== 'file') return refuse('SPECIAL_FILE', messages.special(path, specialKindName(stat.kind)));

  let shown: Shown | Refusal;
  if (stat.size > IN_MEMORY_MAX_BYTES) {
    shown = await showStreamed(ctx, path, target, stat, options);
  } else {
    const loaded = await loadFile(ctx, target, stat);
    if (loaded.kind === 'binary') return refuse('BINARY_FILE', messages.binary(path, loaded.type, loaded.size, 'reads'));
    shown = await showLoaded(ctx, path, loaded.file, options);
  }
  if (!('version' in shown)) return shown;

  const { identityEntry: entry } = entryFor(ctx, s, target, stat.identity);
  const decision = decideRead(entry, {
    version: shown.version,
    from: shown.from,
    to: shown.to,
    truncated: shown.truncated,
    dedup: s.dedup ?? ctx.dedup,
    force: options.force === true,
  });
  const readNumber = ++s.reads;
  if (decision === 'placeholder' && entry) {
    ctx.logger.debug('[guard] read: unchanged placeholder', { session: s.id, path, version: shown.version, lines: `${shown.from}-${shown.to}` });
    return { ok: true, kind: 'unchanged', text: placeholderText(path, shown.from, shown.to, entry.shownByRead, shown.version), startLine: shown.from, endLine: shown.to, version: shown.version };
  }

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
