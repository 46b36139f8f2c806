/**
 * The guard's change history failing under a change: recording never delays or fails the write. A history
 * storage that refuses with ENOSPC, one that never answers, and a real 64 KB tmpfs that the kernel itself fills
 * (needs root; CI runs as root): every change is written and reported as usual, the history drops only what it
 * could not store and says so in the log, and records again once it can.
 */
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { History } from '../../../src/core/index';
import type { HistoryArea, HistoryStorage } from '../../../src/core/index';
import { createNodeHistoryStorage } from '../../../src/core/nodeFs/historyStorage';
import { assertOk } from '../helpers/guardFixture';
import { recordingLogger } from '../helpers/recordingLogger';
import { makeTempDir } from '../helpers/tempDir';
import { type TinyTmpfs, mountTinyTmpfs } from '../helpers/tinyTmpfs';
import { historyFixture, historyWarnings } from '../history/guardFixture';

/** The real Node storage, whose writes fail with `code` while `failing` is set (or never settle, for 'hang'). */
function faultyStorage(dir: string): HistoryStorage & { failing: string | undefined; writes: number } {
  const real = createNodeHistoryStorage(dir);
  const storage = {
    failing: undefined as string | undefined,
    writes: 0,
    list: (area: HistoryArea) => real.list(area),
    read: (area: HistoryArea, name: string) => real.read(area, name),
    remove: (area: HistoryArea, name: string) => real.remove(area, name),
    async write(area: HistoryArea, name: string, data: Uint8Array): Promise<void> {
      storage.writes++;
      if (storage.failing === 'hang') return new Promise<void>(() => undefined);
      if (storage.failing) throw Object.assign(new Error(`${storage.failing}: injected on write ${area}`), { code: storage.failing });
      return real.write(area, name, data);
    },
  };
  return storage;
}

/** Resolves with the promise's value, or rejects if it takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

suite('real faults: the guard\'s history cannot store a change', () => {
  let mount: TinyTmpfs | undefined;

  teardown(() => {
    mount?.unmount();
    mount = undefined;
  });

  test('a storage that refuses with ENOSPC: the change is written and reported as applied; the log says the history dropped it; the next one is recorded', async () => {
    const storage = faultyStorage(path.join(makeTempDir('readgate-history-'), 'h'));
    const logger = recordingLogger();
    const g = historyFixture({ historyStore: new History({ storage, logger }), logger });
    const file = g.file('a.txt', 'one\n');
    assertOk(await g.session.read(file));
    storage.failing = 'ENOSPC';
    const result = await g.session.edit(file, [{ oldString: 'one', newString: 'two' }]);
    assertOk(result);
    assert.strictEqual(g.text('a.txt'), 'two\n');
    assert.deepStrictEqual(await g.guard.history(), []);
    assert.ok(storage.writes > 0, 'premise: the history tried to store it');
    assert.deepStrictEqual(historyWarnings(logger.lines).map((line) => [line.message, line.data?.code, line.data?.sessionId]), [['[history] change not recorded', 'ENOSPC', 'test']]);
    storage.failing = undefined;
    assertOk(await g.session.edit(file, [{ oldString: 'two', newString: 'three' }]));
    assert.deepStrictEqual((await g.guard.history()).map((record) => record.sessionId), ['test']);
  });

  test('a storage that never answers does not hold up the change: it is written and its result returned at once', async () => {
    const storage = faultyStorage(path.join(makeTempDir('readgate-history-'), 'h'));
    storage.failing = 'hang';
    const f = historyFixture({ historyStore: new History({ storage }) });
    const file = f.file('a.txt', 'one\n');
    assertOk(await f.session.read(file));
    assertOk(await within(f.session.edit(file, [{ oldString: 'one', newString: 'two' }]), 5000, 'the edit'));
    // The history is now stuck storing the first change (hashed and compressed after the edit returned).
    for (let waited = 0; storage.writes === 0 && waited < 5000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.ok(storage.writes > 0, 'premise: the history is storing the first change');
    assertOk(await within(f.session.edit(file, [{ oldString: 'two', newString: 'three' }]), 5000, 'the next edit'));
    assert.strictEqual(f.text('a.txt'), 'three\n');
  });

  test('a real full disk (64 KB tmpfs): a change too big for it is written, the history drops it with ENOSPC and leaves no part of it; a small one is recorded', async () => {
    mount = mountTinyTmpfs('64k', 'the guard\'s history on a real file system that runs out of space');
    const historyDir = path.join(mount.dir, 'history');
    const f = historyFixture({ history: { dir: historyDir } });
    // Text that gzip cannot shrink below the disk: about 120 KB of base64.
    const big = randomBytes(90 * 1024).toString('base64') + '\n';
    const file = f.file('big.txt', 'small\n');
    assertOk(await f.session.read(file));
    assertOk(await f.session.write(file, big));
    assert.strictEqual(f.text('big.txt'), big);
    assert.deepStrictEqual(await f.guard.history(), []);
    assert.deepStrictEqual(historyWarnings(f.logger.lines).map((line) => [line.message, line.data?.code]), [['[history] change not recorded', 'ENOSPC']]);
    const left = fs.readdirSync(historyDir, { recursive: true }).map(String).filter((name) => fs.statSync(path.join(historyDir, name)).isFile());
    assert.deepStrictEqual(left, [], 'no version, record or temp file of the dropped change');
    const small = f.file('small.txt', 'a\n');
    assertOk(await f.session.read(small));
    assertOk(await f.session.write(small, 'b\n'));
    const [record] = await f.guard.history();
    assert.deepStrictEqual(record?.files.map((x) => [x.kind, x.path]), [['edit', small]], 'the next change that fits is recorded');
  });
});
