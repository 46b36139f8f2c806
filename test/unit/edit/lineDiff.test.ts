import * as assert from 'assert';
import { computeLineChanges, formatUnifiedDiff } from '../../../src/core/edit/lineDiff';

suite('lineDiff', () => {
  test('finds a one-line change in the middle', () => {
    assert.deepStrictEqual(computeLineChanges('a\nb\nc\n', 'a\nB\nc\n'), [{ oldFrom: 2, oldTo: 3, newFrom: 2, newTo: 3 }]);
  });

  test('an EOL-only change is a change', () => {
    assert.strictEqual(computeLineChanges('a\nb\n', 'a\r\nb\n').length, 1);
  });

  test('a lone CR ends a line in diffs: CR-only texts diff line by line, shown without their CRs', () => {
    const before = 'a\rb\rc\rd\r';
    const after = 'a\rB\rc\rd\r';
    const changes = computeLineChanges(before, after);
    assert.deepStrictEqual(changes, [{ oldFrom: 2, oldTo: 3, newFrom: 2, newTo: 3 }]);
    const diff = formatUnifiedDiff('f', before, after, changes);
    assert.strictEqual(diff.text, '--- f\n+++ f\n@@ -1,4 +1,4 @@\n a\n-b\n+B\n c\n d');
    assert.strictEqual(computeLineChanges('a\rb\n', 'a\nb\n').length, 1, 'CR to LF is a change');
  });

  test('separates distant changes into separate hunks', () => {
    const before = Array.from({ length: 40 }, (_, i) => `l${i + 1}`).join('\n') + '\n';
    const after = before.replace('l5\n', 'L5\n').replace('l35\n', 'L35\n');
    const changes = computeLineChanges(before, after);
    assert.strictEqual(changes.length, 2);
    const diff = formatUnifiedDiff('f.txt', before, after, changes);
    assert.strictEqual((diff.text.match(/^@@/gm) ?? []).length, 2);
    assert.ok(diff.text.includes('-l5\n+L5'));
  });

  test('renders a missing final newline the way git does', () => {
    const diff = formatUnifiedDiff('f', 'a\nb', 'a\nc', computeLineChanges('a\nb', 'a\nc'));
    assert.ok(diff.text.includes('-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file'));
  });

  test('a bounded rendering says it was cut and reports only the lines it showed', () => {
    const before = Array.from({ length: 500 }, (_, i) => `x${i}`).join('\n') + '\n';
    const after = Array.from({ length: 500 }, (_, i) => `y${i}`).join('\n') + '\n';
    const diff = formatUnifiedDiff('f', before, after, computeLineChanges(before, after), { maxLines: 50 });
    assert.strictEqual(diff.truncated, true);
    assert.ok(diff.text.endsWith('(diff truncated)'));
    assert.ok(diff.shownNew.length === 0 || diff.shownNew[diff.shownNew.length - 1] < 500);
  });

  test('a full rewrite of 20,000 lines falls back to one hunk instead of an unbounded diff', () => {
    const before = Array.from({ length: 20_000 }, (_, i) => `old ${i} ${i * 7}`).join('\n') + '\n';
    const after = Array.from({ length: 20_000 }, (_, i) => `new ${i} ${i * 11}`).join('\n') + '\n';
    const changes = computeLineChanges(before, after);
    assert.deepStrictEqual(changes, [{ oldFrom: 1, oldTo: 20_001, newFrom: 1, newTo: 20_001 }]);
  });
});
