/**
 * Reads a line range of a file too big to load, in one pass with bounded memory (SPEC section 2: files too
 * large to load read a range by streaming).
 *
 * The pass always runs to the end of the file: every byte is hashed (the digest equals `Hasher.hash` of the
 * whole file, so the version is the one a full read would give) and every line is counted (`totalLines` for
 * the header and for tail reads). Only the requested lines are kept, and only while their bytes (line breaks
 * excluded) fit `maxBytes`: keeping stops at a line boundary, never inside a line, and a line that is bound to
 * exceed the cap is dropped while it is still being read, so one enormous line cannot fill memory. Memory is
 * one reused chunk buffer (1 MiB by default, as measured in PERF.md), the 8 KiB head and the kept lines.
 *
 * Line rules are those of `edit/lineEndings.ts`: "\r\n", "\n" and a lone "\r" each end a line (a "\r\n" split
 * across two chunks is one break), a final break starts no line. Lines are raw bytes without their breaks;
 * decoding is the caller's job, once it knows the encoding.
 *
 * Not here: opening or closing the reader (the caller owns it), stat checks, binary sniffing (the caller runs
 * `binarySniff.ts` on `head`), formatting. Cancellation is checked between chunks and rejects with an `Error`
 * named 'AbortError'; the scan yields to the event loop every 16 MiB so the extension host stays responsive.
 */
import { Buffer } from 'node:buffer';
import type { ChunkReader } from '../ports';
import type { Hasher } from '../version/contentVersion';

export interface ScanResult {
  version: string;
  size: number;
  totalLines: number;
  /** The first min(8 KiB, size) bytes, for sniffing. */
  head: Uint8Array;
  /** Raw bytes of lines `firstLine`.. in order, without their line breaks. */
  lines: Uint8Array[];
  firstLine: number;
  /** A line of the requested range was left out because the kept lines would have exceeded `maxBytes`. */
  truncatedByBytes: boolean;
  /** The file ends with a line break ('\n' or '\r'). */
  endsWithNewline: boolean;
}

export interface ScanOptions {
  /** 1-based first line to keep. */
  startLine: number;
  maxLines: number;
  /** Cap on the total bytes of the kept lines (line breaks not counted). */
  maxBytes: number;
  hasher: Hasher;
  signal?: AbortSignal;
  chunkSize?: number;
}

const HEAD_BYTES = 8 * 1024;
const DEFAULT_CHUNK = 1024 * 1024;
const YIELD_EVERY = 16 * 1024 * 1024;
const LF = 10;
const CR = 13;

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (!signal?.aborted) return;
  const error = new Error('The read was cancelled.');
  error.name = 'AbortError';
  throw error;
}

function join(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const joined = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

export async function scanRange(reader: ChunkReader, options: ScanOptions): Promise<ScanResult> {
  const { hasher, signal, maxBytes } = options;
  const firstLine = Math.max(1, Math.floor(options.startLine));
  const endLine = firstLine + Math.max(0, options.maxLines);
  const buffer = Buffer.allocUnsafeSlow(Math.max(1, options.chunkSize ?? DEFAULT_CHUNK));
  const digest = hasher.create();
  const head = new Uint8Array(HEAD_BYTES);
  let headLength = 0;

  const lines: Uint8Array[] = [];
  let keptBytes = 0;
  let keeping = firstLine < endLine;
  let truncatedByBytes = false;
  let parts: Uint8Array[] = [];
  let partsLength = 0;

  const stopKeeping = (dropped: boolean): void => {
    keeping = false;
    truncatedByBytes ||= dropped;
    parts = [];
    partsLength = 0;
  };
  const finishLine = (): void => {
    const line = join(parts, partsLength);
    parts = [];
    partsLength = 0;
    if (keptBytes + line.length > maxBytes) return stopKeeping(true);
    lines.push(line);
    keptBytes += line.length;
  };

  let line = 1;
  let size = 0;
  let lastByte = -1;
  let sinceYield = 0;
  for (;;) {
    throwIfAborted(signal);
    const count = await reader.read(buffer, size);
    if (count <= 0) break;
    const chunk = buffer.subarray(0, count);
    digest.update(chunk);
    if (headLength < HEAD_BYTES) {
      const take = Math.min(HEAD_BYTES - headLength, count);
      head.set(chunk.subarray(0, take), headLength);
      headLength += take;
    }
    // The '\n' of a "\r\n" whose '\r' ended the previous chunk belongs to that break.
    let pos = lastByte === CR && chunk[0] === LF ? 1 : 0;
    // Both break bytes are searched natively; each again only once the scan has passed the last one found.
    let lf = chunk.indexOf(LF, pos);
    let cr = chunk.indexOf(CR, pos);
    while (pos < count) {
      if (lf !== -1 && lf < pos) lf = chunk.indexOf(LF, pos);
      if (cr !== -1 && cr < pos) cr = chunk.indexOf(CR, pos);
      const brk = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (keeping && line >= firstLine) {
        const end = brk === -1 ? count : brk;
        parts.push(new Uint8Array(chunk.subarray(pos, end)));
        partsLength += end - pos;
        if (keptBytes + partsLength > maxBytes) stopKeeping(true);
        else if (brk !== -1) finishLine();
      }
      if (brk === -1) break;
      line++;
      if (line >= endLine) keeping = false;
      pos = brk === cr && chunk[brk + 1] === LF ? brk + 2 : brk + 1;
    }
    size += count;
    lastByte = chunk[count - 1];
    sinceYield += count;
    if (sinceYield >= YIELD_EVERY) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  const endsWithNewline = lastByte === LF || lastByte === CR;
  if (!endsWithNewline && size > 0 && keeping && line >= firstLine) finishLine();
  return {
    version: digest.digest(),
    size,
    totalLines: endsWithNewline || size === 0 ? line - 1 : line,
    head: head.slice(0, headLength),
    lines,
    firstLine,
    truncatedByBytes,
    endsWithNewline,
  };
}
