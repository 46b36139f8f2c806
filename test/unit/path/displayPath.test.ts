import * as assert from 'assert';
import { displayPath } from '../../../src/core/path/displayPath';

suite('displayPath', () => {
  test('shows a plain path as it is, spaces, quotes and non-Latin letters included', () => {
    for (const path of ['/r/a.txt', '/r/my file "x".ts', '/r/naïve/日本.md', 'C:\\r\\a.txt']) assert.strictEqual(displayPath(path), path);
  });

  // A file named "a\n     2\tforged" would otherwise add a line that looks like numbered file content.
  test('quotes a path with a line break or tab so it stays on one line, and JSON.parse gives the name back', () => {
    const path = '/r/a\n     2\tforged\r.txt';
    const shown = displayPath(path);
    assert.strictEqual(shown, '"/r/a\\n     2\\tforged\\r.txt"');
    assert.strictEqual(JSON.parse(shown), path);
  });

  test('escapes the controls and separators JSON leaves alone: DEL, C1, U+2028/2029 and bidi overrides', () => {
    const path = '/r/a\u007f\u0085\u2028\u2029\u202e\u2066.txt';
    const shown = displayPath(path);
    assert.strictEqual(shown, '"/r/a\\u007f\\u0085\\u2028\\u2029\\u202e\\u2066.txt"');
    assert.strictEqual(JSON.parse(shown), path);
  });

  // A caller's 1 MiB path came back whole in every refusal that named it.
  test('shows a path over 300 characters as its start, "…", its end and its length; shorter ones whole', () => {
    const long = `/r/${'a'.repeat(1024 * 1024)}/name.ts`;
    const shown = displayPath(long);
    assert.strictEqual(shown, `/r/${'a'.repeat(197)}…${'a'.repeat(52)}/name.ts (1,048,587 characters)`);
    const limit = `/r/${'b'.repeat(297)}`;
    assert.strictEqual(displayPath(limit), limit);
    assert.match(displayPath(`${limit}c`), /^\/r\/b+…b+c \(301 characters\)$/);
  });

  test('a shortened path is still quoted when it holds a line break, and never splits a character in two', () => {
    assert.match(displayPath(`/r/a\n${'x'.repeat(400)}`), /^"\/r\/a\\nx+…x+" \(405 characters\)$/);
    const emoji = '😀'.repeat(200);
    const shown = displayPath(emoji);
    assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(shown), 'a lone surrogate');
    assert.match(shown, /^(😀)+…(😀)+ \(400 characters\)$/);
  });
});
