/**
 * Deleting and moving files are guarded, reviewed changes like edits (API.md §2a): the file must be fully seen in
 * its current version (as for a write), a move never replaces a file and its destination passes the same path
 * rules, the approval request shows them, and in a multiEdit they go all together with the other files or not
 * at all. Patches need them: a patch that renames a module applied its edits but skipped the rename.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { ApprovalRequest } from '../../../src/core/index';
import { assertOk, codeOf, fixture, numbered } from '../helpers/guardFixture';

suite('guard: deleting and moving files', () => {
  test('a fully read file is deleted after approval; the request shows it; the ledger knows it is gone', async () => {
    const requests: ApprovalRequest[] = [];
    const f = fixture({ approve: async (request) => (requests.push(request), { approved: true }) });
    const file = f.file('old.txt', numbered(3));
    assertOk(await f.session.read(file));
    const result = await f.session.delete(file, { explanation: 'unused' });
    assertOk(result);
    assert.ok(!fs.existsSync(file));
    assert.deepStrictEqual(result.files.map((x) => [x.path, x.deleted, x.version]), [[file, true, '']]);
    assert.match(result.text, /^Deleted .*old\.txt:\n.*old\.txt: deleted \(it had 3 lines\)\.$/);
    assert.strictEqual(requests[0].operation, 'delete');
    assert.deepStrictEqual(requests[0].files.map((x) => [x.deleted, x.before, x.after]), [[true, numbered(3), '']]);
    assert.strictEqual(await f.session.check(file), 'fresh', 'the session saw it missing');
    // Knowing it is gone, the session may create it again.
    assertOk(await f.session.edit(file, [{ oldString: '', newString: 'new\n' }]));
  });

  test('deleting needs every line seen in the current version, and the file stays', async () => {
    const f = fixture();
    const file = f.file('big.txt', numbered(50));
    assert.strictEqual(codeOf(await f.session.delete(file)), 'EDIT_REQUIRES_PRIOR_READ');
    assertOk(await f.session.read(file, { offset: 1, limit: 20 }));
    const partly = await f.session.delete(file);
    assert.strictEqual(codeOf(partly), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.match(!partly.ok ? partly.message : '', /Deleting .*big\.txt removes all 50 lines, but you have not seen lines 21–50/);
    assertOk(await f.session.read(file, { offset: 21 }));
    fs.writeFileSync(file, numbered(50).replace('line 3\n', 'line three\n'));
    const changed = await f.session.delete(file);
    assert.strictEqual(codeOf(changed), 'FILE_CHANGED_SINCE_READ');
    assert.match(!changed.ok ? changed.message : '', /\+line three/);
    assert.ok(fs.existsSync(file));
  });

  test('a rejected or cancelled deletion leaves the file', async () => {
    const f = fixture({ approve: async () => ({ approved: false, reason: 'keep it' }) });
    const file = f.file('a.txt', 'a\n');
    assertOk(await f.session.read(file));
    assert.strictEqual(codeOf(await f.session.delete(file)), 'REJECTED_BY_USER');
    const controller = new AbortController();
    controller.abort();
    assert.strictEqual(codeOf(await f.session.delete(file, { signal: controller.signal })), 'CANCELLED');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'a\n');
  });

  test('a file with several hard links or without a write bit is not deleted', async () => {
    const f = fixture();
    const linked = f.file('linked.txt', 'x\n');
    fs.linkSync(linked, path.join(f.root, 'other-name.txt'));
    assertOk(await f.session.read(linked));
    assert.strictEqual(codeOf(await f.session.delete(linked)), 'WRITE_FAILED');
    const readOnly = f.file('ro.txt', 'y\n');
    fs.chmodSync(readOnly, 0o444);
    assertOk(await f.session.read(readOnly));
    assert.strictEqual(codeOf(await f.session.delete(readOnly)), 'WRITE_FAILED');
    assert.ok(fs.existsSync(linked) && fs.existsSync(readOnly));
  });

  test('a move keeps the bytes and the mode, creates the folders, and the moved file counts as seen', async () => {
    const requests: ApprovalRequest[] = [];
    const f = fixture({ approve: async (request) => (requests.push(request), { approved: true }) });
    const file = f.file('src/mod.py', '\uFEFFone\r\ntwo\r\n');
    fs.chmodSync(file, 0o640);
    assertOk(await f.session.read(file));
    const result = await f.session.rename(file, 'lib/pkg/mod.py');
    assertOk(result);
    const moved = path.join(f.root, 'lib/pkg/mod.py');
    assert.ok(!fs.existsSync(file));
    assert.strictEqual(fs.readFileSync(moved, 'utf8'), '\uFEFFone\r\ntwo\r\n');
    assert.strictEqual(fs.statSync(moved).mode & 0o777, 0o640);
    assert.deepStrictEqual(result.files.map((x) => [x.path, x.movedTo]), [[file, moved]]);
    assert.match(result.text, /mod\.py: moved to .*lib\/pkg\/mod\.py, its content unchanged; new version [0-9a-f]{16}\./);
    assert.deepStrictEqual(requests[0].files.map((x) => [x.movedTo, x.before === x.after]), [[moved, true]]);
    // Its content was seen whole before the move: it can be edited at the new path without a read.
    assertOk(await f.session.edit(moved, [{ oldString: 'two', newString: 'TWO' }]));
    assert.strictEqual(fs.readFileSync(moved, 'utf8'), '\uFEFFone\r\nTWO\r\n');
  });

  test('a move never replaces a file, never leaves the roots, never moves a file onto itself', async () => {
    const f = fixture({ deny: ['**/secret*'] });
    const file = f.file('a.txt', 'a\n');
    const taken = f.file('b.txt', 'b\n');
    assertOk(await f.session.read(file));
    assert.strictEqual(codeOf(await f.session.rename(file, taken)), 'FILE_EXISTS');
    assert.strictEqual(codeOf(await f.session.rename(file, '/etc/moved.txt')), 'PATH_DENIED');
    assert.strictEqual(codeOf(await f.session.rename(file, 'secret.txt')), 'PATH_DENIED');
    assert.strictEqual(codeOf(await f.session.rename(file, file)), 'INVALID_INPUT');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'a\n');
    assert.strictEqual(fs.readFileSync(taken, 'utf8'), 'b\n');
  });

  test('one multiEdit moves a file with edits of its content, deletes one, creates one and edits another, all or none', async () => {
    const f = fixture();
    const mod = f.file('old/mod.py', 'def f():\n    return 1\n');
    const user = f.file('main.py', 'from old.mod import f\nprint(f())\n');
    const gone = f.file('gone.py', 'pass\n');
    for (const file of [mod, user, gone]) assertOk(await f.session.read(file));
    const result = await f.session.multiEdit([
      { path: mod, moveTo: 'new/mod.py', edits: [{ oldString: 'return 1', newString: 'return 2' }] },
      { path: user, edits: [{ oldString: 'from old.mod', newString: 'from new.mod' }] },
      { path: gone, delete: true },
      { path: 'new/__init__.py', edits: [{ oldString: '', newString: '' }] },
    ]);
    assertOk(result);
    assert.ok(!fs.existsSync(mod) && !fs.existsSync(gone));
    assert.strictEqual(f.text('new/mod.py'), 'def f():\n    return 2\n');
    assert.strictEqual(f.text('main.py'), 'from new.mod import f\nprint(f())\n');
    assert.strictEqual(f.text('new/__init__.py'), '');
  });

  test('in a multiEdit, a file deleted or moved is named once, and two changes never end at one path', async () => {
    const f = fixture();
    const a = f.file('a.txt', 'a\n');
    const b = f.file('b.txt', 'b\n');
    for (const file of [a, b]) assertOk(await f.session.read(file));
    const cases = [
      [{ path: a, delete: true as const }, { path: a, edits: [{ oldString: 'a', newString: 'A' }] }],
      [{ path: a, moveTo: 'c.txt' }, { path: b, moveTo: 'c.txt' }],
      [{ path: a, moveTo: 'c.txt' }, { path: 'c.txt', edits: [{ oldString: '', newString: 'c\n' }] }],
      [{ path: a, delete: true as const, moveTo: 'c.txt' }],
      [{ path: a }],
    ];
    for (const changes of cases) assert.strictEqual(codeOf(await f.session.multiEdit(changes)), 'INVALID_INPUT', JSON.stringify(changes));
    assert.deepStrictEqual([f.text('a.txt'), f.text('b.txt'), fs.existsSync(path.join(f.root, 'c.txt'))], ['a\n', 'b\n', false]);
  });

  test('a multiEdit whose last file fails puts a deleted file back and undoes a move', async () => {
    const f = fixture();
    const a = f.file('a.txt', 'alpha\n');
    fs.chmodSync(a, 0o600);
    const b = f.file('b.txt', 'beta\n');
    const locked = f.file('locked/c.txt', 'gamma\n');
    for (const file of [a, b, locked]) assertOk(await f.session.read(file));
    // The last file's folder refuses writes (as root ignores modes, a file where a folder must be does it).
    fs.rmSync(path.join(f.root, 'locked'), { recursive: true });
    fs.writeFileSync(path.join(f.root, 'locked'), 'not a folder\n');
    const result = await f.session.multiEdit([
      { path: a, delete: true },
      { path: b, moveTo: 'moved/b.txt' },
      { path: 'locked/new.txt', edits: [{ oldString: '', newString: 'x\n' }] },
    ]);
    assert.ok(!result.ok, JSON.stringify(result));
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'alpha\n');
    assert.strictEqual(fs.statSync(a).mode & 0o777, 0o600);
    assert.strictEqual(fs.readFileSync(b, 'utf8'), 'beta\n');
    assert.ok(!fs.existsSync(path.join(f.root, 'moved')));
  });

  test('an edit anchored at a line takes only the match starting there', async () => {
    const f = fixture();
    const file = f.file('dup.txt', 'x = 1\ny = 2\nx = 1\n');
    assertOk(await f.session.read(file));
    assertOk(await f.session.edit(file, [{ oldString: 'x = 1\n', newString: 'x = 3\n', line: 3 }]));
    assert.strictEqual(f.text('dup.txt'), 'x = 1\ny = 2\nx = 3\n');
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'x = 1\n', newString: 'z\n', line: 2 }])), 'NO_OCCURRENCE_FOUND');
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'x', newString: 'z', line: 0 }])), 'INVALID_INPUT');
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'x', newString: 'z', line: 1, replaceAll: true }])), 'INVALID_INPUT');
    // Lines count in the file as it was before the call's edits: the second edit names line 3 of the original.
    assertOk(await f.session.edit(file, [{ oldString: 'y = 2\n', newString: 'y = 2\ny = 2.5\n' }, { oldString: 'x = 3\n', newString: 'x = 4\n', line: 3 }]));
    assert.strictEqual(f.text('dup.txt'), 'x = 1\ny = 2\ny = 2.5\nx = 4\n');
  });
});
