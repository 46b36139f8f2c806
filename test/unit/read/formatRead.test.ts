/**
 * formatRead and the long-line rule: long lines are shown whole when the read's whole lines fit the byte cap,
 * shortened otherwise with a note that says exactly how to see them, and a line no read can show is named as
 * such (SPEC: no message may send the agent into a loop).
 */
import * as assert from 'assert';
import { formatRead, type FormatInput, type ReadLimits } from '../../../src/core/read/formatRead';
import { fullLineCost, isBeyondReadCap, linesBeyondReadCap } from '../../../src/core/read/longLines';

function input(lines: string[], limits: ReadLimits, range: Partial<FormatInput> = {}): FormatInput {
  const text = lines.join('\n') + '\n';
  return {
    path: '/r/a.txt',
    version: '0123456789abcdef',
    totalLines: lines.length,
    sizeBytes: Buffer.byteLength(text),
    from: 1,
    to: lines.length,
    lineAt: (line) => lines[line - 1],
    limits,
    ...range,
  };
}

suite('formatRead: long lines', () => {
  test('shows a long line whole when the whole lines fit the byte cap, and counts it as shown', () => {
    const long = 'x'.repeat(120);
    const read = formatRead(input(['a', long, 'b'], { maxLines: 100, maxBytes: 1000, maxLineLength: 50 }));
    assert.ok(read.text.includes(`2\t${long}\n`), read.text);
    assert.strictEqual(read.truncated, false);
    assert.deepStrictEqual(read.fullyShown, [1, 3]);
  });

  test('shortens long lines when the whole lines would not fit, naming the read that shows each in full', () => {
    const long = 'x'.repeat(120);
    const read = formatRead(input(['a', long, 'b', long], { maxLines: 100, maxBytes: 200, maxLineLength: 50 }));
    assert.match(read.text, /\[line shortened: 120 characters\]/);
    assert.match(read.text, /lines 2, 4 are longer than 50 characters and were shortened here; to see one in full, read it alone \(e\.g\. offset: 2, limit: 1\)/);
    assert.strictEqual(read.truncated, true);
    assert.deepStrictEqual(read.fullyShown, [1, 1, 3, 3]);
    // The advice works: that line alone fits.
    const alone = formatRead(input(['a', long, 'b', long], { maxLines: 100, maxBytes: 200, maxLineLength: 50 }, { from: 2, to: 2 }));
    assert.deepStrictEqual(alone.fullyShown, [2, 2]);
  });

  test('a long line over the byte cap by itself is shortened even alone, and the note names the cap, not a read', () => {
    const long = 'x'.repeat(300);
    const limits = { maxLines: 100, maxBytes: 200, maxLineLength: 50 };
    const alone = formatRead(input(['a', long], limits, { from: 2, to: 2 }));
    assert.match(alone.text, /line 2 is longer than the 200-byte read cap by itself: no read can show it in full/);
    assert.doesNotMatch(alone.text, /offset: 2, limit: 1/);
    assert.deepStrictEqual(alone.fullyShown, []);
  });

  test('a line of normal length is shown whole even when it alone exceeds the byte cap', () => {
    const line = 'y'.repeat(300);
    const read = formatRead(input([line, 'b'], { maxLines: 100, maxBytes: 100, maxLineLength: 2000 }));
    assert.ok(read.text.includes(`1\t${line}`), read.text);
    assert.deepStrictEqual(read.fullyShown, [1, 1]);
    assert.match(read.text, /continue with offset: 2/);
  });

  // A streamed read keeps no line over the byte cap; "continue with offset: N" for that same N would loop.
  test('a streamed range whose first line was too big to keep moves the agent past it', () => {
    const read = formatRead(input(['a', 'huge', 'c'], { maxLines: 100, maxBytes: 100, maxLineLength: 50 }, { from: 2, to: 3, lastAvailable: 1 }));
    assert.match(read.text, /line 2 is longer than the 100-byte read cap by itself and cannot be shown; continue with offset: 3/);
  });
});

suite('long lines and the read cap', () => {
  test('a line is beyond the cap only when it is long and costs more than the cap alone', () => {
    const limits = { maxLines: 100, maxBytes: 100, maxLineLength: 50 };
    assert.strictEqual(fullLineCost(7, 'abc'), 1 + 1 + 3 + 1);
    assert.strictEqual(isBeyondReadCap(1, 'x'.repeat(90), limits), false);
    assert.strictEqual(isBeyondReadCap(1, 'x'.repeat(200), limits), true);
    assert.strictEqual(isBeyondReadCap(1, 'y'.repeat(200), { ...limits, maxLineLength: 500 }), false);
    const lines = ['a', 'x'.repeat(200), 'b', 'x'.repeat(60)];
    assert.deepStrictEqual(linesBeyondReadCap([1, 4], (line) => lines[line - 1], limits), [2]);
    assert.deepStrictEqual(linesBeyondReadCap([1, 4], (line) => lines[line - 1], limits, 40), []);
  });
});
