/**
 * MCP over stdio (one JSON-RPC message per line), for `dist/mcp.js` and the bridge. In place of the SDK's
 * `StdioServerTransport`, whose reader kept at most 10 MiB of input and closed the transport beyond it (the
 * server exited 0 without a word, or stayed up deaf), while a window's HTTP server takes 64 MiB: here a line
 * may be as long as an HTTP body, and a message that cannot be delivered is answered, never fatal: a line over
 * the cap with -32600, a line that is not JSON with -32700, JSON that is not a JSON-RPC message with -32600,
 * each for its request id where one can be found, and each reported to `onerror`. The transport closes when
 * its input ends.
 */
import type { Readable, Writable } from 'stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { LineReader } from './lineReader';
import { MAX_MESSAGE_BYTES, type ProtocolError, protocolErrors } from './protocolErrors';
import { requestIdOf } from './requestId';

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly reader: LineReader;
  private started = false;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
    maxLineBytes = MAX_MESSAGE_BYTES,
  ) {
    this.reader = new LineReader(maxLineBytes);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('StdioTransport already started');
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.onclose?.();
  }

  private readonly onData = (chunk: Buffer | string): void => {
    for (const event of this.reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk)) {
      if (event.kind === 'tooLong') this.refuse(protocolErrors.tooLarge(event.bytes), requestIdOf(event.head, event.tail));
      else this.deliver(event.text);
    }
  };

  private readonly onInputError = (error: Error): void => this.onerror?.(error);

  private readonly onEnd = (): void => void this.close();

  private deliver(line: string): void {
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      return this.refuse(protocolErrors.notJson(), requestIdOf(line.slice(0, 4096), line.slice(-4096)));
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success) return this.refuse(protocolErrors.notJsonRpc(), idIn(json));
    this.onmessage?.(parsed.data);
  }

  /** Answers a message the server will never see; without an id the error names none (MCP's schema allows it). */
  private refuse(error: ProtocolError, id: RequestId | undefined): void {
    this.onerror?.(
      new Error(`answered ${id === undefined ? 'a message without a readable id' : `request ${JSON.stringify(id)}`} with ${error.code}: ${error.message}`),
    );
    void this.send({ jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), error } as JSONRPCMessage);
  }
}

function idIn(json: unknown): RequestId | undefined {
  const id = (json as { id?: unknown } | null)?.id;
  return typeof id === 'string' || Number.isSafeInteger(id) ? (id as RequestId) : undefined;
}
