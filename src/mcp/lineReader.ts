/**
 * Splits a byte stream into lines (stdio MCP: one JSON-RPC message per line) with a cap on one line. A line
 * over the cap is not kept: only its first and last bytes are, so the transport can say which request it
 * refuses (see requestId.ts), and the reader carries on with the next line. The SDK's own reader closed the
 * transport on a line over 10 MiB, and copied its whole buffer and searched it from the start for every chunk.
 * Here each chunk is searched once, and a line's chunks are joined once, when it ends.
 */

/** Bytes kept from each end of a line over the cap. */
const ENDS = 4096;

export type LineEvent = { kind: 'line'; text: string } | { kind: 'tooLong'; bytes: number; head: string; tail: string };

export class LineReader {
  private chunks: Buffer[] = [];
  private bytes = 0;
  /** Set once the current line passed the cap: from then on only its ends are kept. */
  private over: { head: Buffer; tail: Buffer } | undefined;

  constructor(private readonly maxLineBytes: number) {}

  /** The lines `chunk` completes (blank ones left out), in order. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, end));
      const event = this.finish();
      if (event) events.push(event);
      start = end + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
    return events;
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    this.bytes += part.length;
    if (this.over) {
      this.over.tail = lastBytes(Buffer.concat([this.over.tail, part]));
      return;
    }
    this.chunks.push(part);
    if (this.bytes > this.maxLineBytes) {
      const line = Buffer.concat(this.chunks);
      this.over = { head: Buffer.from(line.subarray(0, ENDS)), tail: lastBytes(line) };
      this.chunks = [];
    }
  }

  private finish(): LineEvent | undefined {
    const { over, bytes } = this;
    const chunks = this.chunks;
    this.chunks = [];
    this.bytes = 0;
    this.over = undefined;
    if (over) return { kind: 'tooLong', bytes, head: over.head.toString('utf8'), tail: over.tail.toString('utf8') };
    const text = Buffer.concat(chunks).toString('utf8').replace(/\r$/, '');
    return text.trim() === '' ? undefined : { kind: 'line', text };
  }
}

/** A copy, so the big buffer it came from can be freed. */
function lastBytes(buffer: Buffer): Buffer {
  return Buffer.from(buffer.subarray(Math.max(0, buffer.length - ENDS)));
}
