/**
 * Faults injected through the history's storage port (the real Node storage on a temp dir, with a chosen call
 * made to fail as the kernel would): recording never throws, drops only the change it was recording along with
 * every version that change stored, says so in the log, and the next change is recorded as usual.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ORPHAN_GRACE_MS } from '../../../src/core/history/maintenance';
import { createNodeHistoryStorage } from '../../../src/core/nodeFs/historyStorage';
import { History } from '../../../src/core/index';
import type { HistoryArea, HistoryStorage, RecordInput } from '../../../src/core/index';
import { recordingLogger } from '../helpers/recordingLogger';
import { makeTempDir } from '../helpers/tempDir';

type Call = 'list' | 'read' | 'write' | 'remove';

interface Fault {
  call: Call;
  area: HistoryArea;
  /** Fails the nth matching call from now (1 = the next one); every later one too when `sticky`. */
  nth: number;
  code: string;
  sticky?: boolean;
}

function faultyStorage(dir: string): HistoryStorage & { faults: Fault[]; calls: string[] } {
  const real = createNodeHistoryStorage(dir);
  const faults: Fault[] = [];
  const calls: string[] = [];
  const check = (call: Call, area: HistoryArea): void => {
    calls.push(`${call} ${area}`);
    for (const fault of faults) {
      if (fault.call !== call || fault.area !== area) continue;
      fault.nth--;
      if (fault.nth === 0 || (fault.sticky && fault.nth < 0)) {
        throw Object.assign(new Error(`${fault.code}: injected on ${call} ${area}`), { code: fault.code });
      }
    }
  };
  return {
    faults,
    calls,
    async list(area) {
      check('list', area);
      return real.list(area);
    },
    async read(area, name) {
      check('read', area);
      return real.read(area, name);
    },
    async write(area, name, data) {
      check('write', area);
      return real.write(area, name, data);
    },
    async remove(area, name) {
      check('remove', area);
      return real.remove(area, name);
    },
  };
}

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));

const edit = (name: string, before: string, after: string): RecordInput => ({
  sessionId: 's',
  label: 'test',
  surface: 'api',
  tool: 'readgate_edit',
  approvedBy: 'approver',
  files: [{ path: name, kind: 'edit', before: bytes(before), after: bytes(after) }],
});

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort();
}

suite('history: faults through the storage port', () => {
  test('a full disk while storing a version drops that change and the versions it had stored, and logs ENOSPC', async () => {
    const dir = makeTempDir();
    const storage = faultyStorage(dir);
    const logger = recordingLogger();
    const history = new History({ storage, logger });
    const kept = await history.record(edit('a', 'one\n', 'two\n'));
    const before = filesUnder(dir);
    storage.faults.push({ call: 'write', area: 'versions', nth: 2, code: 'ENOSPC' });
    assert.strictEqual(await history.record(edit('b', 'three\n', 'four\n')), undefined);
    assert.deepStrictEqual(filesUnder(dir), before, 'the first version of the dropped change was removed again');
    assert.deepStrictEqual(logger.warnings().map((line) => [line.message, line.data?.code]), [['[history] change not recorded', 'ENOSPC']]);
    assert.deepStrictEqual(await history.list(), [kept]);
    const next = await history.record(edit('c', 'five\n', 'six\n'));
    assert.ok(next, 'the next change is recorded once the disk has room');
  });

  test('a full disk while storing the record keeps the versions older records name and removes the new ones', async () => {
    const dir = makeTempDir();
    const storage = faultyStorage(dir);
    const history = new History({ storage, logger: recordingLogger() });
    const kept = await history.record(edit('a', 'one\n', 'two\n'));
    const before = filesUnder(dir);
    storage.faults.push({ call: 'write', area: 'records', nth: 1, code: 'ENOSPC' });
    // Its before is the kept record's after: shared, so it must stay.
    assert.strictEqual(await history.record(edit('a', 'two\n', 'three\n')), undefined);
    assert.deepStrictEqual(filesUnder(dir), before);
    assert.deepStrictEqual(await history.versionBytes(kept!.files[0].after!), bytes('two\n'));
  });

  test('a permission error (EACCES) on every write drops each change without throwing, and recording resumes after', async () => {
    const storage = faultyStorage(makeTempDir());
    const logger = recordingLogger();
    const history = new History({ storage, logger });
    storage.faults.push({ call: 'write', area: 'versions', nth: 1, code: 'EACCES', sticky: true });
    const results = await Promise.all([history.record(edit('a', '1', '2')), history.record(edit('b', '3', '4'))]);
    assert.deepStrictEqual(results, [undefined, undefined]);
    assert.deepStrictEqual(logger.warnings().map((line) => line.data?.code), ['EACCES', 'EACCES']);
    storage.faults.length = 0;
    assert.ok(await history.record(edit('c', '5', '6')));
  });

  test('a folder it cannot list at load drops the change; the next call loads again and sees the older records', async () => {
    const dir = makeTempDir();
    const older = await new History({ storage: createNodeHistoryStorage(dir) }).record(edit('a', '1', '2'));
    const storage = faultyStorage(dir);
    const logger = recordingLogger();
    const history = new History({ storage, logger });
    storage.faults.push({ call: 'list', area: 'records', nth: 1, code: 'EIO' });
    assert.strictEqual(await history.record(edit('b', '3', '4')), undefined);
    assert.deepStrictEqual(logger.warnings().map((line) => line.data?.code), ['EIO']);
    const later = await history.record(edit('c', '5', '6'));
    assert.deepStrictEqual((await history.list()).map((r) => r.id), [later!.id, older!.id]);
  });

  test('versions left behind when even their removal fails are removed by a later load once older than the grace period', async () => {
    const dir = makeTempDir();
    const storage = faultyStorage(dir);
    const history = new History({ storage, logger: recordingLogger() });
    storage.faults.push({ call: 'write', area: 'records', nth: 1, code: 'ENOSPC' }, { call: 'remove', area: 'versions', nth: 1, code: 'EIO', sticky: true });
    assert.strictEqual(await history.record(edit('a', 'left\n', 'behind\n')), undefined);
    assert.strictEqual(filesUnder(dir).length, 2, 'premise: both versions are still there');
    // Young, they may be another process's versions whose record is on its way: kept.
    await new History({ storage: createNodeHistoryStorage(dir) }).list();
    assert.strictEqual(filesUnder(dir).length, 2);
    const past = new Date(Date.now() - ORPHAN_GRACE_MS - 60_000);
    for (const file of filesUnder(dir)) fs.utimesSync(path.join(dir, file), past, past);
    await new History({ storage: createNodeHistoryStorage(dir) }).list();
    assert.deepStrictEqual(filesUnder(dir), []);
  });

  test('old records it cannot remove stay (logged), and the new change is still recorded', async () => {
    const dir = makeTempDir();
    const storage = faultyStorage(dir);
    const logger = recordingLogger();
    let now = 0;
    const history = new History({ storage, logger, maxAgeDays: 1, clock: { now: () => now } });
    const old = await history.record(edit('a', '1', '2'));
    now = 2 * 24 * 60 * 60 * 1000;
    storage.faults.push({ call: 'remove', area: 'records', nth: 1, code: 'EACCES', sticky: true });
    const fresh = await history.record(edit('b', '3', '4'));
    assert.ok(fresh);
    assert.deepStrictEqual((await history.list()).map((r) => r.id), [fresh.id, old!.id]);
    assert.match(logger.warnings()[0].message, /could not remove old history/);
  });

  test('record() returns before any storage call: the caller is never held by history I/O', async () => {
    const storage = faultyStorage(makeTempDir());
    const history = new History({ storage });
    const pending = history.record(edit('a', '1', '2'));
    assert.deepStrictEqual(storage.calls, []);
    assert.ok(await pending);
    assert.ok(storage.calls.length > 0);
  });
});
