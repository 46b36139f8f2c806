/**
 * "\r\n", "\n" and a lone "\r" each end a line, end to end on real files: reads number a CR-only file the way
 * an editor shows it (loaded or streamed), edits and writes keep each line's own ending, and refusals name
 * lines by those same numbers.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { indexLines } from '../../../src/core/text/lineEndings';
import { IN_MEMORY_MAX_BYTES } from '../../../src/core/context/guardContext';
import { fixture } from '../helpers/guardFixture';
import { lines, ok, refused } from '../helpers/results';

/** The numbered rows of a read, without its header and notes. */
const rows = (text: string): string[] => lines(text).filter((line) => /^ *\d+\t/.test(line));

suite('line breaks: a lone CR ends a line', () => {
  test('a CR-only file reads as as many numbered lines as it shows', async () => {
    const f = fixture();
    const file = f.file('mac.txt', 'one\rtwo\rthree\rfour\r');
    const read = ok(await f.session.read(file));
    assert.ok(read.kind === 'content' && read.totalLines === 4, read.text);
    assert.match(read.text, /lines 1-4 of 4/);
    assert.deepStrictEqual(rows(read.text), ['1\tone', '2\ttwo', '3\tthree', '4\tfour']);
    assert.ok(!read.text.includes('\r'), 'no CR is shown as content');
    const middle = ok(await f.session.read(file, { offset: 3, limit: 1, force: true }));
    assert.deepStrictEqual(rows(middle.text), ['3\tthree']);
  });

  test('an edit in the middle of a CR-only file keeps every other CR byte for byte', async () => {
    const f = fixture();
    const file = f.file('mac.txt', 'one\rtwo\rthree\rfour\r');
    ok(await f.session.read(file));
    ok(await f.session.edit(file, [{ oldString: 'two\nthree', newString: 'TWO\nTHREE\nthree and a half' }]));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('one\rTWO\rTHREE\rthree and a half\rfour\r'));
    // The lines it wrote are seen, by the new numbers.
    ok(await f.session.edit(file, [{ oldString: 'three and a half', newString: '3.5' }]));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('one\rTWO\rTHREE\r3.5\rfour\r'));
  });

  test('a write over a CR-only file keeps CR, as a CRLF file keeps CRLF', async () => {
    const f = fixture();
    const file = f.file('mac.txt', 'a\rb\r');
    ok(await f.session.read(file));
    ok(await f.session.write(file, 'x\ny\r\nz\n'));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('x\ry\rz\r'));
  });

  test('a mixed CRLF/LF/CR file keeps each line ending through an edit, replaced lines included', async () => {
    const f = fixture();
    const file = f.file('mixed.txt', 'a\r\nb\nc\rd\r\ne\nf\r');
    const read = ok(await f.session.read(file));
    assert.deepStrictEqual(rows(read.text), ['1\ta', '2\tb', '3\tc', '4\td', '5\te', '6\tf']);
    ok(await f.session.edit(file, [{ oldString: 'b\nc\nd', newString: 'B\nC\nD' }]));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('a\r\nB\nC\rD\r\ne\nf\r'));
    ok(await f.session.edit(file, [{ oldString: 'e', newString: 'E' }]));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('a\r\nB\nC\rD\r\nE\nf\r'));
  });

  test('refusals number the lines of a CR-only file the way its read does', async () => {
    const f = fixture();
    const file = f.file('mac.txt', 'alpha\rbeta\rgamma\rbeta\rdelta\r');
    ok(await f.session.read(file, { offset: 1, limit: 3 }));
    refused(await f.session.edit(file, [{ oldString: 'delta', newString: 'x' }]), 'EDIT_OUTSIDE_SEEN_RANGE', 'not seen in this version: 5.');
    refused(await f.session.edit(file, [{ oldString: 'gama', newString: 'x' }]), 'NO_OCCURRENCE_FOUND', '3: gamma');
    ok(await f.session.read(file, { offset: 4 }));
    refused(await f.session.edit(file, [{ oldString: 'beta', newString: 'x' }]), 'AMBIGUOUS_MATCH', '2, 4');
  });

  // Files over IN_MEMORY_MAX_BYTES are read by streaming 1 MiB chunks; their line numbers must be the ones the
  // in-memory rules give, also where a "\r\n" is cut in two by a chunk boundary.
  test('a streamed CR-only file numbers its lines like the in-memory rules, a CRLF split across chunks included', async function () {
    this.timeout(60_000);
    const MiB = 1024 * 1024;
    const size = IN_MEMORY_MAX_BYTES + 2 * MiB;
    const bytes = Buffer.alloc(size);
    for (let at = 0, n = 1; at < size; n++) {
      const line = `line ${n} ${'.'.repeat(n % 50)}\r`;
      at += bytes.write(line, at, 'latin1');
    }
    // At each chunk boundary: a CRLF cut in two, or a lone CR ending one chunk.
    for (let k = 1; k * MiB < size; k++) {
      bytes[k * MiB - 1] = 0x0d;
      bytes[k * MiB] = k % 2 ? 0x0a : 0x78;
    }
    bytes[size - 1] = 0x0d;
    const text = bytes.toString('latin1');
    const index = indexLines(text);
    const expectedRow = (line: number): string => `${line}\t${text.slice(index.start(line), index.end(line))}`;
    const f = fixture();
    const file = f.file('big.txt', bytes);
    try {
      for (const boundary of [1, 2, 3, 4].map((k) => k * MiB)) {
        const offset = index.lineOf(boundary) - 2;
        const read = ok(await f.session.read(file, { offset, limit: 5 }));
        assert.ok(read.kind === 'content' && read.totalLines === index.count, read.text.slice(0, 300));
        const numbers = Array.from({ length: 5 }, (_, i) => offset + i);
        assert.deepStrictEqual(rows(read.text).map((row) => row.trimStart()), numbers.map(expectedRow), `around byte ${boundary}`);
      }
      const tail = ok(await f.session.read(file, { offset: index.count - 2 }));
      assert.deepStrictEqual(rows(tail.text), [index.count - 2, index.count - 1, index.count].map(expectedRow));
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
