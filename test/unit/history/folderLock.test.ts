/**
 * The lock of a history folder (`nodeFs/historyLock.ts`), between real processes: it excludes (four processes
 * adding to one counter lose no update), a lock whose owner died is broken by the next process that needs it
 * (SIGKILLed while holding it; a pid now used by another process), a live owner is waited for and never broken
 * (past the wait: ELOCKED), and a lock that cannot be checked (no owner written yet, another host) is broken
 * only once it is old.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { withFolderLock } from '../../../src/core/nodeFs/historyLock';
import { childProgram, startChild } from '../helpers/childGuard';
import { makeTempDir } from '../helpers/tempDir';

const lockOf = (dir: string): string => path.join(dir, 'lock');
const ago = (ms: number): Date => new Date(Date.now() - ms);

async function holdInChild(dir: string) {
  const child = startChild(childProgram('folderLockChild'), { args: ['hold', dir] });
  await child.waitForLine((line) => line === 'held', 20_000, 'the child holding the lock');
  return child;
}

suite('history: the folder lock between processes', () => {
  test('four processes adding 1 to one counter 25 times each, each a read, a pause and a write under the lock, end at 100', async function () {
    this.timeout(60_000);
    const dir = makeTempDir();
    const counter = path.join(dir, 'counter');
    fs.writeFileSync(counter, '0');
    const children = Array.from({ length: 4 }, () => startChild(childProgram('folderLockChild'), { args: ['count', dir, counter, '25'] }));
    for (const child of children) {
      const done = await child.finished(50_000);
      assert.strictEqual(done.code, 0, done.stderr);
    }
    assert.strictEqual(fs.readFileSync(counter, 'utf8'), '100');
    assert.ok(!fs.existsSync(lockOf(dir)), 'released');
  });

  test('a lock left by a process SIGKILLed while it held it is broken by the next process that needs it', async function () {
    this.timeout(30_000);
    const dir = makeTempDir();
    const holder = await holdInChild(dir);
    await holder.kill();
    assert.ok(fs.existsSync(lockOf(dir)), 'premise: the dead process left its lock');
    assert.strictEqual(await withFolderLock(dir, async () => 'ran', 5_000), 'ran');
    assert.ok(!fs.existsSync(lockOf(dir)));
  });

  test('a live holder is waited for and never broken: past the wait, ELOCKED, and its lock stays', async function () {
    this.timeout(30_000);
    const dir = makeTempDir();
    const holder = await holdInChild(dir);
    const before = fs.readFileSync(lockOf(dir), 'utf8');
    await assert.rejects(withFolderLock(dir, async () => 'ran', 300), (error: NodeJS.ErrnoException) => error.code === 'ELOCKED' && error.message.includes(String(holder.pid)));
    assert.strictEqual(fs.readFileSync(lockOf(dir), 'utf8'), before);
    await holder.kill();
  });

  test('a lock naming this host and a pid now used by another process (its start time differs) is broken', async () => {
    const dir = makeTempDir();
    const ns = fs.readlinkSync('/proc/self/ns/pid');
    fs.writeFileSync(lockOf(dir), JSON.stringify({ pid: process.pid, start: '1', host: os.hostname(), ns, token: 'reused' }));
    assert.strictEqual(await withFolderLock(dir, async () => 'ran', 2_000), 'ran');
  });

  test('a lock with no owner written yet is respected for 10 s, then broken', async () => {
    const dir = makeTempDir();
    fs.writeFileSync(lockOf(dir), '');
    await assert.rejects(withFolderLock(dir, async () => 'ran', 200), /locked/);
    fs.utimesSync(lockOf(dir), ago(11_000), ago(11_000));
    assert.strictEqual(await withFolderLock(dir, async () => 'ran', 2_000), 'ran');
  });

  test("another host's lock is respected while its owner refreshes it, and broken after a minute without", async () => {
    const dir = makeTempDir();
    fs.writeFileSync(lockOf(dir), JSON.stringify({ pid: 1, host: 'elsewhere.example', token: 'far' }));
    await assert.rejects(withFolderLock(dir, async () => 'ran', 200), /locked by process 1/);
    fs.utimesSync(lockOf(dir), ago(61_000), ago(61_000));
    assert.strictEqual(await withFolderLock(dir, async () => 'ran', 2_000), 'ran');
  });
});
