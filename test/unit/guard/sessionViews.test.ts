import * as assert from 'assert';
import type { LedgerChange } from '../../../src/core/index';
import { assertOk, codeOf, fixture, numbered } from '../helpers/guardFixture';

suite('session statistics, ledger views and change events', () => {
  test('counts reads, placeholder hits with the tokens they saved, mutations and refusals by code', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(400));
    await f.session.read(file);
    await f.session.read(file);
    await f.session.edit(file, [{ oldString: 'missing text', newString: 'x' }]);
    assertOk(await f.session.edit(file, [{ oldString: 'line 7\n', newString: 'seven\n' }]));
    const stats = f.session.stats();
    assert.deepStrictEqual([stats.reads, stats.contentReads, stats.placeholderHits, stats.mutations], [2, 1, 1, 1]);
    // 400 lines of ~9 bytes: the placeholder stood for ~3,500 bytes, ~900 tokens.
    assert.ok(stats.estimatedTokensSaved > 700 && stats.estimatedTokensSaved < 1100, String(stats.estimatedTokensSaved));
    assert.deepStrictEqual(stats.refusals, { NO_OCCURRENCE_FOUND: 1 });
  });

  test('lists what a session has seen, per file, with versions and ranges', async () => {
    const f = fixture();
    const a = f.file('a.txt', numbered(50));
    await f.session.read(a, { offset: 10, limit: 5 });
    await f.session.read(a, { offset: 30, limit: 3 });
    await f.session.read(`${f.root}/missing.txt`);
    const entries = f.session.entries();
    const seen = entries.find((e) => e.path === a);
    assert.ok(seen);
    assert.strictEqual(seen.seenText, '10–14, 30–32');
    assert.strictEqual(seen.totalLines, 50);
    assert.match(seen.version ?? '', /^[0-9a-f]{16}$/);
    const missing = entries.find((e) => e.path.endsWith('missing.txt'));
    assert.strictEqual(missing?.version, undefined);
  });

  test('announces every ledger change with the session and path, until unsubscribed', async () => {
    const f = fixture();
    const changes: LedgerChange[] = [];
    const unsubscribe = f.guard.onDidChangeLedger((change) => changes.push(change));
    const file = f.file('a.txt', numbered(5));
    await f.session.read(file);
    await f.guard.session('other').read(file);
    assert.deepStrictEqual(changes, [
      { sessionId: 'test', path: file },
      { sessionId: 'other', path: file },
    ]);
    f.session.clear();
    assert.deepStrictEqual(changes[2], { sessionId: 'test', path: file });
    unsubscribe();
    await f.session.read(file);
    assert.strictEqual(changes.length, 3);
  });

  test('a standalone session\'s ledger is news to nobody: it ends with its call', async () => {
    const f = fixture();
    const changes: LedgerChange[] = [];
    const unsubscribe = f.guard.onDidChangeLedger((change) => changes.push(change));
    const file = f.file('a.txt', numbered(5));
    const oneCall = f.guard.session('one-call', { standalone: true });
    const read = await oneCall.read(file);
    assert.ok(read.ok && read.kind === 'content');
    const edit = await oneCall.edit(file, [{ oldString: 'line 2', newString: 'two' }], { expectedVersion: read.version });
    assert.ok(edit.ok, JSON.stringify(edit));
    f.guard.dropSession('one-call');
    assert.deepStrictEqual(changes, []);
    await f.session.read(file);
    assert.deepStrictEqual(changes, [{ sessionId: 'test', path: file }]);
    unsubscribe();
  });

  test('announces every session that forgets, by clear() or by being dropped, until unsubscribed', async () => {
    // Adapters keep things per session (approval grants) that must not outlive what the session has seen.
    const f = fixture();
    const forgotten: string[] = [];
    const unsubscribe = f.guard.onDidForgetSession((id) => forgotten.push(id));
    await f.session.read(f.file('a.txt', numbered(3)));
    f.session.clear();
    f.guard.session('other');
    f.guard.dropSession('other');
    f.guard.dropSession('never-existed');
    assert.deepStrictEqual(forgotten, ['test', 'other']);
    unsubscribe();
    f.session.clear();
    assert.strictEqual(forgotten.length, 2);
  });

  test('a dropped session is forgotten: a new one with the same id starts empty', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(5));
    await f.session.read(file);
    assert.deepStrictEqual(f.guard.sessionIds(), ['test']);
    f.guard.dropSession('test');
    assert.deepStrictEqual(f.guard.sessionIds(), []);
    const again = f.guard.session('test');
    assert.strictEqual(codeOf(await again.edit(file, [{ oldString: 'line 1', newString: 'x' }])), 'EDIT_REQUIRES_PRIOR_READ');
    assert.strictEqual(again.stats().reads, 0);
  });

  test('hasSession tells live sessions apart without creating any', async () => {
    // Views and reports of a dropped session used session(id) to look, which brought it back empty.
    const f = fixture();
    await f.session.read(f.file('a.txt', numbered(3)));
    assert.strictEqual(f.guard.hasSession('test'), true);
    assert.strictEqual(f.guard.hasSession('other'), false);
    assert.strictEqual(f.guard.hasSession(''), false);
    f.guard.dropSession('test');
    assert.strictEqual(f.guard.hasSession('test'), false);
    assert.deepStrictEqual(f.guard.sessionIds(), [], 'looking created a session');
  });
});

suite('live settings', () => {
  test('configure() changes roots, deny rules, dedup and caps for live sessions', async () => {
    const f = fixture();
    const other = fixture();
    const outside = other.file('b.txt', numbered(5));
    const inside = f.file('a.txt', numbered(30));
    assert.strictEqual(codeOf(await f.session.read(outside)), 'PATH_DENIED');
    f.guard.configure({ roots: [f.root, other.root] });
    assert.strictEqual(codeOf(await f.session.read(outside)), 'ok');
    f.guard.configure({ deny: ['a.txt'] });
    assert.strictEqual(codeOf(await f.session.read(inside)), 'PATH_DENIED');
    f.guard.configure({ deny: [] });
    await f.session.read(inside);
    f.guard.configure({ dedup: false });
    const again = await f.session.read(inside);
    assert.strictEqual(again.ok && again.kind, 'content');
    f.guard.configure({ limits: { maxLines: 10 } });
    const capped = await f.session.read(inside, { force: true });
    assert.strictEqual(capped.ok && capped.kind === 'content' && capped.endLine, 10);
    assert.throws(() => f.guard.configure({ roots: ['relative/path'] }), /absolute/);
  });
});

suite('ledger views name who changed a file', () => {
  test('an entry shows the source noted after the session saw the file, but not the session\u2019s own edit', async () => {
    let now = 1000;
    const f = fixture({ clock: { now: () => now } });
    const file = f.file('a.txt', numbered(3));
    await f.session.read(file);
    assertOk(await f.session.edit(file, [{ oldString: 'line 1', newString: 'one' }]));
    assert.strictEqual(f.session.entries()[0].changedBy, undefined);
    now += 10;
    f.guard.noteChange(file, { kind: 'git', detail: 'checkout' });
    assert.deepStrictEqual(f.session.entries()[0].changedBy, { kind: 'git', detail: 'checkout' });
  });

  test('a session knows when the guard opened it (its clock), and an ended session says so too', () => {
    let now = 1_000;
    const f = fixture({ clock: { now: () => now } });
    const first = f.guard.session('first');
    now = 61_000;
    const second = f.guard.session('second');
    assert.deepStrictEqual([first.startedAt, second.startedAt], [1_000, 61_000]);
    // Asking for a live session again does not restart it.
    now = 99_000;
    assert.strictEqual(f.guard.session('first').startedAt, 1_000);
    const ended: number[] = [];
    f.guard.onWillDropSession((session) => ended.push(session.startedAt));
    f.guard.dropSession('second');
    assert.deepStrictEqual(ended, [61_000]);
  });
});
