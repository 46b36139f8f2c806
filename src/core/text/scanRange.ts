/**
 * Reads a line range of a file too big to load, in one pass with bounded memory (files too
 * large to load read a range by streaming).
 *
 * The pass always runs to the end of the file: every byte is hashed (the digest equals `Hasher.hash` of the
 * whole file, so the version is the one a full read would give) and every line is counted (`totalLines` for
 * the header and for tail reads). Only the requested lines are kept, and only while their bytes (line breaks
 * excluded) fit `maxBytes`: keeping stops at a line boundary, never inside a line, and a line that is bound to
 * exceed the cap is dropped while it is still being read, so one enormous line cannot fill memory. Memory is
 * one reused chunk buffer (1 MiB by default: `npm run bench` measured smaller chunks slower and larger ones no faster), the 8 KiB head and the kept lines.
 *
 * Line rules are those of `lineEndings.ts`: "\r\n", "\n" and a lone "\r" each end a line (a "\r\n" split
 * across two chunks is one break), a final break starts no line. Lines are raw bytes without their breaks;
 * decoding is the caller's job, once it knows the encoding (`utf8` says whether every byte was UTF-8).
 *
 * Not here: opening or closing the reader (the caller owns it), stat checks, binary sniffing (the caller runs
 * `binarySniff.ts` on `head`), formatting. Cancellation is checked between chunks and rejects with an `Error`
 * named 'AbortError'; the scan yields to the event loop every 16 MiB so the extension host stays responsive.
 */
import { Buffer, isUtf8 } from 'node:buffer';
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
  /** Every byte is UTF-8 (else the lines are Latin-1, as a loaded file's would be). */
  utf8: boolean;
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

/** The length of the UTF-8 sequence a lead byte starts (1 for anything isUtf8 will refuse anyway). */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0) return 4;
  if (lead >= 0xe0) return 3;
  return lead >= 0xc0 ? 2 : 1;
}

/** Whether the bytes seen so far are UTF-8, chunk by chunk: a sequence cut by a chunk's end is checked whole. */
class Utf8Check {
  valid = true;
  private carry: Uint8Array = new Uint8Array(0);

  update(chunk: Uint8Array): void {
    if (!this.valid) return;
    let start = 0;
    if (this.carry.length) {
      const missing = sequenceLength(this.carry[0]) - this.carry.length;
      if (chunk.length < missing) {
        this.carry = Buffer.concat([this.carry, chunk]);
        return;
      }
      this.valid = isUtf8(Buffer.concat([this.carry, chunk.subarray(0, missing)]));
      this.carry = new Uint8Array(0);
      start = missing;
    }
    const end = completeUpTo(chunk, start);
    if (this.valid && end > start) this.valid = isUtf8(chunk.subarray(start, end));
    // A copy: the chunk is the scan's reused buffer.
    this.carry = new Uint8Array(chunk.subarray(end));
  }

  finish(): boolean {
    if (this.carry.length) this.valid &&= isUtf8(this.carry);
    return this.valid;
  }
}

/** Where `chunk`'s last sequence starts when the chunk cuts it, else the chunk's length. */
function completeUpTo(chunk: Uint8Array, from: number): number {
  for (let i = chunk.length - 1; i >= Math.max(from, chunk.length - 4); i--) {
    if ((chunk[i] & 0xc0) === 0x80) continue;
    return i + sequenceLength(chunk[i]) > chunk.length ? i : chunk.length;
  }
  return chunk.length;
}

/** The lines of one scan: counts every line break, keeps the requested lines within the byte cap. */
class LineScan {
  line = 1;
  readonly lines: Uint8Array[] = [];
  truncatedByBytes = false;
  private keptBytes = 0;
  private keeping: boolean;
  private parts: Uint8Array[] = [];
  private partsLength = 0;
  private lastByte = -1;

  constructor(
    private readonly firstLine: number,
    private readonly endLine: number,
    private readonly maxBytes: number,
  ) {
    this.keeping = firstLine < endLine;
  }

  get endsWithNewline(): boolean {
    return this.lastByte === LF || this.lastByte === CR;
  }

  feed(chunk: Uint8Array): void {
    const count = chunk.length;
    // The '\n' of a "\r\n" whose '\r' ended the previous chunk belongs to that break.
    let pos = this.lastByte === CR && chunk[0] === LF ? 1 : 0;
    // Both break bytes are searched natively; each again only once the scan has passed the last one found.
    let lf = chunk.indexOf(LF, pos);
    let cr = chunk.indexOf(CR, pos);
    while (pos < count) {
      if (lf !== -1 && lf < pos) lf = chunk.indexOf(LF, pos);
      if (cr !== -1 && cr < pos) cr = chunk.indexOf(CR, pos);
      const brk = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
      if (this.keeping && this.line >= this.firstLine) this.keep(chunk, pos, brk === -1 ? count : brk, brk !== -1);
      if (brk === -1) break;
      this.line++;
      if (this.line >= this.endLine) this.keeping = false;
      pos = brk === cr && chunk[brk + 1] === LF ? brk + 2 : brk + 1;
    }
    this.lastByte = chunk[count - 1];
  }

  /** The end of a file without a final break ends its last line. */
  finish(size: number): void {
    if (!this.endsWithNewline && size > 0 && this.keeping && this.line >= this.firstLine) this.finishLine();
  }

  private keep(chunk: Uint8Array, from: number, to: number, ended: boolean): void {
    this.parts.push(new Uint8Array(chunk.subarray(from, to)));
    this.partsLength += to - from;
    if (this.keptBytes + this.partsLength > this.maxBytes) this.stopKeeping(true);
    else if (ended) this.finishLine();
  }

  private stopKeeping(dropped: boolean): void {
    this.keeping = false;
    this.truncatedByBytes ||= dropped;
    this.parts = [];
    this.partsLength = 0;
  }

  private finishLine(): void {
    const line = join(this.parts, this.partsLength);
    this.parts = [];
    this.partsLength = 0;
    if (this.keptBytes + line.length > this.maxBytes) return this.stopKeeping(true);
    this.lines.push(line);
    this.keptBytes += line.length;
  }
}

export async function scanRange(reader: ChunkReader, options: ScanOptions): Promise<ScanResult> {
  const { hasher, signal } = options;
  const firstLine = Math.max(1, Math.floor(options.startLine));
  const scan = new LineScan(firstLine, firstLine + Math.max(0, options.maxLines), options.maxBytes);
  const buffer = Buffer.allocUnsafeSlow(Math.max(1, options.chunkSize ?? DEFAULT_CHUNK));
  const digest = hasher.create();
  const utf8 = new Utf8Check();
  const head = new Uint8Array(HEAD_BYTES);
  let headLength = 0;
  let size = 0;
  let sinceYield = 0;
  for (;;) {
    throwIfAborted(signal);
    const count = await reader.read(buffer, size);
    if (count <= 0) break;
    const chunk = buffer.subarray(0, count);
    digest.update(chunk);
    utf8.update(chunk);
    if (headLength < HEAD_BYTES) {
      const take = Math.min(HEAD_BYTES - headLength, count);
      head.set(chunk.subarray(0, take), headLength);
      headLength += take;
    }
    scan.feed(chunk);
    size += count;
    sinceYield += count;
    if (sinceYield >= YIELD_EVERY) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  scan.finish(size);
  const endsWithNewline = scan.endsWithNewline;
  return {
    version: digest.digest(),
    size,
    totalLines: endsWithNewline || size === 0 ? scan.line - 1 : scan.line,
    head: head.slice(0, headLength),
    lines: scan.lines,
    firstLine,
    truncatedByBytes: scan.truncatedByBytes,
    endsWithNewline,
    utf8: utf8.finish(),
  };
}
