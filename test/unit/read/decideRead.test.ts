/** Whether a read returns content or the placeholder, as a table: what the session was shown, and what is known of the cut. */
import * as assert from 'assert';
import { indexLines } from '../../../src/core/text/lineEndings';
import type { LedgerEntry } from '../../../src/core/ledger/sessionLedger';
import { type CutFact, cutBeforeDecoding, cutBeforeFormatting, decideRead } from '../../../src/core/read/decideRead';

const shown = (ranges: number[]): LedgerEntry => ({ target: '/a', path: '/a', identity: '1:1', version: 'v1', totalLines: 10, seen: ranges, shown: ranges, shownByRead: 1, recordedAt: 0 });
const limits = { maxLines: 2000, maxBytes: 100_000, maxLineLength: 2000 };

suite('decideRead: placeholder or content', () => {
  const base = { version: 'v1', from: 1, to: 5, cut: 'no' as CutFact, dedup: true, force: false };
  const rows: { name: string; entry?: LedgerEntry; facts?: Partial<typeof base>; expected: 'placeholder' | 'content' }[] = [
    { name: 'lines shown in this version, nothing cut', entry: shown([1, 10]), expected: 'placeholder' },
    { name: 'never read', expected: 'content' },
    { name: 'another version', entry: shown([1, 10]), facts: { version: 'v2' }, expected: 'content' },
    { name: 'some of the lines never shown', entry: shown([1, 3]), expected: 'content' },
    { name: 'dedup off', entry: shown([1, 10]), facts: { dedup: false }, expected: 'content' },
    { name: 'force', entry: shown([1, 10]), facts: { force: true }, expected: 'content' },
    { name: 'the caps cut the read', entry: shown([1, 10]), facts: { cut: 'yes' }, expected: 'content' },
    { name: 'whether the caps cut it is not known yet', entry: shown([1, 10]), facts: { cut: 'unknown' }, expected: 'content' },
    { name: 'an empty range', entry: shown([1, 10]), facts: { from: 3, to: 2 }, expected: 'content' },
  ];
  for (const row of rows) {
    test(`${row.name} → ${row.expected}`, () => assert.strictEqual(decideRead(row.entry, { ...base, ...row.facts }), row.expected));
  }

  test('before decoding, the bytes prove no cut only when lines and bytes are few and no line can be long', () => {
    const small = Buffer.from('a\nb\nc\n');
    assert.strictEqual(cutBeforeDecoding(small, { from: 1, to: 3 }, limits), 'no');
    assert.strictEqual(cutBeforeDecoding(small, { from: 1, to: 3 }, { ...limits, maxLines: 2 }), 'unknown');
    assert.strictEqual(cutBeforeDecoding(small, { from: 1, to: 3 }, { ...limits, maxBytes: 10 }), 'unknown');
    const long = Buffer.from(`${'x'.repeat(50)}\nb\n`);
    assert.strictEqual(cutBeforeDecoding(long, { from: 1, to: 2 }, { ...limits, maxLineLength: 20 }), 'unknown');
    assert.strictEqual(cutBeforeDecoding(long, { from: 1, to: 1 }, { ...limits, maxLineLength: 20 }), 'no', 'a line read alone is shown whole');
  });

  test('before decoding, a known longest line (the version\'s kept line index) decides without scanning the bytes', () => {
    // Multi-byte text: 30 bytes but 10 characters a line, so a byte scan cannot rule out a long line; the index can.
    const wide = Buffer.from(`${'é'.repeat(10)}\n${'é'.repeat(10)}\n`);
    const narrow = { ...limits, maxLineLength: 15 };
    assert.strictEqual(cutBeforeDecoding(wide, { from: 1, to: 2 }, narrow), 'unknown');
    assert.strictEqual(cutBeforeDecoding(wide, { from: 1, to: 2 }, narrow, 10), 'no');
    assert.strictEqual(cutBeforeDecoding(wide, { from: 1, to: 2 }, narrow, 16), 'unknown');
  });

  test('before formatting, the line index proves no cut only when no long line sits among short ones and the bytes fit', () => {
    const text = `short\n${'x'.repeat(50)}\nshort\n`;
    const file = { bytes: Buffer.from(text), index: indexLines(text) };
    assert.strictEqual(cutBeforeFormatting(file, { from: 1, to: 3 }, limits), 'no');
    assert.strictEqual(cutBeforeFormatting(file, { from: 1, to: 3 }, { ...limits, maxLineLength: 20 }), 'unknown');
    assert.strictEqual(cutBeforeFormatting(file, { from: 2, to: 2 }, { ...limits, maxLineLength: 20 }), 'no');
    assert.strictEqual(cutBeforeFormatting(file, { from: 1, to: 3 }, { ...limits, maxBytes: 30 }), 'unknown');
  });
});
