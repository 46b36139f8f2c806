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
    assert.match(message, /changed since you read it \(by someone typing in the editor\)/);
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

  test('a session with a name is named by it, not by its id: "by Claude Code 2.1.197", "by your revert", one short line', async () => {
    for (const [label, words] of [['Claude Code 2.1.197', 'by Claude Code 2.1.197'], ['Your revert', 'by your revert'], ['Sample\nagent\u202e', 'by Sample agent']]) {
      const f = fixture();
      const file = f.file('a.txt', numbered(10));
      const other = f.guard.session('mcp:5e1f-long-opaque-id', { label });
      await f.session.read(file);
      await other.read(file);
      assertOk(await other.edit(file, [{ oldString: 'line 4', newString: 'four' }]));
      const refused = await f.session.edit(file, [{ oldString: 'line 4', newString: 'FOUR' }]);
      const message = !refused.ok ? refused.message : '';
      assert.ok(message.includes(`changed since you read it (${words})`), message);
      assert.doesNotMatch(message, /5e1f-long-opaque-id/);
    }
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

  // Memory is bounded (SPEC section 3): snapshots of seen versions are evicted least recently used first. An
  // edit whose snapshot was evicted must fall back to the strict rule, never to "unchanged, go ahead".
  test('a snapshot evicted by later reads makes any change strict: refused, never carried over', async () => {
    const run = async (otherReads: number): Promise<string> => {
      // 8,000 bytes of snapshots: a file of up to 1,000 bytes is kept, and a handful fit at once.
      const f = fixture({ snapshotBudgetBytes: 8000 });
      const file = f.file('a.txt', numbered(60));
      await f.session.read(file, { offset: 1, limit: 10 });
      for (let i = 0; i < otherReads; i++) await f.session.read(f.file(`other-${i}.txt`, numbered(60, `other ${i}`)));
      // A change far from the lines seen: harmless when the snapshot can prove it.
      fs.writeFileSync(file, numbered(60).replace('line 50\n', 'line fifty\n'));
      const edit = await f.session.edit(file, [{ oldString: 'line 2\n', newString: 'two\n' }]);
      if (!edit.ok) assert.match(edit.message, /cannot show what changed: read lines 1–10 again/);
      assert.strictEqual(f.text('a.txt').includes('two\n'), edit.ok);
      return codeOf(edit);
    };
    assert.strictEqual(await run(0), 'ok', 'with its snapshot kept, a change outside the seen lines is carried over');
    assert.strictEqual(await run(12), 'FILE_CHANGED_SINCE_READ');
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

  test('a path that gains a file while a create by edit (empty oldString) awaits approval is refused and the other file is kept', async () => {
    let target = '';
    const f = fixture({
      approve: async () => {
        fs.writeFileSync(target, 'theirs\n');
        return { approved: true };
      },
    });
    target = `${f.root}/fresh.txt`;
    const created = await f.session.edit(target, [{ oldString: '', newString: 'mine\n' }]);
    assert.ok(['FILE_CHANGED_SINCE_READ', 'FILE_EXISTS'].includes(codeOf(created)), JSON.stringify(created));
    assert.strictEqual(f.text('fresh.txt'), 'theirs\n');
    // The session never saw their file: it cannot edit it without reading it first.
    assert.strictEqual(codeOf(await f.session.edit(target, [{ oldString: 'theirs', newString: 'mine' }])), 'EDIT_REQUIRES_PRIOR_READ');
  });
});

suite('refreshing a change under review', () => {
  test('a file that changed outside the seen lines during review is re-planned; approval applies the refreshed change', async () => {
    let target = '';
    let refreshed: { ok: boolean } | undefined;
    const f = fixture({
      approve: async (request) => {
        fs.writeFileSync(target, numbered(30).replace('line 25\n', 'line 25 (theirs)\n'));
        refreshed = await request.refresh();
        return { approved: true };
      },
    });
    target = f.file('a.txt', numbered(30));
    await f.session.read(target, { offset: 1, limit: 10 });
    const edit = await f.session.edit(target, [{ oldString: 'line 3\n', newString: 'three\n' }]);
    assertOk(edit);
    assert.strictEqual(refreshed?.ok, true);
    assert.strictEqual(f.text('a.txt'), numbered(30).replace('line 25\n', 'line 25 (theirs)\n').replace('line 3\n', 'three\n'));
  });

  test('a change in the seen lines during review cannot be refreshed, and approving it writes nothing', async () => {
    let target = '';
    let refreshed: { ok: boolean; code?: string } | undefined;
    const f = fixture({
      approve: async (request) => {
        fs.writeFileSync(target, numbered(10).replace('line 3\n', 'line 3 (theirs)\n'));
        refreshed = await request.refresh();
        return { approved: true };
      },
    });
    target = f.file('a.txt', numbered(10));
    await f.session.read(target);
    const edit = await f.session.edit(target, [{ oldString: 'line 3\n', newString: 'three\n' }]);
    assert.strictEqual(refreshed?.code, 'FILE_CHANGED_SINCE_READ');
    assert.strictEqual(codeOf(edit), 'FILE_CHANGED_SINCE_READ');
    assert.strictEqual(f.text('a.txt'), numbered(10).replace('line 3\n', 'line 3 (theirs)\n'));
  });

  // The refresh's refusal goes to the approver, never to the agent: it must not count as seen.
  test('a failed refresh followed by a rejection leaves the changed lines unseen', async () => {
    let target = '';
    let calls = 0;
    const f = fixture({
      approve: async (request) => {
        if (calls++ > 0) return { approved: true };
        fs.writeFileSync(target, numbered(10).replace('line 3\n', 'line 3 (theirs)\n'));
        await request.refresh();
        return { approved: false, reason: 'not now' };
      },
    });
    target = f.file('a.txt', numbered(10));
    await f.session.read(target);
    assert.strictEqual(codeOf(await f.session.edit(target, [{ oldString: 'line 3\n', newString: 'three\n' }])), 'REJECTED_BY_USER');
    // The agent has not seen "line 3 (theirs)": editing it must be refused (with the diff), not applied.
    assert.strictEqual(codeOf(await f.session.edit(target, [{ oldString: 'line 3 (theirs)', newString: 'x' }])), 'FILE_CHANGED_SINCE_READ');
    assert.strictEqual(calls, 1);
  });
});
