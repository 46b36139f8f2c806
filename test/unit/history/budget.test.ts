import * as assert from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { decideBudget, decideOrphans } from '../../../src/core/history/budget';
import { createHistory } from '../../../src/core/index';
import type { RecordInput } from '../../../src/core/index';
import { recordingLogger } from '../helpers/recordingLogger';
import { makeTempDir } from '../helpers/tempDir';

const DAY = 24 * 60 * 60 * 1000;

/** Bytes stored under `dir` (what the budget counts), and the version files there. */
function stored(dir: string): { bytes: number; versions: string[]; records: number } {
  let bytes = 0;
  const versions: string[] = [];
  let records = 0;
  const walk = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        bytes += fs.statSync(full).size;
        if (entry.name.endsWith('.gz')) versions.push(entry.name.slice(0, -3));
        else records++;
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return { bytes, versions: versions.sort(), records };
}

const create = (name: string, content: Uint8Array): RecordInput => ({
  sessionId: 's',
  label: 'test',
  surface: 'api',
  tool: 'readgate_write',
  approvedBy: 'approver',
  files: [{ path: name, kind: 'create', before: null, after: content }],
});

suite('history: the budget (pure decision)', () => {
  const record = (id: string, time: number, versions: string[], bytes = 10) => ({ id, time, bytes, versions });

  test('drops records older than the age limit', () => {
    const decision = decideBudget([record('a', 0, ['x']), record('b', 5 * DAY, ['y'])], new Map([['x', 1], ['y', 1]]), 33 * DAY, { maxBytes: 1e9, maxAgeMs: 30 * DAY });
    assert.deepStrictEqual(decision, { drop: ['a'], freed: ['x'] });
  });

  test('drops the oldest records until the rest fits, counting records and the versions they name', () => {
    const sizes = new Map([['x', 100], ['y', 100], ['z', 100]]);
    const records = [record('a', 1, ['x']), record('b', 2, ['y']), record('c', 3, ['z'])];
    assert.deepStrictEqual(decideBudget(records, sizes, 4, { maxBytes: 200, maxAgeMs: DAY }), { drop: ['a', 'b'], freed: ['x', 'y'] });
    assert.deepStrictEqual(decideBudget(records, sizes, 4, { maxBytes: 330, maxAgeMs: DAY }), { drop: [], freed: [] });
  });

  test('a version another record still names is kept, and does not count as freed', () => {
    const sizes = new Map([['shared', 100], ['own', 100]]);
    const records = [record('a', 1, ['shared']), record('b', 2, ['shared', 'own'])];
    assert.deepStrictEqual(decideBudget(records, sizes, 3, { maxBytes: 215, maxAgeMs: DAY }), { drop: ['a'], freed: [] });
  });

  test('a version no record names is an orphan only once older than the grace period; one named, or of unknown age, never', () => {
    const stored = [
      { id: 'old', mtimeMs: 0 },
      { id: 'young', mtimeMs: 95 },
      { id: 'named', mtimeMs: 0 },
      { id: 'unknown' },
    ];
    assert.deepStrictEqual(decideOrphans(stored, new Set(['named']), 100, 10), ['old']);
  });
});

suite('history: the budget on disk', () => {
  test('keeps the stored bytes within maxBytes, dropping the oldest records first with the versions only they named', async () => {
    const dir = makeTempDir();
    let now = 1_000_000;
    const history = createHistory({ dir, maxBytes: 12_000, clock: { now: () => (now += 1000) } });
    const contents = Array.from({ length: 8 }, () => new Uint8Array(randomBytes(2_000)));
    const ids: string[] = [];
    for (const [i, content] of contents.entries()) {
      const record = await history.record(create(`f${i}`, content));
      assert.ok(record, `change ${i} was not recorded`);
      ids.push(record.id);
      assert.ok(stored(dir).bytes <= 12_000, `after change ${i}: ${stored(dir).bytes} bytes stored`);
    }
    const kept = (await history.list()).map((r) => r.id);
    assert.ok(kept.length >= 3 && kept.length < 8, `kept ${kept.length}`);
    assert.deepStrictEqual(kept, ids.slice(-kept.length).reverse(), 'the newest records are the ones kept');
    const keptVersions = (await history.list()).map((r) => r.files[0].after!).sort();
    assert.deepStrictEqual(stored(dir).versions, keptVersions, 'the versions of dropped records are gone from disk');
    assert.strictEqual(stored(dir).records, kept.length);
  });

  test('keeps a version a dropped record shared with a kept one', async () => {
    const dir = makeTempDir();
    let now = 0;
    const history = createHistory({ dir, maxBytes: 6_000, clock: { now: () => (now += 1000) } });
    const shared = new Uint8Array(randomBytes(2_000));
    const first = await history.record(create('a', shared));
    await history.record(create('b', new Uint8Array(randomBytes(2_000))));
    await history.record(create('c', shared));
    await history.record(create('d', new Uint8Array(randomBytes(1_500))));
    const kept = await history.list();
    assert.ok(!kept.some((r) => r.id === first!.id), 'the oldest record was dropped');
    assert.ok(kept.some((r) => r.files[0].path === 'c'));
    assert.ok(stored(dir).versions.includes(first!.files[0].after!), 'the shared version stays for the kept record');
  });

  test('drops records older than maxAgeDays by the injected clock, on the next record and at load', async () => {
    const dir = makeTempDir();
    let now = 100 * DAY;
    const clock = { now: () => now };
    const history = createHistory({ dir, maxAgeDays: 30, clock });
    const old = await history.record(create('old', new Uint8Array([1])));
    now += 10 * DAY;
    const middle = await history.record(create('middle', new Uint8Array([2])));
    now += 25 * DAY; // old is 35 days old, middle 25
    const fresh = await history.record(create('fresh', new Uint8Array([3])));
    assert.deepStrictEqual((await history.list()).map((r) => r.id), [fresh!.id, middle!.id]);
    assert.ok(!stored(dir).versions.includes(old!.files[0].after!));
    now += 10 * DAY; // middle is 35 days old
    const reloaded = createHistory({ dir, maxAgeDays: 30, clock });
    assert.deepStrictEqual((await reloaded.list()).map((r) => r.id), [fresh!.id]);
    assert.deepStrictEqual(stored(dir).versions, [fresh!.files[0].after!]);
  });

  test('a change larger than the whole budget is not recorded, logged, and leaves nothing behind', async () => {
    const dir = makeTempDir();
    const logger = recordingLogger();
    const history = createHistory({ dir, maxBytes: 5_000, logger });
    const small = await history.record(create('small', new Uint8Array([1, 2, 3])));
    const before = stored(dir);
    assert.strictEqual(await history.record(create('big', new Uint8Array(randomBytes(6_000)))), undefined);
    assert.match(JSON.stringify(logger.warnings()), /larger than the history's budget/);
    assert.deepStrictEqual(stored(dir), before);
    assert.deepStrictEqual((await history.list()).map((r) => r.id), [small!.id]);
  });

  test('a lower budget set later applies at once', async () => {
    const dir = makeTempDir();
    let now = 0;
    const history = createHistory({ dir, clock: { now: () => (now += 1000) } });
    for (let i = 0; i < 5; i++) await history.record(create(`f${i}`, new Uint8Array(randomBytes(2_000))));
    await history.configure({ maxBytes: 5_000 });
    assert.ok(stored(dir).bytes <= 5_000, `${stored(dir).bytes} bytes stored`);
    assert.deepStrictEqual((await history.list()).map((r) => r.files[0].path), ['f4', 'f3']);
  });
});
