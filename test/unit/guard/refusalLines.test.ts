/**
 * Refusals of a call with several edits number lines as the agent read the file, and name every edit's
 * unseen lines at once. Each later edit is matched against the result of the earlier ones; its refusal
 * cited that intermediate numbering ("touches line 23" for what the agent read as line 20), so the agent
 * read the wrong lines, retried, and looped.
 */
import * as assert from 'assert';
import * as path from 'path';
import { assertOk, codeOf, fixture, numbered } from '../helpers/guardFixture';
import { refused } from '../helpers/results';

const insertAbove = { oldString: 'line 2\n', newString: 'line 2\nnew a\nnew b\nnew c\n' };

suite('refusal line numbers in a call of several edits', () => {
  test('an unseen line after an edit that inserts 3 lines above is named as read (20), not as shifted (23)', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(30));
    assertOk(await f.session.read(file, { offset: 1, limit: 10 }));
    const edits = [insertAbove, { oldString: 'line 20\n', newString: 'twenty\n' }];
    const message = refused(await f.session.edit(file, edits), 'EDIT_OUTSIDE_SEEN_RANGE', 'Edit 2 of your 2 edits in ', 'a.txt touches');
    assert.match(message, /not seen in this version: 20\. Line numbers are those of this version, before any of your edits apply\./);
    assert.doesNotMatch(message, /\b23\b/);
    // Reading what the refusal names ends it.
    assertOk(await f.session.read(file, { offset: 20, limit: 1 }));
    assertOk(await f.session.edit(file, edits));
    assert.ok(f.text('a.txt').includes('line 19\ntwenty\nline 21\n'));
  });

  test('names the unseen lines of every edit, which edit touches which, and leaves the ledger as it was', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(50));
    assertOk(await f.session.read(file, { offset: 1, limit: 10 }));
    const before = f.session.entries();
    const edits = [insertAbove, { oldString: 'line 20\nline 21\n', newString: 'x\n' }, { oldString: 'line 40\n', newString: 'y\n' }];
    refused(
      await f.session.edit(file, edits),
      'EDIT_OUTSIDE_SEEN_RANGE',
      'Edits 2 and 3 of your 3 edits in ',
      'a.txt touch lines you have not seen in this version: 20–21, 40.',
      'Edit 2 touches lines 20–21; edit 3 touches line 40.',
    );
    assert.deepStrictEqual(f.session.entries(), before);
    assert.strictEqual(f.text('a.txt'), numbered(50));
    assertOk(await f.session.read(file, { offset: 20, limit: 2 }));
    assertOk(await f.session.read(file, { offset: 40, limit: 1 }));
    assertOk(await f.session.edit(file, edits));
  });

  test('a call with many edits on unseen lines names every line, and the first ten edits one by one', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(40));
    assertOk(await f.session.read(file, { offset: 1, limit: 10 }));
    const edits = Array.from({ length: 12 }, (_, i) => ({ oldString: `line ${2 * i + 12}\n`, newString: `a\nb\n` }));
    const message = refused(await f.session.edit(file, edits), 'EDIT_OUTSIDE_SEEN_RANGE', '12 of your 12 edits in ', 'Edit 1 touches line 12; edit 2 touches line 14;', 'edit 10 touches line 30; 2 more edits touch the other lines.');
    assert.match(message, /this version: 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34\./);
  });

  test('AMBIGUOUS_MATCH after an edit that deletes lines above cites the lines as read', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(20).replace('line 10\n', 'dup\n').replace('line 15\n', 'dup\n'));
    assertOk(await f.session.read(file));
    const edits = [{ oldString: 'line 2\nline 3\nline 4\n', newString: '' }, { oldString: 'dup', newString: 'one' }];
    refused(await f.session.edit(file, edits), 'AMBIGUOUS_MATCH', 'The oldString of edit 2 of your 2 edits matches 2 places in ', 'a.txt (lines 10, 15).');
  });

  test('a place in text an earlier edit of the call wrote is named by that edit', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(20).replace('line 15\n', 'dup\n'));
    assertOk(await f.session.read(file));
    const edits = [{ oldString: 'line 5\n', newString: 'dup\n' }, { oldString: 'dup', newString: 'one' }];
    refused(await f.session.edit(file, edits), 'AMBIGUOUS_MATCH', '(line 15 and the text edit 1 writes at line 5)');
  });

  test('NO_OCCURRENCE_FOUND quotes the closest lines under the numbers they were read at', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(10));
    assertOk(await f.session.read(file));
    const message = refused(await f.session.edit(file, [insertAbove, { oldString: 'line 77', newString: 'x' }]), 'NO_OCCURRENCE_FOUND', 'The oldString of edit 2 of your 2 edits, once the edits before it apply, was not found');
    assert.match(message, /^ {2}7: line 7$/m);
  });

  test('a line beyond the read cap is named as read, not as shifted', async () => {
    const f = fixture({ limits: { maxLineLength: 50, maxBytes: 150 } });
    const file = f.file('a.txt', numbered(30).replace('line 20\n', `${'x'.repeat(400)}\n`));
    assertOk(await f.session.read(file, { offset: 1, limit: 10 }));
    const message = refused(await f.session.edit(file, [insertAbove, { oldString: 'x'.repeat(400), newString: 'y' }]), 'EDIT_OUTSIDE_SEEN_RANGE', 'line(s) 20 of them are longer');
    assert.doesNotMatch(message, /Read those lines/);
  });

  test('multiEdit with two changes of one file names the line as read', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(30));
    assertOk(await f.session.read(file, { offset: 1, limit: 10 }));
    const changes = [
      { path: file, edits: [insertAbove] },
      { path: file, edits: [{ oldString: 'line 20\n', newString: 'twenty\n' }] },
    ];
    const message = refused(await f.session.multiEdit(changes), 'EDIT_OUTSIDE_SEEN_RANGE', 'No file was changed', 'Edit 2 of your 2 edits in ', 'a.txt touches lines you have not seen in this version: 20.');
    assert.doesNotMatch(message, /\b23\b/);
    assertOk(await f.session.read(file, { offset: 20, limit: 1 }));
    assertOk(await f.session.multiEdit(changes));
  });

  test('an edit that cannot be placed after an unseen one is named, and the edits after it left unchecked', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(50));
    assertOk(await f.session.read(file, { offset: 1, limit: 10 }));
    const edits = [{ oldString: 'line 20\n', newString: 'x\n' }, { oldString: 'not there', newString: 'y' }, { oldString: 'line 40\n', newString: 'z\n' }];
    refused(await f.session.edit(file, edits), 'EDIT_OUTSIDE_SEEN_RANGE', ': 20.', 'Edit 2 could not be placed (its oldString is not found once the edits before it apply), so it and the edits after it were not checked');
  });

  test('a create followed by an ambiguous edit numbers lines in the text the create writes', async () => {
    const f = fixture();
    const file = path.join(f.root, 'new.txt');
    const result = await f.session.edit(file, [{ oldString: '', newString: 'a\nx\nx\n' }, { oldString: 'x', newString: 'y' }]);
    assert.strictEqual(codeOf(result), 'AMBIGUOUS_MATCH');
    refused(result, 'AMBIGUOUS_MATCH', 'The oldString of edit 2 of your 2 edits matches 2 places in ', 'new.txt (lines 2, 3). Line numbers are those of the text your first edit creates.');
  });
});
