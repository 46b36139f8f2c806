import * as assert from 'assert';
import { mergeLines } from '../../../src/core/history/mergeLines';

/** One line per character: 'abc' is ['a\n', 'b\n', 'c\n']. */
const L = (chars: string): string[] => [...chars].map((c) => `${c}\n`);
const text = (lines: string[]): string => lines.map((line) => line[0]).join('');

suite('history: three-way merge of lines (base = after, ours = now, theirs = before)', () => {
  test('takes both sides where they changed lines apart from each other', () => {
    const result = mergeLines(L('abcdefg'), L('Abcdefg'), L('abcdeFg'));
    assert.strictEqual(text(result.lines), 'AbcdeFg');
    assert.deepStrictEqual(result.conflicts, []);
    assert.deepStrictEqual(result.origins, [0, 1, 2, 3, 4, -1, 6], 'each line names the line of ours it is, -1 for a line theirs brought');
  });

  test('a line both sides changed differently is a conflict and keeps ours', () => {
    const result = mergeLines(L('abcde'), L('abXde'), L('abYde'));
    assert.strictEqual(text(result.lines), 'abXde');
    assert.deepStrictEqual(result.conflicts, [{ oursStart: 2, oursLength: 1, wanted: ['Y\n'], alreadyThere: false }]);
  });

  test('changes of adjacent lines conflict (diff3 groups touching hunks)', () => {
    const result = mergeLines(L('abcdef'), L('abXdef'), L('abcYef'));
    assert.strictEqual(text(result.lines), 'abXdef');
    assert.deepStrictEqual(result.conflicts, [{ oursStart: 2, oursLength: 2, wanted: ['c\n', 'Y\n'], alreadyThere: false }]);
  });

  test('changes with one unchanged line between them do not conflict', () => {
    const result = mergeLines(L('abcdef'), L('abXdef'), L('abcdYf'));
    assert.strictEqual(text(result.lines), 'abXdYf');
    assert.deepStrictEqual(result.conflicts, []);
  });

  test('an insertion right after a line the other side changed conflicts', () => {
    const result = mergeLines(L('abcd'), L('abNcd'), L('aBcd'));
    assert.deepStrictEqual(result.conflicts.length, 1);
    assert.strictEqual(text(result.lines), 'abNcd');
  });

  test('two insertions at the same place conflict; the place is reported between lines of ours', () => {
    const result = mergeLines(L('abcd'), L('abXcd'), L('abYcd'));
    assert.deepStrictEqual(result.conflicts, [{ oursStart: 2, oursLength: 1, wanted: ['Y\n'], alreadyThere: false }]);
  });

  test('a removal in ours where theirs wants other lines is a conflict of zero lines of ours', () => {
    const result = mergeLines(L('abcde'), L('abde'), L('abXde'));
    assert.deepStrictEqual(result.conflicts, [{ oursStart: 2, oursLength: 0, wanted: ['X\n'], alreadyThere: false }]);
    assert.strictEqual(text(result.lines), 'abde');
  });

  test('ours already holding what theirs writes is still a conflict, marked as already there (diff3 would take it)', () => {
    const result = mergeLines(L('abXde'), L('abcde'), L('abcde'));
    assert.deepStrictEqual(result.conflicts, [{ oursStart: 2, oursLength: 1, wanted: ['c\n'], alreadyThere: true }]);
    assert.strictEqual(text(result.lines), 'abcde');
  });

  test('keeps line endings and a missing final newline exactly as each side has them', () => {
    const base = ['one\r\n', 'two\n', 'three'];
    const ours = ['ONE\r\n', 'two\n', 'three'];
    const theirs = ['one\r\n', 'two\n', 'three\n'];
    assert.strictEqual(mergeLines(base, ours, theirs).lines.join(''), 'ONE\r\ntwo\nthree\n');
  });

  test('lines common to all three at both ends are kept in place around a change in the middle', () => {
    const result = mergeLines(L('xxaxx'), L('xxaxx'), L('xxbxx'));
    assert.strictEqual(text(result.lines), 'xxbxx');
    assert.deepStrictEqual(result.origins, [0, 1, -1, 3, 4]);
  });

  test('merges changes far apart in a large file of repeated lines, mapping every kept line to its line of ours', function () {
    // node-diff3 alone took 27 s here (its diff grows with the pairs of equal lines); mocha's timeout guards it.
    const base = Array.from({ length: 20_000 }, (_, i) => (i % 3 ? '}\n' : `line ${i}\n`));
    const ours = [...base];
    ours[10] = 'user\n';
    const theirs = [...base];
    theirs[15_000] = 'restored\n';
    const result = mergeLines(base, ours, theirs);
    assert.deepStrictEqual(result.conflicts, []);
    assert.strictEqual(result.lines[10], 'user\n');
    assert.strictEqual(result.lines[15_000], 'restored\n');
    assert.strictEqual(result.lines.join(''), ours.map((line, i) => (i === 15_000 ? 'restored\n' : line)).join(''));
    assert.deepStrictEqual(result.origins.filter((origin, i) => origin !== i), [-1]);
  });

  test('a side with more changes than the fast diff takes is still merged line by line by node-diff3 in its window', () => {
    const base = Array.from({ length: 1_800 }, (_, i) => `line ${i}\n`);
    const ours = base.map((line, i) => (i < 1_200 && i % 2 === 0 ? `user ${i}\n` : line));
    const theirs = base.map((line, i) => (i === 1_700 ? 'restored\n' : line));
    const result = mergeLines(base, ours, theirs);
    assert.deepStrictEqual(result.conflicts, []);
    assert.deepStrictEqual(result.lines, ours.map((line, i) => (i === 1_700 ? 'restored\n' : line)));
  });

  test('a window whose lines repeat too much for node-diff3 is one conflict as a whole, keeping ours', () => {
    const base = Array.from({ length: 1_800 }, () => '}\n');
    const ours = base.map((line, i) => (i < 1_200 && i % 2 === 0 ? `user ${i}\n` : line));
    const theirs = base.map((line, i) => (i === 1_700 ? 'restored\n' : line));
    const result = mergeLines(base, ours, theirs);
    assert.deepStrictEqual(result.lines, ours);
    assert.deepStrictEqual(result.conflicts, [{ oursStart: 0, oursLength: 1_701, wanted: theirs.slice(0, 1_701), alreadyThere: false }]);
  });
});
