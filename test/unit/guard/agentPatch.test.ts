/**
 * An agent's patch (`GuardSession.applyPatch`, the `readgate_applyPatch` tool) under the guard's rules for
 * that agent: nothing is read on its behalf, unread files are refused before their content is used, a refusal
 * never quotes a line the agent has not read, every hunk's context and removed lines must be seen, and a patch
 * of several files (a rename included) applies whole or not at all.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { ApprovalRequest } from '../../../src/core/index';
import { assertOk, codeOf, fixture, numbered } from '../helpers/guardFixture';

const diff = (file: string, ...lines: string[]): string => [`--- a/${file}`, `+++ b/${file}`, ...lines].join('\n') + '\n';

suite('an agent\'s patch (readgate_applyPatch)', () => {
  test('a unified diff of a file the agent read applies; the lines it wrote count as seen', async () => {
    const f = fixture();
    f.file('a.txt', numbered(10));
    assertOk(await f.session.read('a.txt'));
    const result = await f.session.applyPatch(diff('a.txt', '@@ -4,3 +4,3 @@', ' line 4', '-line 5', '+line five', ' line 6'), { explanation: 'rename a line' });
    assertOk(result);
    assert.strictEqual(f.text('a.txt'), numbered(10).replace('line 5\n', 'line five\n'));
    assertOk(await f.session.edit('a.txt', [{ oldString: 'line five', newString: 'line 5!' }]));
  });

  test('a file the agent never read is refused before its content is used, and nothing of it is shown', async () => {
    const f = fixture();
    f.file('secret.txt', 'TOP SECRET 1\nTOP SECRET 2\n');
    const result = await f.session.applyPatch(diff('secret.txt', '@@ -1,2 +1,2 @@', ' nothing', '-like this', '+x'));
    assert.strictEqual(codeOf(result), 'EDIT_REQUIRES_PRIOR_READ');
    assert.doesNotMatch(!result.ok ? result.message : '', /TOP SECRET/);
  });

  test('a hunk in lines the agent has not seen is EDIT_OUTSIDE_SEEN_RANGE naming them; a mismatch never quotes an unread line', async () => {
    const f = fixture();
    f.file('big.txt', numbered(100));
    assertOk(await f.session.read('big.txt', { offset: 1, limit: 10 }));
    const outside = await f.session.applyPatch(diff('big.txt', '@@ -50,3 +50,3 @@', ' line 50', '-line 51', '+fifty-one', ' line 52'));
    assert.strictEqual(codeOf(outside), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.match(!outside.ok ? outside.message : '', /50–52/);
    const stale = await f.session.applyPatch(diff('big.txt', '@@ -50,3 +50,3 @@', ' line 50', '-not line 51', '+x', ' line 52'));
    assert.ok(!stale.ok);
    assert.doesNotMatch(stale.message, /"line 5[0-9]"/, stale.message);
    // Not even whether an unread line equals the patch's is said: each is named as unread.
    assert.match(stale.message, /line 50: a line you have not read/);
    assert.strictEqual(f.text('big.txt'), numbered(100));
  });

  test('a file that changed in lines the agent saw is FILE_CHANGED_SINCE_READ with the diff, nothing written', async () => {
    const f = fixture();
    const file = f.file('a.txt', numbered(5));
    assertOk(await f.session.read('a.txt'));
    fs.writeFileSync(file, numbered(5).replace('line 3', 'line THREE'));
    const result = await f.session.applyPatch(diff('a.txt', '@@ -2,3 +2,3 @@', ' line 2', '-line 3', '+line 3!', ' line 4'));
    assert.strictEqual(codeOf(result), 'FILE_CHANGED_SINCE_READ');
    assert.match(!result.ok ? result.message : '', /\+line THREE/);
    assert.strictEqual(f.text('a.txt'), numbered(5).replace('line 3', 'line THREE'));
  });

  test('a patch that renames a module and changes its importer applies whole, through one review; with the importer unread, nothing changes', async () => {
    const requests: ApprovalRequest[] = [];
    const f = fixture({ approve: async (request) => (requests.push(request), { approved: true }) });
    f.file('old/mod.py', 'def f():\n    return 1\n');
    f.file('main.py', 'from old.mod import f\nprint(f())\n');
    const patch = [
      'diff --git a/old/mod.py b/new/mod.py', 'similarity index 80%', 'rename from old/mod.py', 'rename to new/mod.py', '--- a/old/mod.py', '+++ b/new/mod.py', '@@ -1,2 +1,2 @@', ' def f():', '-    return 1', '+    return 2',
      'diff --git a/main.py b/main.py', '--- a/main.py', '+++ b/main.py', '@@ -1,2 +1,2 @@', '-from old.mod import f', '+from new.mod import f', ' print(f())', '',
    ].join('\n');
    assertOk(await f.session.read('old/mod.py'));
    const unread = await f.session.applyPatch(patch);
    assert.strictEqual(codeOf(unread), 'EDIT_REQUIRES_PRIOR_READ');
    assert.ok(fs.existsSync(path.join(f.root, 'old/mod.py')) && !fs.existsSync(path.join(f.root, 'new')));
    assertOk(await f.session.read('main.py'));
    const applied = await f.session.applyPatch(patch);
    assertOk(applied);
    assert.strictEqual(requests.length, 1);
    assert.ok(!fs.existsSync(path.join(f.root, 'old/mod.py')));
    assert.strictEqual(f.text('new/mod.py'), 'def f():\n    return 2\n');
    assert.strictEqual(f.text('main.py'), 'from new.mod import f\nprint(f())\n');
  });

  test('a new file needs no read; deleting one needs all of it seen', async () => {
    const f = fixture();
    f.file('long.txt', numbered(30));
    assertOk(await f.session.applyPatch(['--- /dev/null', '+++ b/new.txt', '@@ -0,0 +1,2 @@', '+one', '+two', ''].join('\n')));
    assert.strictEqual(f.text('new.txt'), 'one\ntwo\n');
    assertOk(await f.session.read('long.txt', { offset: 1, limit: 10 }));
    const remove = ['diff --git a/long.txt b/long.txt', 'deleted file mode 100644', '--- a/long.txt', '+++ /dev/null', '@@ -1,30 +0,0 @@', ...numbered(30).trimEnd().split('\n').map((line) => `-${line}`), ''].join('\n');
    const partly = await f.session.applyPatch(remove);
    assert.strictEqual(codeOf(partly), 'EDIT_OUTSIDE_SEEN_RANGE');
    assert.match(!partly.ok ? partly.message : '', /Deleting .*long\.txt removes all 30 lines, but you have not seen lines 11–30/);
    assertOk(await f.session.read('long.txt', { offset: 11 }));
    assertOk(await f.session.applyPatch(remove));
    assert.ok(!fs.existsSync(path.join(f.root, 'long.txt')));
  });

  test('OpenAI\'s apply_patch format and search/replace blocks apply the same way', async () => {
    const f = fixture();
    f.file('p.py', 'def f():\n    return 1\n\ndef g():\n    return 1\n');
    assertOk(await f.session.read('p.py'));
    const openai = ['*** Begin Patch', '*** Update File: p.py', '@@ def g():', '-    return 1', '+    return 3', '*** Add File: q.py', '+x = 1', '*** End Patch'].join('\n');
    assertOk(await f.session.applyPatch(openai));
    assert.strictEqual(f.text('p.py'), 'def f():\n    return 1\n\ndef g():\n    return 3\n');
    assert.strictEqual(f.text('q.py'), 'x = 1\n');
    const blocks = ['p.py', '<<<<<<< SEARCH', 'def f():', '    return 1', '=======', 'def f():', '    return 2', '>>>>>>> REPLACE'].join('\n');
    assertOk(await f.session.applyPatch(blocks));
    assert.strictEqual(f.text('p.py'), 'def f():\n    return 2\n\ndef g():\n    return 3\n');
  });

  test('bad input is INVALID_INPUT and changes nothing', async () => {
    const f = fixture();
    assert.strictEqual(codeOf(await f.session.applyPatch('just some prose')), 'INVALID_INPUT');
    assert.strictEqual(codeOf(await f.session.applyPatch('')), 'INVALID_INPUT');
    assert.strictEqual(codeOf(await f.session.applyPatch(42 as unknown as string)), 'INVALID_INPUT');
  });
});
