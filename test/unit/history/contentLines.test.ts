import * as assert from 'assert';
import { fromBinary, splitLines, toBinary } from '../../../src/core/history/contentLines';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const linesOfBytes = (data: Uint8Array): number[][] => splitLines(toBinary(data)).map((line) => [...Buffer.from(line, 'latin1')]);

suite('history: content as lines', () => {
  test('keeps each line break in its line: LF, CRLF, a lone CR, and a last line without one', () => {
    assert.deepStrictEqual(splitLines(toBinary('a\nb\r\nc\rd')), ['a\n', 'b\r\n', 'c\r', 'd']);
  });

  test('an empty file has no lines, and a file of one break has one', () => {
    assert.deepStrictEqual(splitLines(toBinary('')), []);
    assert.deepStrictEqual(splitLines(toBinary('\r\n')), ['\r\n']);
  });

  test('joining the lines gives back every byte: BOM, mixed endings, bytes that are not UTF-8', () => {
    const data = bytes(0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0xff, 0xfe, 0x80, 0x0a, 0x0d, 0x0d, 0x0a, 0x00, 0xc3);
    const lines = splitLines(toBinary(data));
    assert.strictEqual(lines.length, 5);
    assert.deepStrictEqual(fromBinary(lines.join(''), true), data);
  });

  test('text goes in as UTF-8 and comes back as the same text', () => {
    const text = '\ufeffgrüße\r\n日本\n';
    const lines = splitLines(toBinary(text));
    assert.strictEqual(lines.length, 2);
    assert.strictEqual(fromBinary(lines.join(''), false), text);
  });

  test('a UTF-16LE file is cut after its LF and CRLF code units, never inside a code unit', () => {
    // "Ċ\r\nx\n" in UTF-16LE: U+010A has the byte 0x0A at an even offset, which is not a line break.
    const data = new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('\u010a\r\nx\ny', 'utf16le')]));
    assert.deepStrictEqual(linesOfBytes(data), [
      [0xff, 0xfe, 0x0a, 0x01, 0x0d, 0x00, 0x0a, 0x00],
      [0x78, 0x00, 0x0a, 0x00],
      [0x79, 0x00],
    ]);
  });

  test('a UTF-16BE file is cut after its line break code units', () => {
    const data = bytes(0xfe, 0xff, 0x00, 0x61, 0x00, 0x0a, 0x0a, 0x00, 0x00, 0x0d);
    assert.deepStrictEqual(linesOfBytes(data), [[0xfe, 0xff, 0x00, 0x61, 0x00, 0x0a], [0x0a, 0x00, 0x00, 0x0d]]);
  });

  test('a UTF-16 file with an odd trailing byte keeps it in its last line', () => {
    const data = bytes(0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00, 0x62);
    assert.deepStrictEqual(linesOfBytes(data), [[0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00], [0x62]]);
  });
});
