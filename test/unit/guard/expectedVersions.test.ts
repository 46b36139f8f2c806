/**
 * Versions named by the caller: multiEdit's per-file expectedVersion, and standalone sessions (one call each,
 * for callers that keep no conversation), whose refusals ask for that version instead of a read.
 */
import * as assert from 'assert';
import { assertOk, codeOf, fixture, numbered } from '../helpers/guardFixture';

const versionOf = (result: { ok: boolean; version?: string }): string => {
  assert.ok(result.ok && result.version, JSON.stringify(result));
  return result.version;
};

suite('expected versions', () => {
  test('multiEdit takes an expectedVersion per file, authorizing files this session never read', async () => {
    const f = fixture();
    const a = f.file('a.txt', numbered(3));
    const b = f.file('b.txt', numbered(3, 'row'));
    const reader = f.guard.session('reader');
    const va = versionOf(await reader.read(a));
    const vb = versionOf(await reader.read(b));
    const result = await f.session.multiEdit([
      { path: a, edits: [{ oldString: 'line 2', newString: 'two' }], expectedVersion: va },
      { path: b, edits: [{ oldString: 'row 3', newString: 'three' }], expectedVersion: vb },
    ]);
    assertOk(result);
    assert.deepStrictEqual([f.text('a.txt'), f.text('b.txt')], [numbered(3).replace('line 2', 'two'), numbered(3, 'row').replace('row 3', 'three')]);
  });

  test('a stale version of one file refuses the whole multiEdit; a file without one still needs a read', async () => {
    const f = fixture();
    const a = f.file('a.txt', numbered(3));
    const b = f.file('b.txt', numbered(3));
    const va = versionOf(await f.guard.session('reader').read(a));
    f.file('a.txt', numbered(4));
    const stale = await f.session.multiEdit([{ path: a, edits: [{ oldString: 'line 1', newString: 'one' }], expectedVersion: va }]);
    assert.strictEqual(codeOf(stale), 'FILE_CHANGED_SINCE_READ');
    const fresh = versionOf(await f.guard.session('reader').read(a));
    const unread = await f.session.multiEdit([
      { path: a, edits: [{ oldString: 'line 1', newString: 'one' }], expectedVersion: fresh },
      { path: b, edits: [{ oldString: 'line 1', newString: 'one' }] },
    ]);
    assert.strictEqual(codeOf(unread), 'EDIT_REQUIRES_PRIOR_READ');
    assert.deepStrictEqual([f.text('a.txt'), f.text('b.txt')], [numbered(4), numbered(3)]);
  });

  test('one file named twice with two different versions is INVALID_INPUT; the same version twice is fine', async () => {
    const f = fixture();
    const a = f.file('a.txt', numbered(3));
    const va = versionOf(await f.guard.session('reader').read(a));
    const conflicting = await f.session.multiEdit([
      { path: a, edits: [{ oldString: 'line 1', newString: 'one' }], expectedVersion: va },
      { path: 'a.txt', edits: [{ oldString: 'line 2', newString: 'two' }], expectedVersion: '0123456789abcdef' },
    ]);
    assert.strictEqual(codeOf(conflicting), 'INVALID_INPUT');
    assert.match(conflicting.ok ? '' : conflicting.message, /two different expectedVersion/);
    const same = await f.session.multiEdit([
      { path: a, edits: [{ oldString: 'line 1', newString: 'one' }], expectedVersion: va },
      { path: 'a.txt', edits: [{ oldString: 'line 2', newString: 'two' }] },
    ]);
    assertOk(same);
    assert.strictEqual(f.text('a.txt'), 'one\ntwo\nline 3\n');
  });

  test('an expectedVersion that is not a non-empty string is INVALID_INPUT naming the change', async () => {
    const f = fixture();
    const a = f.file('a.txt', numbered(3));
    const result = await f.session.multiEdit([{ path: a, edits: [{ oldString: 'line 1', newString: 'one' }], expectedVersion: 42 as unknown as string }]);
    assert.strictEqual(codeOf(result), 'INVALID_INPUT');
    assert.match(result.ok ? '' : result.message, /changes\[0\]\.expectedVersion/);
  });

  test('a standalone session never gets placeholders, and its refusals ask for expectedVersion', async () => {
    const f = fixture();
    const a = f.file('a.txt', numbered(3));
    const session = f.guard.session('call', { standalone: true, dedup: true });
    const first = await session.read(a);
    const again = await session.read(a);
    assert.strictEqual(again.ok && again.kind, 'content');
    const fresh = f.guard.session('next call', { standalone: true });
    const unread = await fresh.edit(a, [{ oldString: 'line 1', newString: 'one' }]);
    assert.strictEqual(codeOf(unread), 'EDIT_REQUIRES_PRIOR_READ');
    assert.match(unread.ok ? '' : unread.message, /each call stands alone.*expectedVersion/s);
    const write = await fresh.write(a, 'x\n');
    assert.match(write.ok ? '' : write.message, /expectedVersion/);
    f.file('a.txt', numbered(4));
    const stale = await fresh.edit(a, [{ oldString: 'line 1', newString: 'one' }], { expectedVersion: versionOf(first) });
    assert.strictEqual(codeOf(stale), 'FILE_CHANGED_SINCE_READ');
    assert.match(stale.ok ? '' : stale.message, /retry with the version its header shows as expectedVersion/);
    assert.strictEqual(f.text('a.txt'), numbered(4));
  });
});
