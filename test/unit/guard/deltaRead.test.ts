/**
 * Delta re-reads: where placeholders are on, a re-read of lines the session was shown in an older version answers
 * with only what changed, numbered as now, the unchanged runs named; never for lines it was not shown, never
 * with `force`, never where placeholders are off, and only when shorter than the content.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { fixture, numbered } from '../helpers/guardFixture';
import { ok } from '../helpers/results';

const rewrite = (file: string, change: (lines: string[]) => void): void => {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  change(lines);
  fs.writeFileSync(file, lines.join('\n'));
};

/** The numbered lines a result shows (`  12\ttext`), as [number, text]. */
const numberedLines = (text: string): Array<[number, string]> =>
  text
    .split('\n')
    .filter((line) => /^\s*\d+\t/.test(line))
    .map((line) => [Number(line.split('\t')[0]), line.slice(line.indexOf('\t') + 1)]);

suite('delta re-reads', () => {
  test('two lines changed in a 300-line range by someone else: those two lines, numbered as now, and the unchanged runs', async () => {
    const f = fixture();
    const file = f.file('big.ts', numbered(300));
    const first = ok(await f.session.read('big.ts'));
    rewrite(file, (lines) => {
      lines[99] = 'line 100 changed';
      lines[149] = 'line 150 changed';
    });
    const again = ok(await f.session.read('big.ts'));
    assert.strictEqual(again.kind, 'delta', again.text);
    assert.deepStrictEqual(numberedLines(again.text), [
      [100, 'line 100 changed'],
      [150, 'line 150 changed'],
    ]);
    assert.match(again.text, /lines 1-99, 101-149, 151-300\./);
    assert.match(again.text, /only what changed since your read #1 \(version [0-9a-f]+\)/);
    assert.match(again.text, /\[line 100 replaces line 100 of your read #1\]/);
    assert.ok(again.text.length * 5 < first.text.length, `a delta of ${again.text.length} characters against ${first.text.length}`);
    if (again.kind !== 'delta') return;
    assert.strictEqual(again.since, first.version);
    assert.strictEqual(f.session.stats().deltaReads, 1);
    // The range now counts as shown in the new version: the next read is the placeholder, the edit applies.
    assert.strictEqual(ok(await f.session.read('big.ts')).kind, 'unchanged');
    ok(await f.session.edit('big.ts', [{ oldString: 'line 150 changed', newString: 'line 150 again' }]));
  });

  test('inserted and removed lines: the runs say the numbers they were shown under', async () => {
    const f = fixture();
    const file = f.file('moved.txt', numbered(200));
    ok(await f.session.read('moved.txt'));
    rewrite(file, (lines) => {
      lines.splice(150, 2); // old lines 151–152 removed
      lines.splice(10, 0, 'new A', 'new B'); // inserted after old line 10
    });
    const again = ok(await f.session.read('moved.txt'));
    assert.strictEqual(again.kind, 'delta', again.text);
    assert.deepStrictEqual(numberedLines(again.text), [
      [11, 'new A'],
      [12, 'new B'],
    ]);
    assert.match(again.text, /lines 1-10, 13-152 \(were 11-150\), 153-200 \(were 153-200\)|lines 1-10, 13-152 \(were 11-150\), 153-200/);
    assert.match(again.text, /\[lines 11-12 are new \(after line 10 of your read #1\)\]/);
    assert.match(again.text, /\[lines 151-152 of your read #1 were removed \(they stood after line 152 as the file is now\)\]/);
  });

  test('a range partly never shown, no placeholders, force, or a whole rewrite: content', async () => {
    const f = fixture();
    const file = f.file('part.txt', numbered(300));
    ok(await f.session.read('part.txt', { offset: 1, limit: 100 }));
    rewrite(file, (lines) => void (lines[4] = 'changed'));
    // Lines 101–300 were never shown: their content must come.
    assert.strictEqual(ok(await f.session.read('part.txt')).kind, 'content');
    rewrite(file, (lines) => void (lines[5] = 'changed too'));
    assert.strictEqual(ok(await f.session.read('part.txt', { force: true })).kind, 'content');

    const off = f.guard.session('no-dedup', { dedup: false });
    ok(await off.read('part.txt'));
    rewrite(file, (lines) => void (lines[6] = 'changed again'));
    assert.strictEqual(ok(await off.read('part.txt')).kind, 'content');

    const whole = f.guard.session('whole');
    ok(await whole.read('part.txt'));
    fs.writeFileSync(file, numbered(300, 'other'));
    assert.strictEqual(ok(await whole.read('part.txt')).kind, 'content', 'nothing unchanged: no delta');
  });

  test('a range inside a changed file whose own lines did not change: named unchanged, with nothing to show', async () => {
    const f = fixture();
    const file = f.file('far.txt', numbered(400));
    ok(await f.session.read('far.txt', { offset: 200, limit: 100 }));
    rewrite(file, (lines) => void (lines[9] = 'changed far away'));
    const again = ok(await f.session.read('far.txt', { offset: 200, limit: 100 }));
    assert.strictEqual(again.kind, 'delta', again.text);
    assert.deepStrictEqual(numberedLines(again.text), []);
    assert.match(again.text, /lines 200-299\./);
    assert.match(again.text, /Nothing in these lines changed/);
  });

  test('a delta is never sent across a forget (compaction): the next read is content', async () => {
    const f = fixture();
    const file = f.file('c.txt', numbered(300));
    ok(await f.session.read('c.txt'));
    f.session.clear();
    rewrite(file, (lines) => void (lines[0] = 'first changed'));
    assert.strictEqual(ok(await f.session.read('c.txt')).kind, 'content');
  });

  test('a small file where the delta is not shorter: content', async () => {
    const f = fixture();
    const file = f.file('tiny.txt', 'a\nb\n');
    ok(await f.session.read('tiny.txt'));
    fs.writeFileSync(file, 'a\nc\n');
    assert.strictEqual(ok(await f.session.read('tiny.txt')).kind, 'content');
  });

  test('CRLF and a BOM: the changed line is shown as the file holds it, and the delta is true', async () => {
    const f = fixture();
    const lines = Array.from({ length: 120 }, (_, i) => `row ${i + 1}`);
    const file = f.file('win.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n') + '\r\n')]));
    ok(await f.session.read('win.txt'));
    lines[59] = 'row sixty';
    fs.writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(lines.join('\r\n') + '\r\n')]));
    const again = ok(await f.session.read('win.txt'));
    assert.strictEqual(again.kind, 'delta', again.text);
    assert.deepStrictEqual(numberedLines(again.text), [[60, 'row sixty']]);
    ok(await f.session.edit('win.txt', [{ oldString: 'row sixty', newString: 'row 60' }]));
    assert.ok(fs.readFileSync(path.join(f.root, 'win.txt')).subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])));
  });
});
