import * as assert from 'assert';
import { PassThrough } from 'stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { StdioTransport } from '../../../src/mcp/stdioTransport';

/** A transport on in-memory streams: what it delivers, what it answers on its own, what it reports. */
async function open(maxLineBytes?: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  const transport = new StdioTransport(input, output, maxLineBytes);
  const delivered: JSONRPCMessage[] = [];
  const errors: string[] = [];
  let closed = false;
  transport.onmessage = (message) => delivered.push(message);
  transport.onerror = (error) => errors.push(error.message);
  transport.onclose = () => (closed = true);
  await transport.start();
  const answered = (): { id?: unknown; error?: { code: number; message: string } }[] =>
    String(output.read() ?? '').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  const write = async (text: string): Promise<void> => {
    input.write(text);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { input, transport, delivered, errors, answered, write, closed: () => closed };
}

suite('the stdio transport (src/mcp/stdioTransport.ts)', () => {
  test('delivers JSON-RPC messages and writes one line per message it sends', async () => {
    const t = await open();
    await t.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    assert.deepStrictEqual(t.delivered.map((message) => (message as { method: string }).method), ['ping', 'notifications/initialized']);
    await t.transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    assert.deepStrictEqual(t.answered(), [{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  // The SDK's transport reported these to onerror only: the client waited for an answer that never came.
  test('answers what the server cannot take, with the request id where there is one, and goes on', async () => {
    const t = await open(1000);
    await t.write('{"jsonrpc":"2.0","id":1,"method":"ping"\n');
    await t.write('{"id":2,"hello":"world"}\n');
    await t.write(`{"jsonrpc":"2.0","method":"tools/call","params":{"c":"${'x'.repeat(2000)}"},"id":3}\n`);
    await t.write('{"jsonrpc":"2.0","id":4,"method":"ping"}\n');
    const answers = t.answered();
    assert.deepStrictEqual(answers.map((answer) => [answer.id, answer.error?.code]), [[1, -32700], [2, -32600], [3, -32600]]);
    assert.match(answers[2].error?.message ?? '', /^Request too large: The message is 2,0\d\d bytes, above the 64 MiB/);
    assert.deepStrictEqual(t.delivered.map((message) => (message as { id: number }).id), [4]);
    assert.strictEqual(t.errors.length, 3);
    assert.ok(!t.closed());
  });

  test('an error without a readable id names none, and the end of the input closes the transport', async () => {
    const t = await open();
    await t.write('garbage\n');
    assert.deepStrictEqual(t.answered().map((answer) => ['id' in answer, answer.error?.code]), [[false, -32700]]);
    t.input.end();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(t.closed());
  });
});
