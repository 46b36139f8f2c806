import * as assert from 'assert';
import { applyEdits } from '../../../src/core/edit/applyEdits';
import { countLines, indexLines, type LineIndex } from '../../../src/core/text/lineEndings';
import type { Edit } from '../../../src/core/index';
import { type Ranges, covers, union } from '../../../src/core/text/lineRanges';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

suite('applyEdits', () => {
  test('replaces a unique match inside seen lines and keeps coverage shifted', () => {
    const result = applyEdits(lines(10), [{ oldString: 'line 3\n', newString: 'line 3\nextra\n' }], [1, 5]);
    assert.ok(result.ok);
    assert.ok(result.text.includes('line 3\nextra\nline 4'));
    // Seen 1-5 plus the written line; old 4-5 are now 5-6.
    assert.deepStrictEqual(result.seen, [1, 6]);
  });

  test('does not unlock unseen lines: seeing 1-10 and editing line 5 leaves line 80 unseen', () => {
    const result = applyEdits(lines(100), [{ oldString: 'line 5\n', newString: 'LINE 5\n' }], [1, 10]);
    assert.ok(result.ok);
    assert.deepStrictEqual(result.seen, [1, 10]);
    const next = applyEdits(result.text, [{ oldString: 'line 80\n', newString: 'x\n' }], result.seen);
    assert.ok(!next.ok && next.code === 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.ok(!next.ok && next.code === 'EDIT_OUTSIDE_SEEN_RANGE' && next.unseen[0] === 80);
  });

  test('refuses a match that lies outside the seen lines, naming them', () => {
    const result = applyEdits(lines(30), [{ oldString: 'line 25', newString: 'x' }], [1, 10]);
    assert.ok(!result.ok && result.code === 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.deepStrictEqual(!result.ok && result.code === 'EDIT_OUTSIDE_SEEN_RANGE' && result.unseen, [25, 25]);
  });

  test('an ambiguous match reaching into unseen lines is EDIT_OUTSIDE_SEEN_RANGE, not a content oracle', () => {
    const text = 'a = 1\nb = 2\na = 1\n';
    const result = applyEdits(text, [{ oldString: 'a = 1', newString: 'a = 2' }], [1, 2]);
    assert.ok(!result.ok && result.code === 'EDIT_OUTSIDE_SEEN_RANGE');
  });

  test('an ambiguous match inside seen lines gives the count and lines', () => {
    const result = applyEdits('x\ny\nx\n', [{ oldString: 'x', newString: 'z' }], [1, 3]);
    assert.ok(!result.ok && result.code === 'AMBIGUOUS_MATCH');
    assert.deepStrictEqual(!result.ok && result.code === 'AMBIGUOUS_MATCH' && result.lines, [1, 3]);
  });

  test('replaceAll needs every occurrence seen', () => {
    const text = 'x\ny\nx\n';
    assert.ok(!applyEdits(text, [{ oldString: 'x', newString: 'z', replaceAll: true }], [1, 2]).ok);
    const all = applyEdits(text, [{ oldString: 'x', newString: 'z', replaceAll: true }], [1, 3]);
    assert.ok(all.ok && all.text === 'z\ny\nz\n' && all.replacements === 2);
  });

  test('replaceAll of two matches on one line counts the line once', () => {
    const result = applyEdits('a a\nb\n', [{ oldString: 'a', newString: 'c\nd', replaceAll: true }], [1, 2]);
    assert.ok(result.ok);
    assert.strictEqual(result.text, 'c\nd c\nd\nb\n');
    assert.deepStrictEqual(result.seen, [1, 4]);
  });

  test('NO_OCCURRENCE_FOUND shows only closest lines the session has seen', () => {
    const text = 'const alpha = 1;\nconst beta = 2;\nconst secret = 3;\n';
    const result = applyEdits(text, [{ oldString: 'const secrets = 3;', newString: 'x' }], [1, 2]);
    assert.ok(!result.ok && result.code === 'NO_OCCURRENCE_FOUND');
    assert.ok(!result.ok && result.code === 'NO_OCCURRENCE_FOUND' && !result.closest.some((row) => row.text.includes('secret = 3')));
  });

  test('an LF oldString matches a CRLF file and the replacement keeps CRLF', () => {
    const text = 'one\r\ntwo\r\nthree\r\n';
    const result = applyEdits(text, [{ oldString: 'one\ntwo', newString: 'uno\ndos\nplus' }], [1, 3]);
    assert.ok(result.ok);
    assert.strictEqual(result.text, 'uno\r\ndos\r\nplus\r\nthree\r\n');
  });

  test('mixed line endings: untouched lines keep their own endings', () => {
    const text = 'a\r\nb\nc\r\n';
    const result = applyEdits(text, [{ oldString: 'b', newString: 'B' }], [1, 3]);
    assert.ok(result.ok && result.text === 'a\r\nB\nc\r\n');
  });

  test('an LF oldString spanning lines matches a CR-only text; new breaks are CR and every other CR stays', () => {
    const text = 'one\rtwo\rthree\rfour\r';
    const result = applyEdits(text, [{ oldString: 'two\nthree', newString: 'TWO\nTHREE\nthree and a half' }], [1, 4]);
    assert.ok(result.ok);
    assert.strictEqual(result.text, 'one\rTWO\rTHREE\rthree and a half\rfour\r');
    assert.deepStrictEqual(result.changes, [{ oldFrom: 2, oldTo: 4, newFrom: 2, newTo: 5 }]);
    assert.deepStrictEqual(result.seen, [1, 5]);
  });

  test('a mixed CRLF/LF/CR text: each replaced line keeps its own ending, extra lines take the last one', () => {
    const text = 'a\r\nb\nc\rd\ne\r';
    const same = applyEdits(text, [{ oldString: 'a\nb\nc\nd', newString: 'A\nB\nC\nD' }], [1, 5]);
    assert.ok(same.ok);
    assert.strictEqual(same.text, 'A\r\nB\nC\rD\ne\r');
    const more = applyEdits(text, [{ oldString: 'b\nc\n', newString: 'B\nC\nC2\n' }], [1, 5]);
    assert.ok(more.ok);
    assert.strictEqual(more.text, 'a\r\nB\nC\rC2\rd\ne\r');
    // A break inside one line takes that line's ending: CR here, CRLF on line 1.
    const inside = applyEdits(text, [{ oldString: 'c', newString: 'c1\nc2' }, { oldString: 'a', newString: 'a1\na2' }], [1, 5]);
    assert.ok(inside.ok);
    assert.strictEqual(inside.text, 'a1\r\na2\r\nb\nc1\rc2\rd\ne\r');
  });

  test('an oldString written with CR or CRLF breaks matches any line break', () => {
    const result = applyEdits('a\nb\r\nc\rd', [{ oldString: 'a\rb\rc\r\nd', newString: 'x' }], [1, 4]);
    assert.ok(result.ok && result.text === 'x');
  });

  // A '\r' followed by a '\n' is one CRLF break: a replacement must not make two line breaks one.
  test('a replacement never joins a CR and a LF into one break', () => {
    const deleted = applyEdits('a\rX\nb', [{ oldString: 'X', newString: '' }], [1, 3]);
    assert.ok(deleted.ok);
    assert.strictEqual(deleted.text, 'a\r\r\nb');
    const leading = applyEdits('a\rb\n', [{ oldString: 'b', newString: '\nb' }], [1, 2]);
    assert.ok(leading.ok);
    assert.strictEqual(leading.text, 'a\r\rb\n');
    const trailing = applyEdits('x\ry\n', [{ oldString: 'x\ny', newString: 'X\n' }], [1, 2]);
    assert.ok(trailing.ok);
    assert.strictEqual(trailing.text, 'X\r\n\n');
    const wholeLine = applyEdits('a\rX\n\nb', [{ oldString: 'X\n', newString: '' }], [1, 4]);
    assert.ok(wholeLine.ok);
    assert.strictEqual(wholeLine.text, 'a\r\r\nb');
    assert.deepStrictEqual(wholeLine.changes, [{ oldFrom: 2, oldTo: 4, newFrom: 2, newTo: 3 }]);
    const lineCounts = [deleted, leading, trailing, wholeLine].map((result) => (result.ok ? countLines(result.text) : -1));
    assert.deepStrictEqual(lineCounts, [3, 3, 2, 3]);
  });

  test('line numbers of a CR-only text: an unseen line is named by the number an editor shows', () => {
    const text = 'l1\rl2\rl3\rl4\r';
    const result = applyEdits(text, [{ oldString: 'l3', newString: 'x' }], [1, 2]);
    assert.ok(!result.ok && result.code === 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.deepStrictEqual(!result.ok && result.code === 'EDIT_OUTSIDE_SEEN_RANGE' && result.unseen, [3, 3]);
  });

  test('matches straight quotes against curly ones and keeps the file\u2019s curly style', () => {
    const text = 'title = \u201cHello\u201d;\nit\u2019s here\n';
    const result = applyEdits(text, [{ oldString: 'title = "Hello";', newString: 'title = "Goodbye";' }], [1, 2]);
    assert.ok(result.ok);
    assert.strictEqual(result.text, 'title = \u201cGoodbye\u201d;\nit\u2019s here\n');
  });

  test('EDIT_NO_CHANGE when oldString equals newString', () => {
    const result = applyEdits('a\n', [{ oldString: 'a', newString: 'a' }], [1, 1]);
    assert.ok(!result.ok && result.code === 'EDIT_NO_CHANGE');
  });

  test('edits apply in order, each against the previous result', () => {
    const result = applyEdits('a\nb\n', [{ oldString: 'a', newString: 'c' }, { oldString: 'c\nb', newString: 'd' }], [1, 2]);
    assert.ok(result.ok && result.text === 'd\n');
  });

  test('a replacement without a final newline that joins the next line needs that line seen', () => {
    const result = applyEdits('a\nb\nc\n', [{ oldString: 'a\n', newString: 'x' }], [1, 1]);
    assert.ok(!result.ok && result.code === 'EDIT_OUTSIDE_SEEN_RANGE');
    const deletion = applyEdits('a\nb\nc\n', [{ oldString: 'a\n', newString: '' }], [1, 1]);
    assert.ok(deletion.ok && deletion.text === 'b\nc\n');
  });

  test('a thousand edits of distinct lines apply in order, each against the result of the one before', () => {
    const text = lines(3000);
    const edits: Edit[] = [];
    for (let i = 1; i <= 1000; i++) edits.push({ oldString: `line ${3 * i}\n`, newString: `LINE ${3 * i}\nadded\n` });
    edits.push({ oldString: 'LINE 3\nadded\nline 4', newString: 'joined' });
    const result = applyEdits(text, edits, [1, 3000]);
    assert.ok(result.ok);
    assert.strictEqual(result.replacements, 1001);
    assert.ok(result.text.startsWith('line 1\nline 2\njoined\nline 5\n'));
    assert.ok(result.text.endsWith('line 2999\nLINE 3000\nadded\n'));
    assert.deepStrictEqual(result.seen, [1, 3998]);
  });

  // The text is cut into line-aligned chunks so that each edit rebuilds only what it touches; where the cuts
  // fall must never change a result (matches across cuts, CRLF, quotes, refusals and their line numbers).
  test('gives the same result, refusals included, however the text is cut into chunks', () => {
    let seed = 11;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    const pieces = ['a', 'b', 'foo', ' ', '"', "'", '\u201c', '\u201d', '\u2019', '\n', '\n', '\r\n', '\r\n', '\r', '\t'];
    const randomText = (max: number): string => {
      let text = '';
      for (let i = random(max); i > 0; i--) text += pieces[random(pieces.length)];
      return text;
    };
    const outcomes = new Set<string>();
    for (let round = 0; round < 1500; round++) {
      const original = randomText(120);
      const total = original.split('\n').length;
      const seen = random(4) === 0 ? [1, 2, 4, Math.max(4, total)] : [1, total];
      const edits: Edit[] = [];
      let current = original;
      for (let e = 1 + random(4); e > 0; e--) {
        const at = random(current.length + 1);
        let oldString = random(6) === 0 ? randomText(5) : current.slice(at, at + 1 + random(16));
        if (random(3) === 0) oldString = oldString.replace(/\r\n/g, '\n').replace(/[\u201c\u201d]/g, '"').replace(/\u2019/g, "'");
        const edit: Edit = { oldString, newString: random(8) === 0 ? oldString : randomText(8) };
        if (random(4) === 0) edit.replaceAll = true;
        edits.push(edit);
        const step = applyEdits(current, [edit], [1, 1e9]);
        if (step.ok) current = step.text;
      }
      const whole = applyEdits(original, edits, seen, undefined, undefined, Infinity);
      outcomes.add(whole.ok ? 'ok' : whole.code);
      const label = JSON.stringify({ original, edits, seen });
      if (whole.ok) assertIndexOf(whole.text, whole.index, label);
      for (const size of [1, 3, 8]) {
        const cut = applyEdits(original, edits, seen, undefined, undefined, size);
        if (cut.ok) assertIndexOf(cut.text, cut.index, `${label} in chunks of ${size}`);
        assert.deepStrictEqual(withoutIndex(cut), withoutIndex(whole), `${label} in chunks of ${size}`);
      }
    }
    for (const outcome of ['ok', 'NO_OCCURRENCE_FOUND', 'AMBIGUOUS_MATCH', 'EDIT_OUTSIDE_SEEN_RANGE', 'EDIT_NO_CHANGE']) assert.ok(outcomes.has(outcome), `no case ended in ${outcome}`);
  });
});


// Refusals number lines as the agent read them: "touches line 23" for what it had read as line 20 (an earlier
// edit of the call added 3 lines above) sent it to read the wrong lines, again and again.
/** The result without its line index (functions), for comparing results. */
function withoutIndex(result: ReturnType<typeof applyEdits>): unknown {
  if (!result.ok) return result;
  const { index: _index, ...rest } = result;
  return rest;
}

/** The index an edit built answers as `indexLines` of its text does; its longest is at least the longest line. */
function assertIndexOf(text: string, index: LineIndex, label: string): void {
  const fresh = indexLines(text);
  assert.strictEqual(index.count, fresh.count, label);
  assert.ok(index.longest >= fresh.longest, label);
  for (let line = 1; line <= fresh.count; line++) {
    assert.strictEqual(index.start(line), fresh.start(line), `${label} start(${line})`);
    assert.strictEqual(index.end(line), fresh.end(line), `${label} end(${line})`);
  }
  for (let offset = 0; offset <= text.length; offset++) assert.strictEqual(index.lineOf(offset), fresh.lineOf(offset), `${label} lineOf(${offset})`);
}

suite('applyEdits: line numbers in a call of several edits', () => {
  const refusal = <C extends string>(result: ReturnType<typeof applyEdits>, code: C): Extract<ReturnType<typeof applyEdits>, { code: C }> => {
    assert.ok(!result.ok && result.code === code, JSON.stringify(result));
    return result as Extract<ReturnType<typeof applyEdits>, { code: C }>;
  };

  test('a later edit\u2019s unseen line is numbered as in the original, not after the earlier edits', () => {
    const edits = [{ oldString: 'line 2\n', newString: 'line 2\na\nb\nc\n' }, { oldString: 'line 20\n', newString: 'x\n' }];
    const failure = refusal(applyEdits(lines(30), edits, [1, 10]), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.deepStrictEqual(failure.unseen, [20, 20]);
    assert.deepStrictEqual(failure.touched.map((edit) => [edit.editIndex, edit.unseen]), [[1, [20, 20]]]);
    assert.strictEqual(failure.text, lines(30));
  });

  test('names the unseen lines of every edit, not only of the first', () => {
    const edits = [{ oldString: 'line 20\n', newString: 'x\n' }, { oldString: 'line 3\n', newString: '' }, { oldString: 'line 40\nline 41\n', newString: 'y\n' }];
    const failure = refusal(applyEdits(lines(50), edits, [1, 10]), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.deepStrictEqual(failure.unseen, [20, 20, 40, 41]);
    assert.deepStrictEqual(failure.touched.map((edit) => [edit.editIndex, edit.unseen]), [[0, [20, 20]], [2, [40, 41]]]);
    assert.strictEqual(failure.stoppedAt, undefined);
  });

  test('an edit that cannot be placed ends the walk, since later edits may build on it', () => {
    const edits = [{ oldString: 'line 20\n', newString: 'x\n' }, { oldString: 'not there', newString: 'y' }, { oldString: 'line 40\n', newString: 'z\n' }];
    const failure = refusal(applyEdits(lines(50), edits, [1, 10]), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.deepStrictEqual(failure.unseen, [20, 20]);
    assert.deepStrictEqual(failure.stoppedAt, { editIndex: 1, code: 'NO_OCCURRENCE_FOUND' });
  });

  test('AMBIGUOUS_MATCH cites original lines, and names the edit that wrote a place', () => {
    const text = 'a\nb\nc\nx\nd\nx\n';
    const deleted = refusal(applyEdits(text, [{ oldString: 'a\nb\n', newString: '' }, { oldString: 'x', newString: 'y' }], [1, 6]), 'AMBIGUOUS_MATCH');
    assert.deepStrictEqual([deleted.editIndex, deleted.count, deleted.lines, deleted.written], [1, 2, [4, 6], []]);
    const wrote = refusal(applyEdits(text, [{ oldString: 'a', newString: 'x' }, { oldString: 'x', newString: 'y' }], [1, 6]), 'AMBIGUOUS_MATCH');
    assert.deepStrictEqual([wrote.count, wrote.lines, wrote.written], [3, [4, 6], [{ writtenBy: 0, at: 1 }]]);
  });

  test('NO_OCCURRENCE_FOUND quotes the closest lines under their original numbers', () => {
    const edits = [{ oldString: 'line 1\n', newString: 'zero\nline 1\n' }, { oldString: 'line 77', newString: 'x' }];
    const failure = refusal(applyEdits(lines(10), edits, [1, 10]), 'NO_OCCURRENCE_FOUND');
    assert.deepStrictEqual(failure.closest[0], { origin: { line: 7 }, text: 'line 7' });
  });

  // The loop the issue describes: whatever the edits, reading the lines a refusal names must be enough.
  test('reading the lines a refusal names is enough for the retry', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return (seed >>> 8) % n;
    };
    let token = 0;
    let multiple = 0;
    for (let round = 0; round < 400; round++) {
      const count = 5 + random(30);
      const original = Array.from({ length: count }, (_, i) => `t${i}\n`).join('');
      let seen: Ranges = [];
      for (let line = 1; line <= count; line++) if (random(3) > 0) seen = union(seen, [line, line]);
      const edits: Edit[] = [];
      let current = original.split('\n').slice(0, -1);
      for (let e = 1 + random(5); e > 0 && current.length > 2; e--) {
        const at = random(current.length - 1);
        const take = 1 + random(2);
        const written = Array.from({ length: random(4) }, () => `n${token++}`);
        edits.push({ oldString: current.slice(at, at + take).map((line) => `${line}\n`).join(''), newString: written.map((line) => `${line}\n`).join('') });
        current = [...current.slice(0, at), ...written, ...current.slice(at + take)];
      }
      const first = applyEdits(original, edits, seen);
      if (first.ok || first.code !== 'EDIT_OUTSIDE_SEEN_RANGE') continue;
      if (first.touched.length > 1) multiple++;
      for (let i = 0; i < first.unseen.length; i += 2) {
        for (let line = first.unseen[i]; line <= first.unseen[i + 1]; line++) assert.ok(line <= count && !covers(seen, line, line), JSON.stringify({ edits, seen, first }));
      }
      const retry = applyEdits(original, edits, union(seen, first.unseen));
      assert.ok(retry.ok, JSON.stringify({ edits, seen, first, retry }));
    }
    assert.ok(multiple > 20, `only ${multiple} refusals named several edits`);
  });
});
