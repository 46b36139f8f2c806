/**
 * A range of a file as the model is shown it (`formatRead.ts`), from a loaded file or by streaming one too big
 * to load (`text/scanRange.ts`).
 */
import type { GuardContext, Limits } from '../context/guardContext';
import type { FileStat } from '../ports';
import type { ReadOptions } from '../types';
import type { Ranges } from '../text/lineRanges';
import { binaryFile } from '../refusals/binaryFile';
import { invalidArgument } from '../refusals/invalidInput';
import type { Refusal } from '../refusals/refusal';
import { sniffBinary } from '../text/binarySniff';
import { formatRead } from './formatRead';
import { encodingLabel, type TextEncoding } from '../text/encoding';
import { fileTooLarge } from '../refusals/fileTooLarge';
import { type FileText, IN_MEMORY_MAX_BYTES, encodingName, lineAt, withRevision } from '../text/loadText';
import { scanRange } from '../text/scanRange';

/** What showing a range needs of a read on its way (`ReadCall` in `readOperation.ts` is one). */
export interface RangeCall {
  ctx: GuardContext;
  path: string;
  target: string;
  stat: FileStat;
  options: ReadOptions;
  limits: Limits;
}

export interface Shown {
  version: string;
  totalLines: number;
  from: number;
  to: number;
  text: string;
  endLine: number;
  truncated: boolean;
  fullyShown: Ranges;
  readNumber: number;
  /** The decoded text, when the whole file was loaded (for snapshots and carried coverage). */
  file?: FileText;
  /** What changed since the session's last shown version, sent instead of `text` (`deltaRead.ts`). */
  delta?: string;
}

export const pastEnd = invalidArgument.pastEnd;

export function showLoaded(call: RangeCall, file: FileText, range: { from: number; to: number }, readNumber: number): Shown {
  const total = file.index.count;
  const formatted = formatRead({
    path: call.path,
    version: file.version,
    totalLines: total,
    sizeBytes: file.bytes.length,
    ...(file.encoding === 'utf8' && !file.codec ? {} : { encodingNote: encodingName(file) }),
    ...range,
    lineAt: (line) => lineAt(file, line),
    lineLength: (line) => file.index.end(line) - file.index.start(line),
    longest: file.index.longest,
    ascii: file.ascii,
    limits: call.limits,
    readNumber,
  });
  return {
    version: file.version,
    totalLines: total,
    ...range,
    text: formatted.text,
    endLine: formatted.endLine,
    truncated: formatted.truncated,
    fullyShown: formatted.fullyShown,
    readNumber,
    file,
  };
}

/** Decodes a streamed line as a loaded file would be: UTF-8 when every byte is (its BOM dropped from line 1), else Latin-1. */
function lineDecoder(utf8: boolean, firstLine: number, bom: boolean): (bytes: Uint8Array, line: number) => string {
  if (!utf8) return (bytes) => Buffer.from(bytes).toString('latin1');
  return (bytes, line) => Buffer.from(bytes.subarray(line === 1 && firstLine === 1 && bom ? 3 : 0)).toString('utf8');
}

export async function showStreamed(call: RangeCall, readNumber: number): Promise<Shown | Refusal> {
  const { ctx, options, limits, stat } = call;
  const from = options.offset ?? 1;
  const wanted = Math.min(options.limit ?? limits.maxLines, limits.maxLines);
  const hasher = await ctx.hasher();
  const reader = await ctx.fs.openChunkReader(call.target);
  let scan;
  try {
    scan = await scanRange(reader, { startLine: from, maxLines: wanted, maxBytes: limits.maxBytes, hasher, signal: options.signal });
  } finally {
    await reader.close();
  }
  const sniff = sniffBinary(scan.head);
  if (sniff.binary) return binaryFile.binary(call.path, sniff.type, stat.size, 'reads');
  const head = scan.head;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) {
    return fileTooLarge.utf16Stream(call.path, stat.size, IN_MEMORY_MAX_BYTES);
  }
  const encoding: TextEncoding = !scan.utf8 ? 'latin1' : head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 'utf8bom' : 'utf8';
  const total = scan.totalLines;
  if (total > 0 && from > total) return pastEnd(call.path, from, total);
  const to = options.limit === undefined ? total : Math.min(total, from + options.limit - 1);
  const decode = lineDecoder(scan.utf8, scan.firstLine, encoding === 'utf8bom');
  const version = withRevision(hasher, scan.version, stat.revision);
  const formatted = formatRead({
    path: call.path,
    version,
    totalLines: total,
    sizeBytes: scan.size,
    ...(encoding === 'utf8' ? {} : { encodingNote: encodingLabel(encoding) }),
    from,
    to,
    lastAvailable: scan.firstLine + scan.lines.length - 1,
    lineAt: (line) => decode(scan.lines[line - scan.firstLine], line),
    limits,
    readNumber,
  });
  return {
    version,
    totalLines: total,
    from,
    to,
    text: formatted.text,
    endLine: formatted.endLine,
    truncated: formatted.truncated,
    fullyShown: formatted.fullyShown,
    readNumber,
  };
}
