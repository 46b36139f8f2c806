/**
 * A revert whose changes the budget dropped in part: reverting the whole session (or one of its files) would
 * undo only the changes still on record and leave the file neither as it was nor as it is, so it is refused,
 * naming the first change it could not undo; nothing is written. A change still on record reverts as usual.
 */
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import { assertOk, codeOf } from '../helpers/guardFixture';
import { historyFixture } from './guardFixture';

suite('guard history: a revert after the budget dropped part of its target', () => {
  test('a session revert after the budget dropped 16 of its 20 changes is refused, naming what it could not undo; nothing is written', async () => {
    const f = historyFixture({ history: { dir: '', maxBytes: 5_000 } });
    const file = f.file('a.txt', 'start\n');
    for (let i = 0; i < 20; i++) {
      assertOk(await f.session.read(file));
      assertOk(await f.session.write(file, `${i}:${randomBytes(600).toString('base64')}\n`));
    }
    const kept = await f.guard.history({ sessionId: 'test' });
    assert.ok(kept.length >= 1 && kept.length < 20, `premise: the budget dropped some (${kept.length} kept)`);
    const now = fs.readFileSync(file, 'utf8');
    const result = await f.guard.revert({ sessionId: 'test' });
    assert.ok(!result.ok, `a session revert reported success: ${result.ok ? result.text : ''}`);
    assert.strictEqual(codeOf(result), 'INVALID_INPUT');
    const oldest = kept[kept.length - 1];
    assert.ok(oldest.previous, 'the oldest change kept names the change before it');
    assert.ok(result.message.split('.')[0].includes(oldest.previous!), `the first sentence names the change it could not undo: ${result.message}`);
    assert.match(result.message, /budget/);
    assert.match(result.message, /Nothing was changed/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), now);

    const fileRevert = await f.guard.revert({ sessionId: 'test', path: file });
    assert.strictEqual(codeOf(fileRevert), 'INVALID_INPUT');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), now);

    const single = await f.guard.revert({ changeId: kept[0].id });
    assertOk(single);
  });

  test('a session none of whose changes were dropped reverts as before', async () => {
    const f = historyFixture();
    const file = f.file('b.txt', 'one\n');
    for (const next of ['two\n', 'three\n']) {
      assertOk(await f.session.read(file));
      assertOk(await f.session.write(file, next));
    }
    const [newest, oldest] = await f.guard.history();
    assert.strictEqual(newest.previous, oldest.id, 'each change names the one before it in its session');
    assert.strictEqual(oldest.previous, undefined);
    assertOk(await f.guard.revert({ sessionId: 'test' }));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\n');
  });
});
