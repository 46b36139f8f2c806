/**
 * ChunkedText must be indistinguishable from one string: every offset, line number, view position and match
 * is the one `indexLines`, `matchView` and `indexOf` give on the joined text, for every chunk size (size 1 cuts
 * at every line) and after any sequence of replacements. Only the speed may depend on the chunks.
 */
import * as assert from 'assert';
import { ChunkedText } from '../../../src/core/edit/chunkedText';
import { indexLines, matchView } from '../../../src/core/text/lineEndings';
import { normalizeQuotes } from '../../../src/core/edit/quotes';

let seed = 7;
function random(n: number): number {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return (seed >>> 8) % n;
}
const pieces = ['a', 'bc', ' ', '\n', '\n', '\r\n', '\r\n', '\r', '\r', 'xyz\r', '"', '\u201c', '\u2019', "'", 'xyz\n'];
function randomText(max: number): string {
  let text = '';
  for (let i = random(max); i > 0; i--) text += pieces[random(pieces.length)];
  return text;
}

function findAllFlat(view: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = view.indexOf(needle); at !== -1; at = view.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

/** Checks every query against the flat text; `label` says which case failed. */
function assertLikeFlat(chunked: ChunkedText, flat: string, label: string): void {
  const index = indexLines(flat);
  const view = matchView(flat);
  assert.strictEqual(chunked.toString(), flat, label);
  assert.strictEqual(chunked.length, flat.length, label);
  assert.strictEqual(chunked.lineCount, index.count, label);
  for (let offset = 0; offset <= flat.length; offset++) {
    assert.strictEqual(chunked.lineOf(offset), index.lineOf(offset), `${label}: lineOf(${offset})`);
    assert.strictEqual(chunked.charCodeAt(offset), flat.charCodeAt(offset), `${label}: charCodeAt(${offset})`);
  }
  for (let line = 1; line <= index.count; line++) {
    assert.strictEqual(chunked.lineStart(line), index.start(line), `${label}: lineStart(${line})`);
    assert.strictEqual(chunked.lineEnd(line), index.end(line), `${label}: lineEnd(${line})`);
  }
  for (let offset = 0; offset <= view.text.length; offset++) assert.strictEqual(chunked.toRaw(offset), view.toRaw(offset), `${label}: toRaw(${offset})`);
  for (let i = 0; i < 10; i++) {
    const from = random(flat.length + 1);
    const to = from + random(flat.length - from + 1);
    assert.strictEqual(chunked.slice(from, to), flat.slice(from, to), `${label}: slice(${from}, ${to})`);
  }
  for (let i = 0; i < 10; i++) {
    const from = random(view.text.length + 1);
    const needle = view.text.slice(from, from + 1 + random(6)) || '\n';
    assert.deepStrictEqual(chunked.findAll(needle, false), findAllFlat(view.text, needle), `${label}: findAll(${JSON.stringify(needle)})`);
    const straight = normalizeQuotes(needle);
    assert.deepStrictEqual(chunked.findAll(straight, true), findAllFlat(normalizeQuotes(view.text), straight), `${label}: quote-tolerant findAll(${JSON.stringify(straight)})`);
  }
}

suite('ChunkedText', () => {
  test('answers like indexLines, matchView and indexOf on the joined text, for random texts and chunk sizes', () => {
    for (let round = 0; round < 300; round++) {
      const text = randomText(40);
      for (const size of [1, 2, 5, 16, Infinity]) assertLikeFlat(new ChunkedText(text, size), text, `${JSON.stringify(text)} in chunks of ${size}`);
    }
  });

  test('uses a line index it is given for the original text without changing any answer', () => {
    for (let round = 0; round < 100; round++) {
      const text = randomText(40);
      assertLikeFlat(new ChunkedText(text, 3, indexLines(text)), text, JSON.stringify(text));
    }
  });

  // A replacement can remove the line break a chunk ends with (joining it to the next chunk's first line),
  // empty whole chunks, or leave the text empty.
  test('stays like one string through replacements that join lines, empty chunks or the whole text', () => {
    for (let round = 0; round < 300; round++) {
      let flat = randomText(40);
      const size = [1, 2, 5, 16][random(4)];
      const chunked = new ChunkedText(flat, size);
      for (let step = 0; step < 4 && flat.length > 0; step++) {
        const ranges: { start: number; end: number }[] = [];
        const texts: string[] = [];
        for (let at = random(flat.length); at < flat.length && ranges.length < 3; ) {
          const end = Math.min(flat.length, at + 1 + random(8));
          ranges.push({ start: at, end });
          texts.push(random(3) === 0 ? '' : randomText(4));
          at = end + random(10);
        }
        const label = `${JSON.stringify(flat)} in chunks of ${size}, replacing ${JSON.stringify(ranges)} with ${JSON.stringify(texts)}`;
        for (let i = ranges.length - 1; i >= 0; i--) flat = flat.slice(0, ranges[i].start) + texts[i] + flat.slice(ranges[i].end);
        chunked.replace(ranges, texts);
        assertLikeFlat(chunked, flat, label);
      }
    }
  });
});
