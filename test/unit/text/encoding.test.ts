import * as assert from 'assert';
import { decodeText, detectEncoding, encodeText, encodingLabel, type TextEncoding } from '../../../src/core/text/encoding';

const bytes = (...values: (number | string)[]): Uint8Array =>
  Uint8Array.from(values.flatMap((v) => (typeof v === 'string' ? Array.from(v, (c) => c.charCodeAt(0)) : [v])));
const utf16le = (text: string): Uint8Array => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string): Uint8Array => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]);

function encoded(text: string, encoding: TextEncoding): Uint8Array {
  const result = encodeText(text, encoding);
  assert.ok(result.ok, `encoding ${JSON.stringify(text)} as ${encoding} was refused`);
  return result.bytes;
}

function assertSameBytes(actual: Uint8Array, expected: Uint8Array, label: string): void {
  assert.ok(Buffer.from(actual).equals(Buffer.from(expected)), `${label}: ${Buffer.from(actual).toString('hex')} != ${Buffer.from(expected).toString('hex')}`);
}

function assertRoundTrip(original: Uint8Array, expected: TextEncoding, label: string): void {
  const encoding = detectEncoding(original);
  assert.strictEqual(encoding, expected, label);
  assertSameBytes(encoded(decodeText(original, expected), expected), original, label);
}

suite('encoding', () => {
  suite('detectEncoding', () => {
    test('detects UTF-8 with and without BOM', () => {
      assert.strictEqual(detectEncoding(bytes('plain ascii\n')), 'utf8');
      assert.strictEqual(detectEncoding(Buffer.from('caf\u00e9 \u{1F600}\n', 'utf8')), 'utf8');
      assert.strictEqual(detectEncoding(bytes(0xef, 0xbb, 0xbf, 'x')), 'utf8bom');
      assert.strictEqual(detectEncoding(bytes(0xef, 0xbb, 0xbf)), 'utf8bom');
    });

    test('detects UTF-16 LE and BE by their BOM', () => {
      assert.strictEqual(detectEncoding(utf16le('hi')), 'utf16le');
      assert.strictEqual(detectEncoding(utf16be('hi')), 'utf16be');
    });

    test('refuses a UTF-16 BOM followed by an odd number of bytes as not exactly decodable', () => {
      assert.strictEqual(detectEncoding(bytes(0xff, 0xfe, 0x41, 0x00, 0x42)), undefined);
      assert.strictEqual(detectEncoding(bytes(0xfe, 0xff, 0x00)), undefined);
    });

    test('falls back to Latin-1 for bytes that are not valid UTF-8', () => {
      assert.strictEqual(detectEncoding(bytes('caf', 0xe9, '\n')), 'latin1');
      assert.strictEqual(detectEncoding(bytes(0xef, 0xbb, 0xbf, 'caf', 0xe9)), 'latin1');
    });

    test('calls the empty file UTF-8', () => {
      assert.strictEqual(detectEncoding(new Uint8Array(0)), 'utf8');
    });

    // Detection uses buffer.isUtf8 (no decoded string is built); it must agree with a fatal TextDecoder.
    test('judges UTF-8 validity exactly as a fatal TextDecoder does', () => {
      const samples = [
        bytes(0xc0, 0x80), // overlong NUL
        bytes(0xe0, 0x80, 0x80), // overlong
        bytes(0xed, 0xa0, 0x80), // encoded surrogate
        bytes(0xf4, 0x90, 0x80, 0x80), // above U+10FFFF
        bytes(0xf0, 0x9f, 0x98), // truncated 4-byte sequence
        bytes(0x80), // lone continuation
        bytes(0xf0, 0x9f, 0x98, 0x80), // valid emoji
        bytes(0xef, 0xbb, 0xbf, 0xc3, 0xa9), // BOM + é
        bytes(0xff),
      ];
      const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
      for (const sample of samples) {
        let valid = true;
        try {
          decoder.decode(sample);
        } catch {
          valid = false;
        }
        const encoding = detectEncoding(sample);
        assert.strictEqual(encoding === 'utf8' || encoding === 'utf8bom', valid, Buffer.from(sample).toString('hex'));
      }
    });
  });

  suite('decodeText', () => {
    test('strips the BOM of each encoding', () => {
      assert.strictEqual(decodeText(bytes(0xef, 0xbb, 0xbf, 'a'), 'utf8bom'), 'a');
      assert.strictEqual(decodeText(utf16le('a\u00e9'), 'utf16le'), 'a\u00e9');
      assert.strictEqual(decodeText(utf16be('a\u00e9\u{1F600}'), 'utf16be'), 'a\u00e9\u{1F600}');
    });

    test('decodes Latin-1 as ISO-8859-1, not windows-1252', () => {
      // TextDecoder('latin1') is windows-1252 and would turn 0x80 into U+20AC.
      assert.strictEqual(decodeText(bytes(0x80, 0x9f, 0xe9, 0xff), 'latin1'), '\u0080\u009f\u00e9\u00ff');
    });

    test('decodes a UTF-8 view without reading outside it', () => {
      const backing = Buffer.from('xxcaf\u00e9xx', 'utf8');
      assert.strictEqual(decodeText(backing.subarray(2, 7), 'utf8'), 'caf\u00e9');
    });
  });

  suite('round trip', () => {
    test('keeps UTF-8 bytes identical, with CRLF, mixed endings and astral characters', () => {
      assertRoundTrip(Buffer.from('line 1\r\nline 2\nline 3\r\n\u{1F600} caf\u00e9', 'utf8'), 'utf8', 'utf8');
    });

    test('keeps a UTF-8 BOM through decode and encode', () => {
      assertRoundTrip(Buffer.from('\uFEFFa\r\nb\r\n', 'utf8'), 'utf8bom', 'utf8bom');
      assertRoundTrip(bytes(0xef, 0xbb, 0xbf), 'utf8bom', 'BOM only');
    });

    test('keeps latin-1 bytes byte-identical through decode and encode', () => {
      const every = Uint8Array.from({ length: 256 }, (_, i) => (i + 0xe9) & 0xff);
      assertRoundTrip(bytes('caf', 0xe9, '\r\n', 0x80, 0xff, '\n'), 'latin1', 'latin1');
      assertRoundTrip(every, 'latin1', 'all 256 byte values');
    });

    test('keeps a UTF-8 BOM byte-identical when the rest is not UTF-8', () => {
      assertRoundTrip(bytes(0xef, 0xbb, 0xbf, 'caf', 0xe9), 'latin1', 'BOM + latin1');
    });

    test('keeps UTF-16 LE and BE with BOM byte-identical, CRLF and surrogate pairs included', () => {
      assertRoundTrip(utf16le('a\r\nb\u00e9\n\u{1F600}'), 'utf16le', 'utf16le');
      assertRoundTrip(utf16be('a\r\nb\u00e9\n\u{1F600}'), 'utf16be', 'utf16be');
      assertRoundTrip(bytes(0xff, 0xfe), 'utf16le', 'LE BOM only');
      assertRoundTrip(bytes(0xfe, 0xff), 'utf16be', 'BE BOM only');
    });

    test('keeps lone surrogates of a UTF-16 file byte-identical', () => {
      assertRoundTrip(bytes(0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00), 'utf16le', 'LE lone high surrogate');
      assertRoundTrip(bytes(0xfe, 0xff, 0xdc, 0x00, 0x00, 0x41), 'utf16be', 'BE lone low surrogate');
    });

    test('keeps the empty file empty', () => {
      assertRoundTrip(new Uint8Array(0), 'utf8', 'empty');
      assertSameBytes(encoded('', 'latin1'), new Uint8Array(0), 'empty latin1');
    });

    test('keeps untouched bytes of a latin-1 file identical after an edit of its ASCII part', () => {
      const original = bytes('caf', 0xe9, ' = 1;\r\nna', 0xef, 've = 2;\n');
      const text = decodeText(original, 'latin1');
      const edited = encoded(text.replace('= 1', '= 42'), 'latin1');
      assertSameBytes(edited, bytes('caf', 0xe9, ' = 42;\r\nna', 0xef, 've = 2;\n'), 'edited latin1');
    });
  });

  suite('encodeText', () => {
    test('adds the BOM back for BOM encodings', () => {
      assertSameBytes(encoded('a', 'utf8bom'), bytes(0xef, 0xbb, 0xbf, 'a'), 'utf8bom');
      assertSameBytes(encoded('a', 'utf16le'), bytes(0xff, 0xfe, 'a', 0), 'utf16le');
      assertSameBytes(encoded('a', 'utf16be'), bytes(0xfe, 0xff, 0, 'a'), 'utf16be');
    });

    test('refuses characters above U+00FF in Latin-1, naming the first one and its index', () => {
      assert.deepStrictEqual(encodeText('caf\u00e9 \u20ac1', 'latin1'), { ok: false, char: '\u20ac', index: 5 });
      assert.deepStrictEqual(encodeText('ab\u{1F600}', 'latin1'), { ok: false, char: '\u{1F600}', index: 2 });
    });

    test('refuses a lone surrogate in UTF-8 instead of writing a replacement character', () => {
      assert.deepStrictEqual(encodeText('ok \uD83D!', 'utf8'), { ok: false, char: '\uD83D', index: 3 });
      assert.deepStrictEqual(encodeText('\uDE00', 'utf8bom'), { ok: false, char: '\uDE00', index: 0 });
      assert.ok(encodeText('\u{1F600}', 'utf8').ok);
    });
  });

  test('labels each encoding for people', () => {
    assert.deepStrictEqual(
      (['utf8', 'utf8bom', 'utf16le', 'utf16be', 'latin1'] as const).map(encodingLabel),
      ['UTF-8', 'UTF-8 with BOM', 'UTF-16 LE', 'UTF-16 BE', 'Latin-1 (ISO-8859-1)'],
    );
  });
});
