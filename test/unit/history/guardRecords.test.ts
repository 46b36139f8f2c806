/**
 * What the guard records in its change history (`GuardOptions.history`), through the real guard on real temp
 * folders: one record per applied change, from every kind of call (create, edit, write, delete, rename, a
 * multi-file change, an agent's patch), with the session's surface and label, the call, the explanation, who
 * approved it, and the exact bytes before and after (version ids are their SHA-256). Refused and rejected
 * changes leave no record; the budget still applies; exports leave contents out unless asked.
 */
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { ApprovalDecision, ChangeRecord, Clock } from '../../../src/core/index';
import { assertOk, codeOf, fixture, numbered } from '../helpers/guardFixture';
import { historyFixture, versionOf } from './guardFixture';

const diff = (file: string, ...lines: string[]): string => [`--- a/${file}`, `+++ b/${file}`, ...lines].join('\n') + '\n';

/** The record's files as [kind, path, from, before, after]. */
const filesOf = (record: ChangeRecord): unknown[][] => record.files.map((file) => [file.kind, file.path, file.from, file.before, file.after]);

suite('guard history: what is recorded', () => {
  test('an edit: the session, the call, its explanation, the policy that let it through, the exact bytes before and after, the hunks', async () => {
    const f = historyFixture();
    const file = f.file('a.txt', numbered(20));
    assertOk(await f.session.read(file));
    assertOk(await f.session.edit(file, [{ oldString: 'line 7\n', newString: 'line seven\n' }], { explanation: 'spell it out' }));
    const [record] = await f.guard.history();
    assert.ok(record, 'the change just applied is listed');
    assert.strictEqual(typeof record.id, 'string');
    assert.ok(Math.abs(record.time - Date.now()) < 60_000);
    const { id: _id, time: _time, files, ...rest } = record;
    assert.deepStrictEqual(rest, { sessionId: 'test', label: 'test', surface: 'api', tool: 'edit', explanation: 'spell it out', approvedBy: 'policy' });
    assert.deepStrictEqual(filesOf(record), [['edit', file, undefined, versionOf(numbered(20)), versionOf(fs.readFileSync(file))]]);
    assert.deepStrictEqual(
      files[0].hunks.map((hunk) => JSON.parse(JSON.stringify(hunk))),
      [{ index: 0, changes: [{ oldFrom: 7, oldTo: 8, newFrom: 7, newTo: 8 }], oldStart: 4, oldLines: 7, newStart: 4, newLines: 7 }],
    );
    assert.doesNotMatch(JSON.stringify(record), /line seven/, 'a record holds no content, only version ids and line numbers');
  });

  test('create, write, delete and rename each record their kind, with null for the side that has no file', async () => {
    const f = historyFixture();
    const created = path.join(f.root, 'new', 'made.txt');
    assertOk(await f.session.edit(created, [{ oldString: '', newString: 'made\n' }]));
    const rewritten = f.file('w.txt', 'old\r\n');
    assertOk(await f.session.read(rewritten));
    assertOk(await f.session.write(rewritten, 'new\r\nlines\r\n'));
    const doomed = f.file('gone.txt', 'bye\n');
    assertOk(await f.session.read(doomed));
    assertOk(await f.session.delete(doomed));
    const moving = f.file('from.txt', 'moving\n');
    const moved = path.join(f.root, 'to.txt');
    assertOk(await f.session.read(moving));
    assertOk(await f.session.rename(moving, moved));
    const records = await f.guard.history();
    assert.deepStrictEqual(records.map((record) => [record.tool, ...filesOf(record)]), [
      ['rename', ['rename', moved, moving, versionOf('moving\n'), versionOf('moving\n')]],
      ['delete', ['delete', doomed, undefined, versionOf('bye\n'), null]],
      ['write', ['edit', rewritten, undefined, versionOf('old\r\n'), versionOf('new\r\nlines\r\n')]],
      ['edit', ['create', created, undefined, null, versionOf('made\n')]],
    ]);
    assert.deepStrictEqual((await f.guard.history({ path: moving })).map((r) => r.tool), ['rename'], 'a rename is found by its old name too');
    assert.deepStrictEqual((await f.guard.history({ path: 'w.txt' })).map((r) => r.tool), ['write'], 'a relative path is taken from the first root');
  });

  test('a multi-file change is one record of all its files; an agent\'s patch is recorded as applyPatch', async () => {
    const f = historyFixture();
    const a = f.file('a.txt', numbered(5));
    const b = f.file('b.txt', 'b\n');
    const c = f.file('c.txt', 'c\n');
    for (const file of [a, b, c]) assertOk(await f.session.read(file));
    const d = path.join(f.root, 'd.txt');
    const result = await f.session.multiEdit([
      { path: a, edits: [{ oldString: 'line 2', newString: 'line two' }] },
      { path: b, delete: true },
      { path: c, moveTo: d, edits: [{ oldString: 'c', newString: 'C' }] },
      { path: path.join(f.root, 'e.txt'), edits: [{ oldString: '', newString: 'e\n' }] },
    ]);
    assertOk(result);
    assertOk(await f.session.applyPatch(diff('a.txt', '@@ -3,2 +3,2 @@', '-line 3', '+line three', ' line 4'), { explanation: 'patch' }));
    const [patch, multi] = await f.guard.history();
    assert.strictEqual(patch.tool, 'applyPatch');
    assert.strictEqual(patch.explanation, 'patch');
    assert.deepStrictEqual(filesOf(patch), [['edit', a, undefined, versionOf(numbered(5).replace('line 2', 'line two')), versionOf(fs.readFileSync(a))]]);
    assert.strictEqual(multi.tool, 'multiEdit');
    assert.deepStrictEqual(filesOf(multi).sort(), [
      ['create', path.join(f.root, 'e.txt'), undefined, null, versionOf('e\n')],
      ['delete', b, undefined, versionOf('b\n'), null],
      ['edit', a, undefined, versionOf(numbered(5)), versionOf(numbered(5).replace('line 2', 'line two'))],
      ['rename', d, c, versionOf('c\n'), versionOf('C\n')],
    ]);
  });

  test('each session is recorded with the surface and label it was given; given again, they replace the old ones', async () => {
    const f = historyFixture();
    const file = f.file('a.txt', 'one\n');
    const mcp = f.guard.session('mcp:1', { surface: 'mcp', label: 'Claude Code 2.0.14' });
    const chat = f.guard.session('chat:1', { surface: 'chat', label: 'Fix the loop' });
    assertOk(await mcp.read(file));
    assertOk(await mcp.edit(file, [{ oldString: 'one', newString: 'two' }]));
    assertOk(await chat.read(file));
    assertOk(await chat.edit(file, [{ oldString: 'two', newString: 'three' }]));
    f.guard.session('mcp:1', { label: 'Codex 0.40' });
    assertOk(await mcp.read(file));
    assertOk(await mcp.edit(file, [{ oldString: 'three', newString: 'four' }]));
    const shown = (await f.guard.history()).map((r) => [r.sessionId, r.surface, r.label]);
    assert.deepStrictEqual(shown, [
      ['mcp:1', 'mcp', 'Codex 0.40'],
      ['chat:1', 'chat', 'Fix the loop'],
      ['mcp:1', 'mcp', 'Claude Code 2.0.14'],
    ]);
    assert.deepStrictEqual((await f.guard.history({ sessionId: 'chat:1' })).map((r) => r.label), ['Fix the loop']);
  });

  test('approvedBy is what the approver said, "approver" when it did not say; a rejected or refused change is not recorded', async () => {
    const answers: ApprovalDecision[] = [{ approved: true, approvedBy: 'user' }, { approved: true, approvedBy: 'grant' }, { approved: true }, { approved: false, reason: 'no' }, { approved: true, approvedBy: '' }];
    const f = historyFixture({ approve: async () => answers.shift() as ApprovalDecision });
    const file = f.file('a.txt', '0\n');
    for (let i = 0; i < 5; i++) {
      assertOk(await f.session.read(file));
      const result = await f.session.edit(file, [{ oldString: `${i}\n`, newString: `${i + 1}\n` }]);
      if (i === 3) {
        assert.strictEqual(codeOf(result), 'REJECTED_BY_USER');
        fs.writeFileSync(file, '4\n');
      } else assertOk(result);
    }
    assert.strictEqual(codeOf(await f.session.edit(file, [{ oldString: 'absent', newString: 'x' }])), 'NO_OCCURRENCE_FOUND');
    assert.deepStrictEqual((await f.guard.history()).map((r) => r.approvedBy).reverse(), ['user', 'grant', 'approver', 'approver']);
  });

  test('content the user changed in review is recorded as written, not as proposed', async () => {
    const f = historyFixture({ approve: async (request) => ({ approved: true, approvedBy: 'user', files: [{ path: request.files[0].path, content: 'mine\n' }] }) });
    const file = f.file('a.txt', 'old\n');
    assertOk(await f.session.read(file));
    assertOk(await f.session.write(file, 'proposed\n'));
    const [record] = await f.guard.history();
    assert.deepStrictEqual(filesOf(record), [['edit', file, undefined, versionOf('old\n'), versionOf('mine\n')]]);
  });

  test('the budget still applies: records older than maxAgeDays go with their versions when the next change is recorded', async () => {
    let now = Date.UTC(2026, 0, 1);
    const clock: Clock = { now: () => now };
    const f = historyFixture({ clock, history: { dir: '', maxAgeDays: 30 } });
    const file = f.file('a.txt', 'v0\n');
    for (let i = 0; i < 3; i++) {
      assertOk(await f.session.read(file));
      assertOk(await f.session.edit(file, [{ oldString: `v${i}`, newString: `v${i + 1}` }]));
      now += 24 * 60 * 60 * 1000;
    }
    assert.strictEqual((await f.guard.history()).length, 3);
    now += 28 * 24 * 60 * 60 * 1000; // the first change is now 31 days old, the others 30 and 29
    assertOk(await f.session.read(file));
    assertOk(await f.session.edit(file, [{ oldString: 'v3', newString: 'v4' }]));
    const left = await f.guard.history();
    assert.deepStrictEqual(left.map((r) => r.files[0].after), ['v4\n', 'v3\n', 'v2\n'].map(versionOf));
    const stored = fs.readdirSync(path.join(f.historyDir, 'versions'), { recursive: true }).map(String).filter((name) => name.endsWith('.gz'));
    assert.deepStrictEqual(stored.map((name) => path.basename(name, '.gz')).sort(), ['v1\n', 'v2\n', 'v3\n', 'v4\n'].map(versionOf).sort(), 'v0 went with the record that alone named it');
  });

  test('the budget still applies: a small maxBytes keeps only the newest records', async () => {
    const f = historyFixture({ history: { dir: '', maxBytes: 6000 } });
    const file = f.file('a.txt', 'start\n');
    // Incompressible-ish text, so each version takes about its size.
    const texts = Array.from({ length: 8 }, (_, i) => `${i}:${randomBytes(900).toString('base64')}\n`);
    let current = 'start\n';
    for (const text of texts) {
      assertOk(await f.session.read(file));
      assertOk(await f.session.write(file, text));
      current = text;
    }
    const left = await f.guard.history();
    assert.ok(left.length >= 1 && left.length < texts.length, `kept ${left.length} of ${texts.length}`);
    assert.strictEqual(left[0].files[0].after, versionOf(current), 'the newest is kept');
    const bytes = fs.readdirSync(f.historyDir, { recursive: true }).map(String).map((name) => path.join(f.historyDir, name)).filter((p) => fs.statSync(p).isFile()).reduce((sum, p) => sum + fs.statSync(p).size, 0);
    assert.ok(bytes <= 6000, `the folder holds ${bytes} bytes`);
  });

  test('the export lists every record as JSON Lines, without contents unless asked; a guard without history lists and exports nothing', async () => {
    const f = historyFixture();
    const file = f.file('a.txt', 'secret one\n');
    assertOk(await f.session.read(file));
    assertOk(await f.session.edit(file, [{ oldString: 'one', newString: 'two' }]));
    const plain: string[] = [];
    assert.strictEqual(await f.guard.exportHistory((line) => void plain.push(line)), 1);
    assert.doesNotMatch(plain.join(''), /secret|contents/);
    assert.deepStrictEqual(JSON.parse(plain[0]), JSON.parse(JSON.stringify((await f.guard.history())[0])));
    const full: string[] = [];
    assert.strictEqual(await f.guard.exportHistory((line) => void full.push(line), { contents: true }), 1);
    const contents = (JSON.parse(full[0]) as { contents: Record<string, string> }).contents;
    assert.deepStrictEqual(Object.values(contents).map((b64) => Buffer.from(b64, 'base64').toString()).sort(), ['secret one\n', 'secret two\n']);

    const bare = fixture();
    const other = bare.file('b.txt', 'b\n');
    assertOk(await bare.session.read(other));
    assertOk(await bare.session.edit(other, [{ oldString: 'b', newString: 'c' }]));
    assert.deepStrictEqual(await bare.guard.history(), []);
    assert.strictEqual(await bare.guard.exportHistory(() => undefined), 0);
  });

  test('a history folder that is not absolute is refused when the guard is made', () => {
    assert.throws(() => historyFixture({ history: { dir: 'relative/history' } }), /history\.dir must be an absolute folder path/);
    assert.throws(() => historyFixture({ history: { dir: '', maxBytes: -1 } }), /history\.maxBytes must be a positive number/);
  });
});
