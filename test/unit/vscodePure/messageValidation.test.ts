import * as assert from 'assert';
import { parseWebviewMessage } from '../../../src/vscode/approval/messageValidation';

// The webview is untrusted input: anything that is not exactly a protocol message is dropped.
suite('approval panel messages', () => {
  test('accepts the protocol messages and keeps only their known fields', () => {
    assert.deepStrictEqual(parseWebviewMessage({ type: 'ready', extra: 1 }), { type: 'ready' });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'approve', id: 'r1', revision: 2, rejectedHunks: { '/a.ts': [0, 3] }, allowFurtherEdits: true, evil: '<script>' }), { type: 'approve', id: 'r1', revision: 2, rejectedHunks: { '/a.ts': [0, 3] }, allowFurtherEdits: true });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'reject', id: 'r1', reason: '  too broad  ' }), { type: 'reject', id: 'r1', reason: 'too broad' });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'reject', id: 'r1', reason: '   ' }), { type: 'reject', id: 'r1' });
    assert.deepStrictEqual(parseWebviewMessage({ type: 'openDiff', id: 'r1', path: '/a.ts' }), { type: 'openDiff', id: 'r1', path: '/a.ts' });
  });

  test('an approval must name the revision of the diff the user saw', () => {
    // Otherwise a diff recomputed during review (the file changed) could be approved without being seen.
    assert.strictEqual(parseWebviewMessage({ type: 'approve', id: 'r1', rejectedHunks: {} }), undefined);
    assert.strictEqual(parseWebviewMessage({ type: 'approve', id: 'r1', rejectedHunks: {}, revision: '1' }), undefined);
    assert.strictEqual(parseWebviewMessage({ type: 'approve', id: 'r1', rejectedHunks: {}, revision: 1.5 }), undefined);
  });

  test('an approval carries hunk indexes only: content the page adds (say, for a file to be deleted) never reaches the decision', () => {
    // A deletion or a move is approved whole; the final content is computed by the extension from the rejected hunks.
    const message = { type: 'approve', id: 'r1', revision: 0, rejectedHunks: { '/w/gone.txt': [0] }, files: [{ path: '/w/gone.txt', content: 'resurrected' }], content: 'x' };
    assert.deepStrictEqual(parseWebviewMessage(message), { type: 'approve', id: 'r1', revision: 0, rejectedHunks: { '/w/gone.txt': [0] } });
  });

  test('a rejection without a reason is a plain cancel (the user\'s own patch has no reason field)', () => {
    assert.deepStrictEqual(parseWebviewMessage({ type: 'reject', id: 'r1' }), { type: 'reject', id: 'r1' });
  });

  test('drops malformed messages', () => {
    for (const message of [undefined, null, 'approve', 7, [], {}, { type: 'bogus', id: 'r1' }, { type: 'approve', id: 3, revision: 0, rejectedHunks: {} },
      { type: 'approve', id: 'r1', revision: 0, rejectedHunks: 'all' }, { type: 'approve', id: 'r1', revision: 0, rejectedHunks: { '/a': ['0'] } },
      { type: 'reject', id: 'r1', reason: 42 }, { type: 'openDiff', id: 'r1' }]) {
      assert.strictEqual(parseWebviewMessage(message), undefined, JSON.stringify(message));
    }
  });

  test('a very long reason is cut to a bounded size', () => {
    const parsed = parseWebviewMessage({ type: 'reject', id: 'r1', reason: 'x'.repeat(10_000) });
    assert.strictEqual(parsed?.type === 'reject' && parsed.reason?.length, 2000);
  });
});
