import * as assert from 'assert';
import { countLines, eolStyle, indexLines, lineBreaks, matchView, toLf, withEol, type LineIndex } from '../../../src/core/text/lineEndings';

function linesOf(index: LineIndex, text: string): string[] {
  return Array.from({ length: index.count }, (_, i) => text.slice(index.start(i + 1), index.end(i + 1)));
}

suite('lineEndings', () => {
  suite('indexLines', () => {
    const cases: [string, string[]][] = [
      ['', []],
      ['a', ['a']],
      ['a\n', ['a']],
      ['a\nb', ['a', 'b']],
      ['\n', ['']],
      ['\n\n', ['', '']],
      ['a\r\nb\r\n', ['a', 'b']],
      ['a\r\n\r\nb', ['a', '', 'b']],
      ['\r\n', ['']],
      // A lone CR ends a line like LF and CRLF (as in VS Code): a CR-only file has as many lines as it shows.
      ['a\rb\n', ['a', 'b']],
      ['a\nb\r', ['a', 'b']],
      ['a\rb\rc', ['a', 'b', 'c']],
      ['\r', ['']],
      ['\r\r', ['', '']],
      ['a\r\r\nb', ['a', '', 'b']],
      ['a\n\rb', ['a', '', 'b']],
    ];
    for (const [text, expected] of cases) {
      test(`splits ${JSON.stringify(text)} into ${expected.length} line(s)`, () => {
        const index = indexLines(text);
        assert.strictEqual(index.count, expected.length);
        assert.deepStrictEqual(linesOf(index, text), expected);
      });
    }

    test('agrees with split on a large text with mixed endings', () => {
      const parts: string[] = [];
      for (let i = 0; i < 20_000; i++) parts.push(`line ${i}${'x'.repeat(i % 17)}${['\r\n', '\n', '\r'][i % 3]}`);
      const text = parts.join('');
      const index = indexLines(text);
      const expected = text.split(/\r\n|\r|\n/).slice(0, -1);
      assert.strictEqual(index.count, 20_000);
      assert.deepStrictEqual(linesOf(index, text), expected);
      assert.strictEqual(index.longest, Math.max(...expected.map((line) => line.length)));
    });

    test('finds the line that contains an offset', () => {
      const text = 'ab\r\ncd\n\nef';
      const index = indexLines(text);
      const expected = [1, 1, 1, 1, 2, 2, 2, 3, 4, 4, 4];
      assert.deepStrictEqual(Array.from({ length: text.length + 1 }, (_, offset) => index.lineOf(offset)), expected);
      const cr = 'ab\rc\r\rd';
      assert.deepStrictEqual(Array.from({ length: cr.length + 1 }, (_, offset) => indexLines(cr).lineOf(offset)), [1, 1, 1, 2, 2, 3, 4, 4]);
    });

    test('counts lines and lists breaks by the same rules', () => {
      for (const text of ['', 'a', 'a\n', 'a\r', 'a\r\n', 'a\rb\r\nc\nd', '\r\r\n\n\r']) {
        assert.strictEqual(countLines(text), indexLines(text).count, JSON.stringify(text));
      }
      assert.deepStrictEqual(lineBreaks('a\rb\r\nc\nd\r'), ['\r', '\r\n', '\n', '\r']);
      assert.strictEqual(toLf('a\rb\r\nc\nd\r'), 'a\nb\nc\nd\n');
    });

    test('puts offsets after a final line break on the last line, and everything of the empty text on line 1', () => {
      assert.strictEqual(indexLines('a\nb\n').lineOf(4), 2);
      assert.strictEqual(indexLines('').lineOf(0), 1);
    });

    test('rejects line numbers outside the text as a bug', () => {
      const index = indexLines('a\nb');
      assert.throws(() => index.start(0), RangeError);
      assert.throws(() => index.end(3), RangeError);
      assert.throws(() => indexLines('').start(1), RangeError);
    });
  });

  suite('eolStyle', () => {
    test('names LF, CRLF, CR, mixed and none', () => {
      assert.strictEqual(eolStyle('a\nb\n'), 'lf');
      assert.strictEqual(eolStyle('a\r\nb\r\n'), 'crlf');
      assert.strictEqual(eolStyle('a\rb\r'), 'cr');
      assert.strictEqual(eolStyle('a\r\nb\n'), 'mixed');
      assert.strictEqual(eolStyle('no break'), 'none');
      assert.strictEqual(eolStyle(''), 'none');
    });

    test('counts a lone CR as a line break of its own kind', () => {
      assert.strictEqual(eolStyle('a\rb\r\n'), 'mixed');
      assert.strictEqual(eolStyle('a\rb\n'), 'mixed');
      assert.strictEqual(eolStyle('a\rb'), 'cr');
    });

    test('treats a leading LF as LF', () => {
      assert.strictEqual(eolStyle('\n'), 'lf');
    });
  });

  suite('matchView', () => {
    test('is the raw text itself when there is no CR', () => {
      const raw = 'a\nb\n';
      const view = matchView(raw);
      assert.strictEqual(view.text, raw);
      assert.strictEqual(view.toRaw(3), 3);
    });

    test('folds CRLF and lone CR to LF and maps every offset back to the raw text', () => {
      const raw = 'ab\r\ncd\r\n\r\nef\rg';
      const view = matchView(raw);
      assert.strictEqual(view.text, 'ab\ncd\n\nef\ng');
      assert.deepStrictEqual(
        Array.from({ length: view.text.length + 1 }, (_, offset) => view.toRaw(offset)),
        [0, 1, 2, 4, 5, 6, 8, 10, 11, 12, 13, 14],
      );
    });

    test('maps a match of LF-only text onto the CRLF bytes it stands for', () => {
      // An oldString "b\nc" found in the view must cover "b\r\nc" in the raw text; one ending before a line
      // break must not swallow its CR.
      const raw = 'a\r\nb\r\nc\r\n';
      const view = matchView(raw);
      const at = view.text.indexOf('b\nc');
      assert.strictEqual(raw.slice(view.toRaw(at), view.toRaw(at + 3)), 'b\r\nc');
      const b = view.text.indexOf('b');
      assert.strictEqual(raw.slice(view.toRaw(b), view.toRaw(b + 1)), 'b');
    });

    test('maps the end of the view to the end of the raw text', () => {
      const raw = 'x\r\n';
      assert.strictEqual(matchView(raw).toRaw(2), raw.length);
    });

    test('turns a lone CR into a LF in place, so LF-only text spanning lines finds CR-only lines', () => {
      const raw = 'a\rb\rc\r';
      const view = matchView(raw);
      assert.strictEqual(view.text, 'a\nb\nc\n');
      const at = view.text.indexOf('b\nc');
      assert.strictEqual(raw.slice(view.toRaw(at), view.toRaw(at + 3)), 'b\rc');
      assert.deepStrictEqual([0, 1, 2, 6].map((offset) => view.toRaw(offset)), [0, 1, 2, 6]);
    });

    test('maps positions in a text mixing CRLF, LF and CR', () => {
      const raw = 'a\r\nb\nc\rd';
      const view = matchView(raw);
      assert.strictEqual(view.text, 'a\nb\nc\nd');
      const at = view.text.indexOf('a\nb\nc\nd');
      assert.strictEqual(raw.slice(view.toRaw(at), view.toRaw(at + 7)), raw);
      assert.strictEqual(raw.slice(view.toRaw(view.text.indexOf('c')), view.toRaw(view.text.indexOf('c') + 2)), 'c\r');
    });
  });

  suite('withEol', () => {
    test('converts every LF, CRLF and lone CR line break to the requested one', () => {
      assert.strictEqual(withEol('a\nb\r\nc', '\r\n'), 'a\r\nb\r\nc');
      assert.strictEqual(withEol('a\nb\r\nc\r\n', '\n'), 'a\nb\nc\n');
      assert.strictEqual(withEol('a\rb\n', '\r\n'), 'a\r\nb\r\n');
      assert.strictEqual(withEol('a\nb\r\nc\r', '\r'), 'a\rb\rc\r');
    });

    test('keeps text without breaks unchanged', () => {
      assert.strictEqual(withEol('plain', '\r\n'), 'plain');
      assert.strictEqual(withEol('', '\n'), '');
    });
  });
});
