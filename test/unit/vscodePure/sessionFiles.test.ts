import * as assert from 'assert';
import { CHECKED_FILES, LISTED_FILES, sessionFiles } from '../../../src/vscode/views/sessionFiles';

suite('Sessions view: which files a redraw lists and checks', () => {
  test('a short ledger is listed whole, most recent first, and checked whole', () => {
    assert.deepStrictEqual(sessionFiles(['a', 'b', 'c']), { listed: ['c', 'b', 'a'], checked: 3, more: 0 });
  });

  test('a long ledger: the 100 most recent are listed, 50 of them checked, the rest only counted', () => {
    const entries = Array.from({ length: 1000 }, (_, i) => i);
    const { listed, checked, more } = sessionFiles(entries);
    assert.strictEqual(listed.length, LISTED_FILES);
    assert.deepStrictEqual([listed[0], listed[listed.length - 1]], [999, 900]);
    assert.strictEqual(checked, CHECKED_FILES);
    assert.strictEqual(more, 900);
  });
});
