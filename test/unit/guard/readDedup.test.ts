import * as assert from 'assert';
import * as fs from 'fs';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import type { FileSystem } from '../../../src/core/ports';
import { loadHasher } from '../../../src/core/version/contentVersion';
import { assertOk, codeOf, fixture, numbered } from '../helpers/guardFixture';

suite('read and dedup', () => {
  test('returns numbered lines with a header naming lines shown, total, bytes and version', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(5));
    const result = await f.session.read(file);
    assertOk(result);
    assert.strictEqual(result.kind, 'content');
    const [header, first] = result.text.split('\n');
    assert.match(header, /a\.txt · lines 1-5 of 5 · 35 bytes · version [0-9a-f]{16}/);
    assert.strictEqual(first, '1\tline 1');
    assert.strictEqual(result.kind === 'content' && result.totalLines, 5);
  });

  test('a repeated read of lines already shown in the same version returns the placeholder', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(50));
    await f.session.read(file, { offset: 1, limit: 20 });
    const again = await f.session.read(file, { offset: 5, limit: 10 });
    assertOk(again);
    assert.strictEqual(again.kind, 'unchanged');
    assert.match(again.text, /lines 5-14 are unchanged since your read #1/);
    assert.match(again.text, /force: true/);
  });

  test('a read reaching lines not shown yet returns content', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(50));
    await f.session.read(file, { offset: 1, limit: 20 });
    const wider = await f.session.read(file, { offset: 10, limit: 20 });
    assertOk(wider);
    assert.strictEqual(wider.kind, 'content');
  });

  test('force: true and dedup: false bypass the placeholder', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(5));
    await f.session.read(file);
    const forced = await f.session.read(file, { force: true });
    assert.strictEqual(forced.ok && forced.kind, 'content');
    const g = fixture({ dedup: false });
    const other = g.file('b.txt', numbered(5));
    await g.session.read(other);
    const again = await g.session.read(other);
    assert.strictEqual(again.ok && again.kind, 'content');
    // A session created with dedup: false never gets placeholders.
    const h = fixture();
    const anonymous = h.guard.session('anonymous', { dedup: false });
    const shared = h.file('c.txt', numbered(5));
    await anonymous.read(shared);
    const repeat = await anonymous.read(shared);
    assert.strictEqual(repeat.ok && repeat.kind, 'content');
  });

  // Seed (FileReadCache review): a truncated "full" read means the model saw only the head.
  test('never returns the placeholder for a truncated read', async () => {
    const f = fixture({ limits: { maxLines: 100 } });
    const file = f.file('big.txt', numbered(300));
    const first = await f.session.read(file);
    assertOk(first);
    assert.strictEqual(first.kind === 'content' && first.truncated, true);
    assert.match(first.text, /truncated by the 100-line cap: showed lines 1-100 of the requested 1-300; continue with offset: 101/);
    const second = await f.session.read(file);
    assert.strictEqual(second.ok && second.kind, 'content');
  });

  // Seed: mtime-only checks serve stale placeholders; ours is decided by content.
  // Seed (FileReadCache review): a version taken from one moment and content from another would let a later
  // edit pass against bytes the model never saw. The version must be the hash of exactly the bytes shown.
  test('the version a read reports is the hash of the bytes it returned, even when the file changes between stat and read', async () => {
    const real = createNodeFileSystem();
    let file = '';
    let armed = true;
    const racing: FileSystem = {
      ...real,
      async stat(p) {
        const stat = await real.stat(p);
        if (p === file && armed) {
          armed = false;
          fs.writeFileSync(file, 'changed after the stat\nand longer than before\n');
        }
        return stat;
      },
    };
    const f = fixture({ fileSystem: racing });
    file = f.file('a.txt', 'original\n');
    const result = await f.session.read(file);
    assertOk(result);
    const bytes = fs.readFileSync(file);
    assert.ok(result.text.includes('1\tchanged after the stat'), result.text);
    assert.strictEqual(result.version, (await loadHasher()).hash(bytes));
    assert.match(result.text, new RegExp(`· ${bytes.length} bytes ·`));
    assertOk(await f.session.edit(file, [{ oldString: 'and longer', newString: 'and shorter' }]));
  });

  test('a same-size rewrite with the mtime put back is a change', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'alpha\n');
    await f.session.read(file);
    const { atime, mtime } = fs.statSync(file);
    fs.writeFileSync(file, 'gamma\n');
    fs.utimesSync(file, atime, mtime);
    const again = await f.session.read(file);
    assert.strictEqual(again.ok && again.kind, 'content');
    assert.ok(again.ok && again.text.includes('gamma'));
  });

  // Seed (optimistic-lock design): a touch or a git checkout of identical bytes is not a conflict.
  test('a touch with identical bytes is not a change', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(3));
    await f.session.read(file);
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(file, later, later);
    const again = await f.session.read(file);
    assert.strictEqual(again.ok && again.kind, 'unchanged');
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'line 2', newString: 'line two' }])), 'ok');
  });

  // Seed: post-write reads must show content: the session wrote those lines but was never shown them.
  test('a read after the session\u2019s own edit returns content', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(5));
    await f.session.read(file);
    assertOk(await f.session.edit(file, [{ oldString: 'line 3', newString: 'line three' }]));
    const after = await f.session.read(file);
    assert.strictEqual(after.ok && after.kind, 'content');
    assert.ok(after.ok && after.text.includes('line three'));
  });

  test('a read after the file changed returns content, even for lines that did not change', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(30));
    await f.session.read(file, { offset: 1, limit: 10 });
    fs.writeFileSync(file, numbered(30).replace('line 25', 'changed'));
    const again = await f.session.read(file, { offset: 1, limit: 10 });
    assert.strictEqual(again.ok && again.kind, 'content');
  });

  test('sessions never share what they have seen', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(5));
    await f.session.read(file);
    const other = f.guard.session('other');
    const first = await other.read(file);
    assert.strictEqual(first.ok && first.kind, 'content');
    const third = f.guard.session('third');
    assert.strictEqual(codeOf(await third.edit(file, [{ oldString: 'line 1', newString: 'x' }])), 'EDIT_REQUIRES_PRIOR_READ');
  });

  // Seed: /clear and context compaction must drop "seen" state.
  test('clear() forgets everything: no placeholder and no edit without a new read', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(5));
    await f.session.read(file);
    f.session.clear();
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'line 1', newString: 'x' }])), 'EDIT_REQUIRES_PRIOR_READ');
    const again = await f.session.read(file);
    assert.strictEqual(again.ok && again.kind, 'content');
  });

  // The issue: maxLineLength is "longer lines are shortened and marked", but a 500-character line was shown
  // whole whenever the read fit the byte cap. Among shorter lines it is shortened; alone it is shown whole.
  test('a long line is shortened in a read of several lines, shown whole alone, and editable only once seen', async () => {
    const f = fixture({ limits: { maxLineLength: 50 } });
    const long = 'x'.repeat(500);
    const file = f.file('a.txt', `short\n${long}\nend\n`);
    const result = await f.session.read(file);
    assertOk(result);
    assert.ok(result.text.includes(`2\t${'x'.repeat(50)} … [line shortened: 500 characters]`), result.text);
    assert.ok(!result.text.includes('x'.repeat(51)), result.text);
    assert.strictEqual(result.kind === 'content' && result.truncated, true);
    // Unseen, and the refusal names the read that shows it, not the range that shortens it again.
    const refused = await f.session.edit(file, [{ oldString: long, newString: 'y' }]);
    assert.strictEqual(codeOf(refused), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.match(!refused.ok ? refused.message : '', /Line 2 is longer than 50 characters, which a read of several lines shortens: read it alone \(offset: 2, limit: 1\)/);
    const alone = await f.session.read(file, { offset: 2, limit: 1 });
    assertOk(alone);
    assert.ok(alone.kind === 'content' && alone.text.endsWith(`\n2\t${long}`), alone.text);
    assertOk(await f.session.edit(file, [{ oldString: long, newString: 'y' }]));
    assert.strictEqual(f.text('a.txt'), 'short\ny\nend\n');
  });

  test('a range of only long lines that fits the byte cap is shown whole and counts as seen', async () => {
    const f = fixture({ limits: { maxLineLength: 50 } });
    const file = f.file('a.txt', `short\n${'x'.repeat(300)}\n${'y'.repeat(300)}\nend\n`);
    const run = await f.session.read(file, { offset: 2, limit: 2 });
    assertOk(run);
    assert.ok(run.text.includes(`2\t${'x'.repeat(300)}\n3\t${'y'.repeat(300)}`), run.text);
    assert.strictEqual(run.kind === 'content' && run.truncated, false);
    assertOk(await f.session.edit(file, [{ oldString: `${'x'.repeat(300)}\n${'y'.repeat(300)}`, newString: 'z' }]));
  });

  // The placeholder says "exactly as shown then": never for a range whose read would shorten a line, even when
  // each line was once shown whole in some read (from the hash alone, or after decoding).
  test('no placeholder for a range whose read shortens a line; a range of only long lines still gets one', async () => {
    for (const content of [`short\n${'x'.repeat(300)}\nend\n`, `short\n${'x'.repeat(300)}\nend\n${'pad\n'.repeat(20_000)}`]) {
      const f = fixture({ limits: { maxLineLength: 50 } });
      const file = f.file('a.txt', content);
      assertOk(await f.session.read(file, { offset: 1, limit: 3 }));
      assertOk(await f.session.read(file, { offset: 2, limit: 1 }));
      const again = await f.session.read(file, { offset: 1, limit: 3 });
      assertOk(again);
      assert.strictEqual(again.kind, 'content', `${content.length} bytes: ${again.text.slice(0, 200)}`);
      const alone = await f.session.read(file, { offset: 2, limit: 1 });
      assertOk(alone);
      assert.strictEqual(alone.kind, 'unchanged', `${content.length} bytes`);
    }
  });

  test('a write refused for unseen long lines names the read that shows each, and succeeds after it', async () => {
    const f = fixture({ limits: { maxLineLength: 50 } });
    const file = f.file('a.txt', `short\n${'x'.repeat(300)}\nmid\n${'y'.repeat(300)}\nend\n`);
    assertOk(await f.session.read(file));
    const write = await f.session.write(file, 'new\n');
    assert.strictEqual(codeOf(write), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.match(!write.ok ? write.message : '', /Lines 2, 4 are longer than 50 characters, which a read of several lines shortens: read each alone \(e\.g\. offset: 2, limit: 1\)/);
    assertOk(await f.session.read(file, { offset: 2, limit: 1 }));
    assertOk(await f.session.read(file, { offset: 4, limit: 1 }));
    assertOk(await f.session.write(file, 'new\n'));
  });

  test('a read too big for its long lines to be shown whole shortens them and says how to see each in full', async () => {
    const f = fixture({ limits: { maxLineLength: 50, maxBytes: 400 } });
    const long = 'x'.repeat(300);
    const file = f.file('a.txt', numbered(20).replace('line 2\n', `${long}\n`));
    const result = await f.session.read(file);
    assertOk(result);
    assert.match(result.text, /… \[line shortened: 300 characters\]/);
    assert.match(result.text, /line 2 is longer than 50 characters and was shortened here; to see it in full, read it alone: offset: 2, limit: 1/);
    assert.strictEqual(result.kind === 'content' && result.truncated, true);
    // A shortened line was not seen; following the note's advice makes it seen.
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: long, newString: 'y' }])), 'EDIT_OUTSIDE_SEEN_RANGE');
    const alone = await f.session.read(file, { offset: 2, limit: 1 });
    assertOk(alone);
    assert.ok(alone.text.includes(`2\t${long}`), alone.text);
    assertOk(await f.session.edit(file, [{ oldString: long, newString: 'y' }]));
  });

  // SPEC: no message may send the agent into a loop. A line longer than the byte cap by itself can never be
  // shown whole, so neither the read nor an edit of it may ask for another read.
  test('a line longer than the byte cap by itself: the read and the edit refusal name the cap instead of asking for a read', async () => {
    const f = fixture({ limits: { maxLineLength: 50, maxBytes: 150 } });
    const long = 'x'.repeat(400);
    const file = f.file('a.txt', `short\n${long}\nend\n`);
    for (const options of [{}, { offset: 2, limit: 1, force: true }]) {
      const result = await f.session.read(file, options);
      assertOk(result);
      assert.match(result.text, /line 2 is longer than the 150-byte read cap by itself: no read can show it in full/);
      assert.match(result.text, /readgate\.read\.maxBytes/);
      assert.doesNotMatch(result.text, /offset: 2, limit: 1/);
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const edit = await f.session.edit(file, [{ oldString: `short\n${long}`, newString: 'y' }]);
      assert.strictEqual(codeOf(edit), 'EDIT_OUTSIDE_SEEN_RANGE');
      const message = !edit.ok ? edit.message : '';
      assert.match(message, /line\(s\) 2 of them are longer than the 150-byte read cap/);
      assert.match(message, /readgate\.read\.maxBytes/);
      assert.doesNotMatch(message, /Read those lines|read lines/i);
    }
    const write = await f.session.write(file, 'all new\n');
    assert.strictEqual(codeOf(write), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.doesNotMatch(!write.ok ? write.message : '', /Read the whole file/);
    // The lines around it stay editable.
    assertOk(await f.session.edit(file, [{ oldString: 'end', newString: 'END' }]));
  });

  test('the byte cap cuts at a line boundary and says how to continue', async () => {
    const f = fixture({ limits: { maxBytes: 200 } });
    const file = f.file('a.txt', numbered(100));
    const result = await f.session.read(file);
    assertOk(result);
    assert.match(result.text, /truncated by the 200-byte read cap: showed lines 1-(\d+) of the requested 1-100; continue with offset: \d+/);
    assert.ok(result.ok && result.kind === 'content' && result.endLine < 100 && result.endLine > 5);
  });

  test('an empty file reads as empty, and an offset past the end is invalid input naming the line count', async () => {
    const f = fixture();
    const empty = f.file('empty.txt', '');
    const result = await f.session.read(empty);
    assertOk(result);
    assert.match(result.text, /empty file \(0 lines\)/);
    const file = f.file('a.txt', numbered(3));
    const past = await f.session.read(file, { offset: 10 });
    assert.strictEqual(codeOf(past), 'INVALID_INPUT');
    assert.match(!past.ok ? past.message : '', /has 3 lines/);
    assert.strictEqual(codeOf(await f.session.read(file, { offset: 0 })), 'INVALID_INPUT');
    assert.strictEqual(codeOf(await f.session.read(file, { limit: 1.5 })), 'INVALID_INPUT');
  });

  test('an SVG file is text: read then edit works', async () => {
    const f = fixture();
    const file = f.file('icon.svg', '<svg xmlns="http://www.w3.org/2000/svg">\n  <rect width="10"/>\n</svg>\n');
    await f.session.read(file);
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'width="10"', newString: 'width="12"' }])), 'ok');
  });
});
