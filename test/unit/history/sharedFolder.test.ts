/**
 * Several processes on one history folder, as docs/review-and-history.md suggests (the headless server records while the user
 * lists with the library): real child processes (`historyWorker`), each a guard with its own history on the same
 * folder. Nothing one process does may cost another its records or their contents: opening a guard while another
 * saves, one process's budget, and a guard that was open before the other process recorded.
 */
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import { makeTempDir } from '../helpers/tempDir';
import { startWorker, type WorkerRecord } from './historyWorkers';

interface Checked {
  records: WorkerRecord[];
  broken: string[];
}

function folders(): { root: string; dir: string } {
  const root = makeTempDir('readgate-shared-root-');
  return { root, dir: path.join(makeTempDir('readgate-shared-history-'), 'history') };
}

suite('history: several processes on one folder', () => {
  test('a process that opens a fresh guard every few ms and lists never takes the contents of records another process is still saving', async function () {
    this.timeout(120_000);
    const { root, dir } = folders();
    const file = path.join(root, 'a.txt');
    fs.writeFileSync(file, 'start\n');
    const writer = await startWorker({ roots: [root], dir, sessionId: 'writer' });
    const opener = await startWorker({ roots: [root], dir, sessionId: 'opener' });
    try {
      const [burst] = await Promise.all([writer.call('burst', { path: file, count: 100, prefix: 'edit ' }), opener.call('openList', { times: 80, everyMs: 5 })]);
      assert.deepStrictEqual(burst, { ok: true });
      await writer.call('flush');
      const checked = await opener.call<Checked>('check');
      assert.strictEqual(checked.records.filter((record) => record.sessionId === 'writer').length, 100, 'every change is on record');
      assert.deepStrictEqual(checked.broken, [], 'every record still has its contents');
      const reverted = await opener.call<{ ok: boolean; message: string }>('revert', { target: { sessionId: 'writer' } });
      assert.strictEqual(reverted.ok, true, reverted.message);
      assert.strictEqual(fs.readFileSync(file, 'utf8'), 'start\n');
    } finally {
      await Promise.all([writer.end(), opener.end()]);
    }
  });

  test("one process's small budget never removes a version another process's newer record names", async function () {
    this.timeout(120_000);
    const { root, dir } = folders();
    const file = path.join(root, 'shared.txt');
    fs.writeFileSync(file, 'start\n');
    const small = await startWorker({ roots: [root], dir, sessionId: 'small', maxBytes: 4_000 });
    const large = await startWorker({ roots: [root], dir, sessionId: 'large' });
    try {
      // Text gzip cannot shrink much, so the small budget holds only a few versions.
      const text = (): string => `${randomBytes(450).toString('base64')}\n`;
      for (let i = 0; i < 12; i++) {
        assert.deepStrictEqual(await small.call('write', { path: file, content: text() }), { ok: true });
        assert.deepStrictEqual(await large.call('write', { path: file, content: text() }), { ok: true });
      }
      await small.call('flush');
      await large.call('flush');
      const checked = await large.call<Checked>('check');
      assert.ok(checked.records.length > 0 && checked.records.length < 24, `the budget applied: ${checked.records.length} of 24 on record`);
      assert.deepStrictEqual(checked.broken, [], 'every change on record can still be reverted');
      const newest = checked.records.find((record) => record.sessionId === 'large');
      assert.ok(newest, 'the newest change of the large process is on record');
      const reverted = await large.call<{ ok: boolean; message: string }>('revert', { target: { changeId: newest.id } });
      assert.strictEqual(reverted.ok, true, reverted.message);
    } finally {
      await Promise.all([small.end(), large.end()]);
    }
  });

  test('a guard that is already open lists the records another process wrote since, and can revert them', async function () {
    this.timeout(60_000);
    const { root, dir } = folders();
    const file = path.join(root, 'b.txt');
    fs.writeFileSync(file, 'one\n');
    const guard = createGuard({ roots: [root], history: { dir } });
    try {
      assert.deepStrictEqual(await guard.history(), [], 'premise: the guard has loaded the (empty) history');
      const other = await startWorker({ roots: [root], dir, sessionId: 'other' });
      assert.deepStrictEqual(await other.call('write', { path: file, content: 'two\n' }), { ok: true });
      await other.end();
      const listed = await guard.history();
      assert.deepStrictEqual(listed.map((record) => record.sessionId), ['other']);
      const reverted = await guard.revert({ sessionId: 'other' });
      assert.ok(reverted.ok, reverted.ok ? '' : reverted.message);
      assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\n');
    } finally {
      await guard.dispose();
    }
  });
});
