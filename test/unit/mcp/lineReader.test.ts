import * as assert from 'assert';
import { type LineEvent, LineReader } from '../../../src/mcp/lineReader';

const feed = (reader: LineReader, ...chunks: string[]): LineEvent[] => chunks.flatMap((chunk) => reader.push(Buffer.from(chunk)));

suite('stdio line reader', () => {
  test('gives the lines a stream completes, across chunk boundaries, several per chunk, CRLF and blank lines handled', () => {
    const reader = new LineReader(100);
    assert.deepStrictEqual(feed(reader, '{"a"', ':1}\n{"b":2}\r\n\n  \n{"c"'), [
      { kind: 'line', text: '{"a":1}' },
      { kind: 'line', text: '{"b":2}' },
    ]);
    assert.deepStrictEqual(feed(reader, ':3}\n'), [{ kind: 'line', text: '{"c":3}' }]);
  });

  test('a multi-byte character split between chunks comes out whole', () => {
    const bytes = Buffer.from('"é✓"\n');
    const reader = new LineReader(100);
    assert.deepStrictEqual([...reader.push(bytes.subarray(0, 2)), ...reader.push(bytes.subarray(2))], [{ kind: 'line', text: '"é✓"' }]);
  });

  // The SDK's reader threw away its buffer and closed the transport; here the long line alone is dropped.
  test('a line over the cap is dropped but for its first and last bytes and its size, and the next line reads normally', () => {
    const reader = new LineReader(10_000);
    const long = `{"id":7,"x":"${'y'.repeat(20_000)}","end":true}`;
    const events = feed(reader, long.slice(0, 5000), long.slice(5000), '\n{"ok":1}\n');
    assert.strictEqual(events.length, 2);
    const [tooLong, next] = events;
    assert.ok(tooLong.kind === 'tooLong');
    assert.strictEqual(tooLong.bytes, long.length);
    assert.ok(tooLong.head.startsWith('{"id":7,') && tooLong.head.length <= 4096);
    assert.ok(tooLong.tail.endsWith('"end":true}') && tooLong.tail.length <= 4096);
    assert.deepStrictEqual(next, { kind: 'line', text: '{"ok":1}' });
  });
});
