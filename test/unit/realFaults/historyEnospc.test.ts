/**
 * The history on a real full disk: a 64 KB tmpfs, so the kernel itself refuses the writes (ENOSPC). A change
 * that does not fit is dropped: `record` resolves undefined and never rejects, the warning names ENOSPC, no
 * version or temp file of it is left, and the records stored before are intact and readable. Once there is room
 * again, the next change is recorded. Needs root (mount).
 */
import * as assert from 'assert';
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { createHistory } from '../../../src/core/index';
import type { RecordInput } from '../../../src/core/index';
import { recordingLogger } from '../helpers/recordingLogger';
import { type TinyTmpfs, mountTinyTmpfs } from '../helpers/tinyTmpfs';

const KB = 1024;

/** Every file under `dir` with its size. */
function snapshot(dir: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true }).map(String)) {
    const full = path.join(dir, entry);
    if (fs.statSync(full).isFile()) out[entry] = fs.statSync(full).size;
  }
  return out;
}

const create = (name: string, content: Uint8Array): RecordInput => ({
  sessionId: 's',
  label: 'test',
  surface: 'api',
  tool: 'readgate_write',
  approvedBy: 'approver',
  files: [{ path: name, kind: 'create', before: null, after: content }],
});

suite('real faults: the history on a full disk (64 KB tmpfs)', () => {
  let mount: TinyTmpfs | undefined;

  teardown(() => {
    mount?.unmount();
    mount = undefined;
  });

  test('a change too big for the disk is dropped with ENOSPC, leaving no part of it; the older record stays readable', async () => {
    mount = mountTinyTmpfs('64k', 'history writes that run out of space on a real file system');
    const dir = path.join(mount.dir, 'history');
    const logger = recordingLogger();
    const history = createHistory({ dir, logger });
    const small = await history.record(create('small', new Uint8Array(Buffer.from('fits\n'))));
    assert.ok(small, 'premise: a small change fits');
    const before = snapshot(mount.dir);

    // Incompressible, so gzip cannot make it fit: the first version fits, the second does not.
    const edit: RecordInput = { ...create('big', new Uint8Array()), files: [{ path: 'big', kind: 'edit', before: new Uint8Array(randomBytes(40 * KB)), after: new Uint8Array(randomBytes(40 * KB)) }] };
    assert.strictEqual(await history.record(edit), undefined);
    assert.deepStrictEqual(snapshot(mount.dir), before, 'no version, record or temp file of the dropped change is left');
    assert.deepStrictEqual(logger.warnings().map((line) => [line.message, line.data?.code]), [['[history] change not recorded', 'ENOSPC']]);
    assert.deepStrictEqual(await history.list(), [small]);
    assert.deepStrictEqual(await history.versionBytes(small.files[0].after!), new Uint8Array(Buffer.from('fits\n')));

    const next = await history.record(create('next', new Uint8Array(Buffer.from('room again\n'))));
    assert.ok(next, 'the next change that fits is recorded');
    assert.strictEqual((await createHistory({ dir }).list()).length, 2, 'and both survive a reload');
  });

  test('a disk full to the last block drops the next change and leaves nothing of it; freed space records again', async () => {
    mount = mountTinyTmpfs('64k', 'history writes that run out of space on a real file system');
    const dir = path.join(mount.dir, 'history');
    const history = createHistory({ dir, logger: recordingLogger() });
    assert.ok(await history.record(create('first', new Uint8Array(Buffer.from('x')))), 'premise: the folders exist');
    // Fill the disk with someone else's file, leaving less than a block.
    const filler = path.join(mount.dir, 'filler');
    const fd = fs.openSync(filler, 'w');
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(KB));
    } catch (error) {
      assert.strictEqual((error as NodeJS.ErrnoException).code, 'ENOSPC');
    } finally {
      fs.closeSync(fd);
    }
    const before = snapshot(mount.dir);
    assert.strictEqual(await history.record(create('second', new Uint8Array(Buffer.from('y')))), undefined);
    assert.deepStrictEqual(snapshot(mount.dir), before);
    fs.rmSync(filler);
    assert.ok(await history.record(create('third', new Uint8Array(Buffer.from('z')))));
  });
});
