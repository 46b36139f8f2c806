/**
 * Files too big to load are read by streaming, and read as a loaded file would be: Latin-1 when not every byte
 * is UTF-8 (not UTF-8 with replacement characters), UTF-8 with its BOM dropped from line 1, the same version a
 * check or an edit computes. UTF-16 cannot be streamed by bytes and is refused, saying why.
 */
import * as assert from 'assert';
import { IN_MEMORY_MAX_BYTES } from '../../../src/core/context/guardContext';
import { fixture } from '../helpers/guardFixture';
import { lines, ok, refused } from '../helpers/results';

const rows = (text: string): string[] => lines(text).filter((line) => /^ *\d+\t/.test(line)).map((row) => row.trimStart());

/** A file just over the in-memory limit: `first` as line 1, then numbered ASCII lines. */
function bigFile(first: Buffer, encoding: BufferEncoding = 'latin1'): Buffer {
  const parts = [first];
  let size = first.length;
  for (let n = 2; size <= IN_MEMORY_MAX_BYTES + 1024; n++) {
    const line = Buffer.from(`line ${n} of a file too big to load\n`, encoding);
    parts.push(line);
    size += line.length;
  }
  return Buffer.concat(parts);
}

suite('streamed reads: encodings of files too big to load', function () {
  this.timeout(60_000);

  test('a Latin-1 file (not valid UTF-8) shows its characters as Latin-1 and says so, never as replacement characters', async () => {
    const f = fixture();
    const file = f.file('legacy.txt', bigFile(Buffer.from('caf\xe9 na\xefve\n', 'latin1')));
    const read = ok(await f.session.read(file, { offset: 1, limit: 2 }));
    assert.deepStrictEqual(rows(read.text), ['1\tcafé naïve', '2\tline 2 of a file too big to load']);
    assert.match(lines(read.text)[0], /Latin-1/);
    assert.ok(!read.text.includes('\ufffd'), read.text);
  });

  test('a UTF-8 file with a BOM shows line 1 without it, and says UTF-8 with BOM', async () => {
    const f = fixture();
    const file = f.file('bom.txt', bigFile(Buffer.from('\ufeffhéllo\n', 'utf8'), 'utf8'));
    const read = ok(await f.session.read(file, { limit: 1 }));
    assert.deepStrictEqual(rows(read.text), ['1\théllo']);
    assert.match(lines(read.text)[0], /UTF-8 with BOM/);
  });

  test('a plain UTF-8 file names no encoding, and its version is the one check() computes', async () => {
    const f = fixture();
    const file = f.file('plain.txt', bigFile(Buffer.from('ünïcode\n', 'utf8'), 'utf8'));
    const read = ok(await f.session.read(file, { limit: 1 }));
    assert.deepStrictEqual(rows(read.text), ['1\tünïcode']);
    assert.doesNotMatch(lines(read.text)[0], /UTF-8|Latin-1/);
    assert.strictEqual(await f.session.check(file), 'fresh');
  });

  test('a UTF-16 file is refused with FILE_TOO_LARGE that says streaming reads only UTF-8 and Latin-1', async () => {
    const f = fixture();
    const body = bigFile(Buffer.from('\ufeffwide\n', 'utf16le'), 'utf16le');
    const file = f.file('wide.txt', body);
    refused(await f.session.read(file, { limit: 3 }), 'FILE_TOO_LARGE', 'UTF-16');
  });
});
