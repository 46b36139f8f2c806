import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import type { FileSystem } from '../../../src/core/ports';
import { assertOk, codeOf, fixture, numbered } from '../helpers/guardFixture';

suite('prior-read enforcement', () => {
  test('an existing file never read in this session cannot be edited or overwritten', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(3));
    const edit = await f.session.edit(file, [{ oldString: 'line 1', newString: 'x' }]);
    assert.strictEqual(codeOf(edit), 'EDIT_REQUIRES_PRIOR_READ');
    assert.strictEqual(codeOf(await f.session.write(file, 'x\n')), 'EDIT_REQUIRES_PRIOR_READ');
    assert.strictEqual(f.text('a.txt'), numbered(3));
  });

  // Seed (prior-read review): error codes of an unread file must not reveal its content.
  test('an unread file gives the same refusal whatever oldString is (no content oracle)', async () => {
    const f = fixture();
    const file = f.file('secret.txt', 'token = abc\ntoken = abc\n');
    let approvals = 0;
    const g = fixture({ approve: async () => (approvals++, { approved: true }) });
    const other = g.file('secret.txt', 'token = abc\ntoken = abc\n');
    for (const oldString of ['token = abc', 'token = xyz', 'nothing']) {
      assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString, newString: 'y' }])), 'EDIT_REQUIRES_PRIOR_READ');
      assert.strictEqual(codeOf(await g.session.edit(other, [{ oldString, newString: 'y' }])), 'EDIT_REQUIRES_PRIOR_READ');
    }
    // The user is never asked to approve a diff of a file the agent has not read.
    assert.strictEqual(approvals, 0);
  });

  // 46% of real edits follow only a line-range view: edits inside the seen lines must work.
  test('an edit inside lines seen by a ranged read is allowed; outside it is refused naming the lines', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(100));
    await f.session.read(file, { offset: 40, limit: 20 });
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'line 45\n', newString: 'line 45 edited\n' }])), 'ok');
    const outside = await f.session.edit(file, [{ oldString: 'line 80\n', newString: 'x\n' }]);
    assert.strictEqual(codeOf(outside), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.match(!outside.ok ? outside.message : '', /lines you have not seen in this version: 80\. Read those lines/);
  });

  test('a write over an existing file needs the whole current version seen', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(30));
    await f.session.read(file, { offset: 1, limit: 10 });
    const refused = await f.session.write(file, 'new\n');
    assert.strictEqual(codeOf(refused), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.match(!refused.ok ? refused.message : '', /lines 11–30/);
    await f.session.read(file, { offset: 11 });
    assert.strictEqual(codeOf(await f.session.write(file, 'new\n')), 'ok');
    assert.strictEqual(f.text('a.txt'), 'new\n');
  });

  // Seed: the model authored every byte it wrote, so create → edit → edit needs no read in between.
  test('a file the session created can be edited again without a read', async () => {
    const f = fixture();
    const file = path.join(f.root, 'new.txt');
    assertOk(await f.session.edit(file, [{ oldString: '', newString: 'one\ntwo\n' }]));
    assertOk(await f.session.edit(file, [{ oldString: 'two', newString: 'three' }]));
    assertOk(await f.session.write(file, 'rewritten\n'));
    assertOk(await f.session.edit(file, [{ oldString: 'rewritten', newString: 'final' }]));
    assert.strictEqual(f.text('new.txt'), 'final\n');
  });

  // Seed: a later partial read must not revoke what a write authorized.
  test('write (create) → partial read → edit elsewhere still works', async () => {
    const f = fixture();
    const file = path.join(f.root, 'made.txt');
    assertOk(await f.session.write(file, numbered(50)));
    await f.session.read(file, { offset: 1, limit: 5 });
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'line 40\n', newString: 'forty\n' }])), 'ok');
  });

  // Seed: "read full @x → external write @y → read partial @y → edit" must not edit bytes never seen.
  test('a partial read after an external change does not unlock the changed lines', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(60));
    await f.session.read(file);
    fs.writeFileSync(file, numbered(60).replace('line 50\n', 'line fifty\n'));
    await f.session.read(file, { offset: 1, limit: 10 });
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'line fifty', newString: 'x' }])), 'EDIT_OUTSIDE_SEEN_RANGE');
    // Unchanged lines it saw in full before keep being seen.
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'line 30\n', newString: 'thirty\n' }])), 'ok');
  });

  test('create with an empty oldString over an existing file is FILE_EXISTS, read or not', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'x\n');
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: '', newString: 'y' }])), 'FILE_EXISTS');
    await f.session.read(file);
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: '', newString: 'y' }])), 'FILE_EXISTS');
  });

  test('an edit of a missing file with a non-empty oldString is FILE_NOT_FOUND', async () => {
    const f = fixture();
    assert.strictEqual(codeOf(await f.session.edit(path.join(f.root, 'none.txt'), [{ oldString: 'a', newString: 'b' }])), 'FILE_NOT_FOUND');
  });

  // Seed: only ENOENT is benign; any other stat failure must fail closed.
  test('a stat failure other than ENOENT is PRIOR_READ_VERIFICATION_FAILED and nothing is written', async () => {
    const real = createNodeFileSystem();
    let failStat = false;
    const flaky: FileSystem = {
      ...real,
      async stat(p) {
        if (failStat && p.endsWith('a.txt')) throw Object.assign(new Error('permission denied'), { code: 'EACCES', syscall: 'stat' });
        return real.stat(p);
      },
    };
    const f = fixture({ fileSystem: flaky });
    const file = f.file('a.txt', numbered(3));
    await f.session.read(file);
    failStat = true;
    const edit = await f.session.edit(file, [{ oldString: 'line 1', newString: 'x' }]);
    assert.strictEqual(codeOf(edit), 'PRIOR_READ_VERIFICATION_FAILED');
    assert.match(!edit.ok ? edit.message : '', /EACCES/);
    assert.strictEqual(codeOf(await f.session.read(file, { force: true })), 'PRIOR_READ_VERIFICATION_FAILED');
    assert.strictEqual(f.text('a.txt'), numbered(3));
  });

  test('expectedVersion lets a stateless caller edit exactly that version, and only that version', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(5));
    const seen = await f.guard.session('reader').read(file);
    assertOk(seen);
    const stateless = f.guard.session('stateless');
    assertOk(await stateless.edit(file, [{ oldString: 'line 2', newString: 'two' }], { expectedVersion: seen.version }));
    const stale = await f.guard.session('stateless-2').edit(file, [{ oldString: 'line 3', newString: 'three' }], { expectedVersion: seen.version });
    assert.strictEqual(codeOf(stale), 'FILE_CHANGED_SINCE_READ');
  });

  // SPEC section 1: a version named by expectedVersion counts as fully seen for that call only. Recording the
  // whole file as seen afterwards let every later call change lines the session was never shown.
  test('expectedVersion unlocks the whole file for that call only; later calls have only the lines seen or written', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(10));
    const seen = await f.guard.session('reader').read(file);
    assertOk(seen);
    const stateless = f.guard.session('stateless');
    assertOk(await stateless.edit(file, [{ oldString: 'line 2\n', newString: 'two\n' }], { expectedVersion: seen.version }));
    const later = await stateless.edit(file, [{ oldString: 'line 8\n', newString: 'eight\n' }]);
    assert.strictEqual(codeOf(later), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.match(!later.ok ? later.message : '', /not seen in this version: 8\./);
    assert.strictEqual(codeOf(await stateless.write(file, 'all new\n')), 'EDIT_OUTSIDE_SEEN_RANGE');
    // The line it wrote stays its own.
    assertOk(await stateless.edit(file, [{ oldString: 'two\n', newString: 'TWO\n' }]));

    // A session's own earlier coverage survives such a call, shifted to the new line numbers.
    const partial = f.guard.session('partial');
    const head = await partial.read(file, { offset: 1, limit: 3 });
    assertOk(head);
    const before = await f.guard.session('reader-2').read(file);
    assertOk(before);
    assertOk(await partial.edit(file, [{ oldString: 'line 9\n', newString: 'nine\nand a half\n' }], { expectedVersion: before.version }));
    assertOk(await partial.edit(file, [{ oldString: 'line 1\n', newString: 'one\n' }]));
    assertOk(await partial.edit(file, [{ oldString: 'and a half\n', newString: 'and more\n' }]));
    assert.strictEqual(codeOf(await partial.edit(file, [{ oldString: 'line 6\n', newString: 'six\n' }])), 'EDIT_OUTSIDE_SEEN_RANGE');
  });

  // Audit: with a version tag alone, NO_OCCURRENCE_FOUND quoted the closest lines of a file the session had
  // never been shown. A tag authorizes a change; it does not show content.
  test('an expectedVersion edit that matches nothing quotes no lines the session has not seen', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'api_key = "abc123"\nother = 1\n');
    const seen = await f.guard.session('reader').read(file);
    assertOk(seen);
    const missed = await f.guard.session('stateless').edit(file, [{ oldString: 'api_key = "xyz"', newString: 'x' }], { expectedVersion: seen.version });
    assert.strictEqual(codeOf(missed), 'NO_OCCURRENCE_FOUND');
    assert.ok(!missed.ok && !missed.message.includes('abc123'), !missed.ok ? missed.message : '');
    // The reader itself still gets the closest lines it has seen.
    const hint = await f.guard.session('reader').edit(file, [{ oldString: 'api_key = "xyz"', newString: 'x' }]);
    assert.ok(!hint.ok && hint.message.includes('abc123'), JSON.stringify(hint));
  });

  // Audit: the mismatch refusal named the file's real version, which a session that never read the file could
  // pass straight back as expectedVersion and so edit (or overwrite) bytes it had never seen.
  test('a wrong expectedVersion on an unread file is refused without revealing its version, so the tag cannot be learned that way', async () => {
    const f = fixture();
    const file = f.file('secret.txt', numbered(5));
    const blind = f.guard.session('blind');
    const guesses = ['0000000000000000', 'ffffffffffffffff'];
    const messages: string[] = [];
    for (const expectedVersion of guesses) {
      const edit = await blind.edit(file, [{ oldString: 'line 1', newString: 'x' }], { expectedVersion });
      const write = await blind.write(file, 'x\n', { expectedVersion });
      for (const result of [edit, write]) {
        assert.strictEqual(codeOf(result), 'FILE_CHANGED_SINCE_READ');
        messages.push(!result.ok ? result.message : '');
      }
    }
    const real = await f.guard.session('reader').read(file);
    assertOk(real);
    for (const message of messages) {
      assert.ok(!message.includes(real.version), `the refusal revealed the current version:\n${message}`);
      // The only tag in the message is the one the caller passed; the next step is a read.
      assert.deepStrictEqual([...new Set(message.match(/[0-9a-f]{16}/g))].every((tag) => guesses.includes(tag)), true, message);
      assert.match(message, /Read the file/);
    }
    assert.strictEqual(f.text('secret.txt'), numbered(5));
  });

  test('a file deleted after it was read is not re-created by an edit; a later write may create it', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(3));
    await f.session.read(file);
    fs.unlinkSync(file);
    const edit = await f.session.edit(file, [{ oldString: 'line 1', newString: 'x' }]);
    assert.strictEqual(codeOf(edit), 'FILE_CHANGED_SINCE_READ');
    assert.match(!edit.ok ? edit.message : '', /deleted after you read it/);
    assert.strictEqual(fs.existsSync(file), false);
    assertOk(await f.session.write(file, 'again\n'));
    assert.strictEqual(f.text('a.txt'), 'again\n');
  });

  test('a file that appeared after the session saw it missing is refused and left untouched', async () => {
    const f = fixture();
    const file = path.join(f.root, 'later.txt');
    assert.strictEqual(codeOf(await f.session.read(file)), 'FILE_NOT_FOUND');
    fs.writeFileSync(file, 'someone else\n');
    const write = await f.session.write(file, 'mine\n');
    assert.strictEqual(codeOf(write), 'FILE_CHANGED_SINCE_READ');
    assert.strictEqual(f.text('later.txt'), 'someone else\n');
  });

  test('input that does not match the schema is INVALID_INPUT', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'x\n');
    assert.strictEqual(codeOf(await f.session.edit(file, [])), 'INVALID_INPUT');
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 1 as unknown as string, newString: 'y' }])), 'INVALID_INPUT');
    assert.strictEqual(codeOf(await f.session.write(file, undefined as unknown as string)), 'INVALID_INPUT');
    assert.strictEqual(codeOf(await f.session.multiEdit([])), 'INVALID_INPUT');
    assert.strictEqual(codeOf(await f.session.read('')), 'PATH_INVALID');
    assert.strictEqual(codeOf(await f.session.read('a\0b')), 'PATH_INVALID');
    // Options that are not objects are ignored rather than thrown on; a bogus signal is invalid input.
    assert.strictEqual(codeOf(await f.session.read(file, null as unknown as undefined)), 'ok');
    assert.strictEqual(codeOf(await f.session.write(file, 'y\n', 42 as unknown as undefined)), 'ok');
    assert.strictEqual(codeOf(await f.session.read(file, { signal: {} as AbortSignal })), 'INVALID_INPUT');
    assert.strictEqual(f.text('a.txt'), 'y\n');
  });

  test('writing identical content is EDIT_NO_CHANGE', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'same\n');
    await f.session.read(file);
    assert.strictEqual(codeOf(await f.session.write(file, 'same\n')), 'EDIT_NO_CHANGE');
  });

  // Seed (dispatch-gate review): an identical refused call gets a sharper message instead of an echo.
  test('repeating an identical refused call gets a sharper message', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'x\n');
    const first = await f.session.edit(file, [{ oldString: 'x', newString: 'y' }]);
    const second = await f.session.edit(file, [{ oldString: 'x', newString: 'y' }]);
    assert.strictEqual(codeOf(second), 'EDIT_REQUIRES_PRIOR_READ');
    assert.ok(!first.ok && !first.message.includes('already made this exact call'));
    assert.match(!second.ok ? second.message : '', /You already made this exact call.*Do not retry identical arguments/);
  });

  // SPEC section 2: "do not retry identical arguments; read lines a–b first". An agent that re-sends an edit
  // of unseen lines unchanged is looping; the second answer must say so and still name the lines to read.
  test('repeating an identical edit of unseen lines gets a sharper message naming the lines to read', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(100));
    await f.session.read(file, { offset: 1, limit: 10 });
    const call = (): ReturnType<typeof f.session.edit> => f.session.edit(file, [{ oldString: 'line 80\n', newString: 'eighty\n' }]);
    const first = await call();
    const second = await call();
    assert.strictEqual(codeOf(first), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.strictEqual(codeOf(second), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.ok(!first.ok && !first.message.includes('already made this exact call'), JSON.stringify(first));
    assert.match(!second.ok ? second.message : '', /You already made this exact call.*Do not retry identical arguments.*not seen in this version: 80\. Read those lines/s);
    // Doing what it says ends the loop.
    await f.session.read(file, { offset: 80, limit: 1 });
    assertOk(await call());
  });

  test('check() reports unknown, fresh and stale', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'x\n');
    assert.strictEqual(await f.session.check(file), 'unknown');
    await f.session.read(file, { offset: 1, limit: 1 });
    assert.strictEqual(await f.session.check(file), 'fresh');
    fs.writeFileSync(file, 'y\n');
    assert.strictEqual(await f.session.check(file), 'stale');
  });

  test('a forgotten ledger entry (LRU) falls back to requiring a read', async () => {
    const f = fixture({ maxEntriesPerSession: 2 });
    const a = f.file('a.txt', 'a\n');
    const b = f.file('b.txt', 'b\n');
    const c = f.file('c.txt', 'c\n');
    await f.session.read(a);
    await f.session.read(b);
    await f.session.read(c);
    assert.strictEqual(codeOf(await f.session.edit(a, [{ oldString: 'a', newString: 'A' }])), 'EDIT_REQUIRES_PRIOR_READ');
    assert.strictEqual(codeOf(await f.session.edit(c, [{ oldString: 'c', newString: 'C' }])), 'ok');
  });
});

suite('prior-read enforcement: no custody of unread bytes', () => {
  // Seed (prior-read review): an unread overwrite must be refused before the file is slurped into memory.
  test('refusing an unread file never loads its content', async () => {
    const real = createNodeFileSystem();
    const loaded: string[] = [];
    const spy = { ...real, async readFile(p: string) { loaded.push(p); return real.readFile(p); } };
    const f = fixture({ fileSystem: spy });
    const file = f.file('a.txt', numbered(3));
    assert.strictEqual(codeOf(await f.session.write(file, 'x\n')), 'EDIT_REQUIRES_PRIOR_READ');
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'line 1', newString: 'x' }])), 'EDIT_REQUIRES_PRIOR_READ');
    assert.deepStrictEqual(loaded, []);
  });
});
