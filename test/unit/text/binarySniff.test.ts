import * as assert from 'assert';
import { sniffBinary } from '../../../src/core/text/binarySniff';

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));
const head = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? ascii(part) : part)));
const text = (value: string): Uint8Array => new TextEncoder().encode(value);

function typeOf(bytes: Uint8Array): string | undefined {
  const result = sniffBinary(bytes);
  return result.binary ? result.type : undefined;
}

suite('sniffBinary', () => {
  suite('text', () => {
    test('treats an empty file as text', () => {
      assert.deepStrictEqual(sniffBinary(new Uint8Array(0)), { binary: false });
    });

    test('treats source code with tabs, CRLF, form feeds and vertical tabs as text', () => {
      assert.deepStrictEqual(sniffBinary(text('function f() {\r\n\treturn 1;\r\n}\f\v\n')), { binary: false });
    });

    test('treats ANSI-coloured logs as text', () => {
      const log = Array.from({ length: 50 }, (_, i) => `\x1b[32mINFO\x1b[0m \x1b[1mline ${i}\x1b[0m\n`).join('');
      assert.deepStrictEqual(sniffBinary(text(log)), { binary: false });
    });

    test('treats UTF-8 and Latin-1 text as text', () => {
      assert.deepStrictEqual(sniffBinary(text('\uFEFFcafé — naïve 日本語\n')), { binary: false });
      assert.deepStrictEqual(sniffBinary(head('caf', [0xe9], ' cr', [0xe8], 'me\n')), { binary: false });
    });

    test('treats UTF-16 with a BOM as text although every ASCII character has a NUL half', () => {
      const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello\r\nworld\n', 'utf16le')]);
      const be = Buffer.from(le.subarray(2)).swap16();
      assert.deepStrictEqual(sniffBinary(le), { binary: false });
      assert.deepStrictEqual(sniffBinary(Buffer.concat([Buffer.from([0xfe, 0xff]), be])), { binary: false });
    });

    test('treats text that merely starts with "MZ" or "ID3" as text', () => {
      assert.deepStrictEqual(sniffBinary(text('MZ-80 notes\nfirst line\n')), { binary: false });
      assert.deepStrictEqual(sniffBinary(text('ID3 tags are metadata\n')), { binary: false });
    });

    test('tolerates a few control characters', () => {
      assert.deepStrictEqual(sniffBinary(text(`${'x'.repeat(80)}\x01\x02\x03\n`)), { binary: false });
    });
  });

  suite('binary', () => {
    test('treats a NUL byte as binary data', () => {
      assert.deepStrictEqual(sniffBinary(head('plain text', [0], 'more text')), { binary: true, type: 'binary data' });
    });

    test('treats mostly control characters as binary data even without a NUL', () => {
      const bytes = head(...Array.from({ length: 40 }, (_, i) => [1 + (i % 8), 0x41, 0x42]));
      assert.deepStrictEqual(sniffBinary(bytes), { binary: true, type: 'binary data' });
    });

    test('treats UTF-16 full of control code units as binary data', () => {
      const units = Buffer.from(Array.from({ length: 20 }, () => '\u0001\u0002a').join(''), 'utf16le');
      assert.strictEqual(typeOf(Buffer.concat([Buffer.from([0xff, 0xfe]), units])), 'binary data');
    });

    test('treats a UTF-32 LE file (a UTF-16 BOM followed by NUL units) as binary data, not MP3', () => {
      const utf32 = head([0xff, 0xfe, 0, 0], ...Array.from({ length: 10 }, () => [0x61, 0, 0, 0]));
      assert.strictEqual(typeOf(utf32), 'binary data');
    });

    // Headers of clearly binary formats decide on their own: a PDF or GIF head can be free of NULs.
    const decisive: [string, Uint8Array][] = [
      ['PNG image', head([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], 'IHDR')],
      ['JPEG image', head([0xff, 0xd8, 0xff, 0xe0], 'JFIF')],
      ['GIF image', head('GIF89a', [0x10, 0x10, 0x80, 0x01, 0x02])],
      ['GIF image', head('GIF87a', [0x10, 0x10])],
      ['WebP image', head('RIFF', [0x24, 0x10, 0x20, 0x30], 'WEBPVP8 ')],
      ['PDF document', text('%PDF-1.7\n%\u00e2\u00e3\n1 obj << /Type /Catalog >>\nendobj\n')],
      ['ZIP archive', head('PK', [3, 4, 0x14, 0x06])],
      ['ZIP archive', head('PK', [5, 6])],
      ['gzip archive', head([0x1f, 0x8b, 0x08, 0x08], 'name.txt')],
      ['ELF executable', head([0x7f], 'ELF', [2, 1, 1])],
      ['Mach-O executable', head([0xcf, 0xfa, 0xed, 0xfe, 7, 1, 1, 1])],
      ['Mach-O executable', head([0xfe, 0xed, 0xfa, 0xce, 1, 1, 1, 1])],
      ['Mach-O executable', head([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2])],
      ['WebAssembly module', head([0], 'asm', [1, 0, 0, 0])],
      ['SQLite database', head('SQLite format 3', [0, 0x10])],
    ];
    for (const [type, bytes] of decisive) {
      test(`recognizes a ${type} header even without NUL bytes or control characters (${bytes.length} bytes)`, () => {
        assert.deepStrictEqual(sniffBinary(bytes), { binary: true, type });
      });
    }

    test('names an Office document or a jar a ZIP archive', () => {
      const docx = head('PK', [3, 4, 0x14, 0, 6, 0, 8, 0], '[Content_Types].xml');
      assert.strictEqual(typeOf(docx), 'ZIP archive');
    });

    test('recognizes a Windows executable by its MZ and PE headers, or by "MZ" once the head is binary', () => {
      const pe = new Uint8Array(0x100).fill(0x41);
      pe.set(ascii('MZ'), 0);
      pe.set([0x80, 0x00, 0x00, 0x00], 0x3c);
      pe.set(ascii('PE').concat([0, 0]), 0x80);
      assert.strictEqual(typeOf(pe), 'Windows executable');
      assert.strictEqual(typeOf(head('MZ', [0x90, 0, 3, 0, 0, 0, 4, 0])), 'Windows executable');
    });

    test('names MP3 and MP4 heads when their bytes are binary', () => {
      assert.strictEqual(typeOf(head('ID3', [4, 0, 0, 0, 0, 0x23])), 'MP3 audio');
      assert.strictEqual(typeOf(head([0xff, 0xfb, 0x90, 0x44, 0, 0, 0, 0])), 'MP3 audio');
      assert.strictEqual(typeOf(head([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0])), 'MP4 video');
    });

    test('does not mistake a Java class file for a universal Mach-O binary', () => {
      assert.strictEqual(typeOf(head([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x41, 0, 0x1d])), 'binary data');
    });
  });
});
