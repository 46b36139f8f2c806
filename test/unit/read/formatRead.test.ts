/**
 * formatRead and the long-line rule: lines longer than maxLineLength are shortened among shorter lines, with a
 * note that says exactly how to see them; a range of only long lines (one alone included) shows them whole
 * where they fit the byte cap; a line no read can show is named as such (SPEC: no message may send the agent
 * into a loop).
 */
import * as assert from 'assert';
import { formatRead, type FormatInput, type ReadLimits } from '../../../src/core/read/formatRead';
import { seeded } from '../helpers/seeded';
import { fullLineCost, isBeyondReadCap, linesBeyondReadCap, linesToReadAlone, mayHaveLongLines, shortensLines } from '../../../src/core/text/longLines';

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
  // The issue: a 500-character line with maxLineLength 50 was shown whole because the read fit the byte cap.
  test('shortens and marks a long line among shorter ones even when the whole lines fit the byte cap', () => {
    const long = 'x'.repeat(500);
    const read = formatRead(input(['a', long, 'b'], { maxLines: 100, maxBytes: 100_000, maxLineLength: 50 }));
    assert.ok(read.text.includes(`2\t${'x'.repeat(50)} … [line shortened: 500 characters]\n`), read.text);
    assert.ok(!read.text.includes('x'.repeat(51)), read.text);
    assert.match(read.text, /\[line 2 is longer than 50 characters and was shortened here; to see it in full, read it alone: offset: 2, limit: 1\]/);
    assert.strictEqual(read.truncated, true);
    assert.deepStrictEqual(read.fullyShown, [1, 1, 3, 3]);
  });

  test('shows a long line read alone whole, and a range of only long lines whole where it fits the byte cap', () => {
    const long = 'x'.repeat(500);
    const limits = { maxLines: 100, maxBytes: 100_000, maxLineLength: 50 };
    const lines = ['a', long, 'y'.repeat(300), 'b'];
    const alone = formatRead(input(lines, limits, { from: 2, to: 2 }));
    assert.ok(alone.text.includes(`2\t${long}`), alone.text);
    assert.strictEqual(alone.truncated, false);
    assert.deepStrictEqual(alone.fullyShown, [2, 2]);
    const run = formatRead(input(lines, limits, { from: 2, to: 3 }));
    assert.ok(run.text.includes(`2\t${long}\n3\t${'y'.repeat(300)}`), run.text);
    assert.strictEqual(run.truncated, false);
    assert.deepStrictEqual(run.fullyShown, [2, 3]);
  });

  test('a range of only long lines over the byte cap shows the whole lines that fit and where to continue', () => {
    const limits = { maxLines: 100, maxBytes: 700, maxLineLength: 50 };
    const lines = ['x'.repeat(300), 'y'.repeat(300), 'z'.repeat(300)];
    const read = formatRead(input(lines, limits));
    assert.ok(read.text.includes(`2\t${'y'.repeat(300)}`), read.text);
    assert.match(read.text, /truncated by the 700-byte read cap: showed lines 1-2 of the requested 1-3; continue with offset: 3/);
    assert.deepStrictEqual(read.fullyShown, [1, 2]);
    // Following the note shows the last one whole too.
    assert.deepStrictEqual(formatRead(input(lines, limits, { from: 3, to: 3 })).fullyShown, [3, 3]);
  });

  test('shortens long lines in a read too big for them, naming the read that shows each in full', () => {
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
  test('a read shortens lines only when its range holds long and shorter lines', () => {
    const lengths = [10, 80, 90, 10];
    const lengthOf = (line: number): number => lengths[line - 1];
    assert.strictEqual(shortensLines(1, 4, lengthOf, 50), true);
    assert.strictEqual(shortensLines(2, 3, lengthOf, 50), false, 'only long lines');
    assert.strictEqual(shortensLines(2, 2, lengthOf, 50), false, 'one line');
    assert.strictEqual(shortensLines(1, 4, lengthOf, 100), false, 'no long line');
    assert.strictEqual(shortensLines(1, 4, lengthOf, 50, 40), false, 'longest says no line is long');
  });

  test('mayHaveLongLines judges undecoded bytes by their longest run between line-break bytes', () => {
    const bytes = (text: string): Uint8Array => Buffer.from(text, 'latin1');
    assert.strictEqual(mayHaveLongLines(bytes(`a\n${'x'.repeat(50)}\r\nb`), 50), false);
    assert.strictEqual(mayHaveLongLines(bytes(`a\n${'x'.repeat(51)}\r\nb`), 50), true);
    assert.strictEqual(mayHaveLongLines(bytes(`${'x'.repeat(40)}\r${'x'.repeat(40)}`), 50), false, 'a lone CR ends a line');
    assert.strictEqual(mayHaveLongLines(bytes(`${'x'.repeat(40)}\u00e9${'x'.repeat(40)}`), 50), true);
    // UTF-16: a 0x0A byte may be half of another character, so only the whole size counts.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('\u0a0a'.repeat(40), 'utf16le')]);
    assert.strictEqual(mayHaveLongLines(utf16, 50), true);
    assert.strictEqual(mayHaveLongLines(utf16, 100), false);
  });

  test('linesToReadAlone names the long lines a read of each alone shows in full', () => {
    const limits = { maxLines: 100, maxBytes: 100, maxLineLength: 50 };
    const lines = ['a', 'x'.repeat(60), 'x'.repeat(200), 'b', 'y'.repeat(70)];
    assert.deepStrictEqual(linesToReadAlone([1, 5], (line) => lines[line - 1], limits), [2, 5]);
    assert.deepStrictEqual(linesToReadAlone([1, 5], (line) => lines[line - 1], limits, 40), []);
  });

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

suite('formatRead: ASCII files', () => {
  // An ASCII file's lines are counted by their length instead of their UTF-8 size: the same cut, the same text.
  test('an ASCII read formats exactly as one whose UTF-8 sizes are counted, at every byte cap and line width (seeded)', () => {
    const random = seeded();
    console.log(`      ${random.note}`);
    for (let round = 0; round < 1000; round++) {
      const lines = Array.from({ length: random.between(1, 40) }, () => 'abc def '.repeat(random.between(0, 30)).slice(0, random.between(0, 240)));
      const limits = { maxLines: random.between(1, 50), maxBytes: random.between(20, 4000), maxLineLength: random.between(10, 200) };
      const from = random.between(1, lines.length);
      const range = { from, to: random.between(from, lines.length) };
      const counted = formatRead(input(lines, limits, range));
      assert.deepStrictEqual(formatRead(input(lines, limits, { ...range, ascii: true })), counted, `${random.note}, round ${round}`);
    }
  });
});
