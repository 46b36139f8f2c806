import * as assert from 'assert';
import * as fs from 'fs';
import { assertOk, codeOf, fixture, numbered } from '../helpers/guardFixture';

suite('range-aware staleness', () => {
  test('a change that misses every seen line carries coverage over and the edit proceeds', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(100));
    await f.session.read(file, { offset: 50, limit: 11 });
    // Someone inserts three lines at the top: line numbers shift, the seen lines' content does not change.
    fs.writeFileSync(file, 'x\ny\nz\n' + numbered(100));
    const edit = await f.session.edit(file, [{ oldString: 'line 55\n', newString: 'fifty-five\n' }]);
    assertOk(edit);
    assert.match(edit.text, /@@ -55,7 \+55,7 @@|@@ -5\d,7 \+5\d,7 @@/);
    assert.ok(f.text('a.txt').includes('line 54\nfifty-five\nline 56'));
    // Carried coverage sits at the new numbers (old 50-60 are now 53-63).
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'line 60\n', newString: 'sixty\n' }])), 'ok');
  });

  test('a change in seen lines is refused with the diff and who changed it; the retry needs no read', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(20));
    await f.session.read(file);
    fs.writeFileSync(file, numbered(20).replace('line 7\n', 'line seven\n'));
    f.guard.noteChange(file, { kind: 'editor' });
    const refused = await f.session.edit(file, [{ oldString: 'line 7\nline 8', newString: 'seven and eight' }]);
    assert.strictEqual(codeOf(refused), 'FILE_CHANGED_SINCE_READ');
    const message = !refused.ok ? refused.message : '';
    assert.match(message, /changed by someone typing in the editor/);
    assert.match(message, /-line 7\n\+line seven/);
    assert.strictEqual(f.text('a.txt').includes('line seven'), true);
    assertOk(await f.session.edit(file, [{ oldString: 'line seven\nline 8', newString: 'seven and eight' }]));
  });

  test('another session\u2019s edit is named as the source', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(10));
    const other = f.guard.session('other-agent');
    await f.session.read(file);
    await other.read(file);
    assertOk(await other.edit(file, [{ oldString: 'line 4', newString: 'four' }]));
    const refused = await f.session.edit(file, [{ oldString: 'line 4', newString: 'FOUR' }]);
    assert.strictEqual(codeOf(refused), 'FILE_CHANGED_SINCE_READ');
    assert.match(!refused.ok ? refused.message : '', /another agent session \(other-agent\)/);
  });

  test('without the snapshot of the version it saw, any change is strict: refused, naming the lines to read', async () => {
    const f = fixture({ snapshotBudgetBytes: 64 });
    const file = f.file('a.txt', numbered(40));
    await f.session.read(file, { offset: 1, limit: 10 });
    fs.writeFileSync(file, numbered(40).replace('line 35', 'far away'));
    const refused = await f.session.edit(file, [{ oldString: 'line 2\n', newString: 'two\n' }]);
    assert.strictEqual(codeOf(refused), 'FILE_CHANGED_SINCE_READ');
    assert.match(!refused.ok ? refused.message : '', /cannot show what changed: read lines 1–10 again/);
  });

  test('a write after any change is refused with the diff, then succeeds at once', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(5));
    await f.session.read(file);
    fs.writeFileSync(file, numbered(5) + 'appended\n');
    assert.strictEqual(codeOf(await f.session.write(file, 'mine\n')), 'FILE_CHANGED_SINCE_READ');
    assertOk(await f.session.write(file, 'mine\n'));
  });
});

suite('creation races', () => {
  // Seed (prior-read review): a file created by someone else while a create awaited approval must not be
  // overwritten as if it were still new.
  test('a path that gains a file while its creation awaits approval is refused and the other file is kept', async () => {
    let target = '';
    const f = fixture({
      approve: async () => {
        fs.writeFileSync(target, 'theirs\n');
        return { approved: true };
      },
    });
    target = `${f.root}/fresh.txt`;
    const created = await f.session.write(target, 'mine\n');
    assert.strictEqual(codeOf(created), 'FILE_CHANGED_SINCE_READ');
    assert.match(!created.ok ? created.message : '', /was created by someone else/);
    assert.strictEqual(f.text('fresh.txt'), 'theirs\n');
  });
});
