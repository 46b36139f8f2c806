import * as assert from 'assert';
import { clientLabel, withoutControls } from '../../../src/mcp/index';
import { markdownText } from '../../../src/vscode/util/markdownText';

// The rule was written twice (client labels in src/mcp, Markdown escaping in src/vscode), free to drift apart;
// both now use withoutControls.
suite('control and format characters in text from outside (withoutControls)', () => {
  test('turns each run of control characters, format characters and line or paragraph separators into one space', () => {
    assert.strictEqual(withoutControls('a\u0000\u0001b'), 'a b');
    assert.strictEqual(withoutControls('line\r\nnext\tcell'), 'line next cell');
    assert.strictEqual(withoutControls('safe\u202Eexe.txt'), 'safe exe.txt');
    assert.strictEqual(withoutControls('in\u200Bvisible\uFEFF'), 'in visible ');
    assert.strictEqual(withoutControls('a\u2028b\u2029c'), 'a b c');
  });

  test('leaves ordinary text, other spaces and every script alone', () => {
    for (const text of ['Claude Code 2.0.14', 'naïve 日本語 ✓', 'two  spaces', 'nbsp\u00A0kept']) assert.strictEqual(withoutControls(text), text);
  });

  test('client labels and Markdown text both follow it', () => {
    assert.strictEqual(clientLabel({ name: 'evil\u202E\nclient', version: '1\u0000.0' }), 'evil client 1 .0');
    assert.strictEqual(markdownText('evil\u202E\nclient'), 'evil client');
  });
});
