/**
 * Out of space for real: a 512 KB tmpfs holding a ~300 KB file, so the kernel itself refuses (or shortens)
 * the writes. Every write, edit, create and multiEdit that cannot fit must be WRITE_FAILED with nothing
 * changed: originals byte-identical with their modes, no temp file, no created file, no created folder.
 * A single write() that the kernel cuts short is a failure too, not a smaller file. Needs root (mount).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { GuardSession } from '../../../src/core/index';
import { ok } from '../helpers/results';
import { type TinyTmpfs, mountTinyTmpfs } from '../helpers/tinyTmpfs';
import { assertFailedCleanly, snapshotTree } from '../helpers/treeSnapshot';

const KB = 1024;
/** Numbered lines of exactly 64 bytes, so every line is unique and an edit can name any of them. */
const block = (tag: string, bytes: number): string =>
  Array.from({ length: Math.ceil(bytes / 64) }, (_, i) => `${tag} ${String(i + 1).padStart(6, '0')} `.padEnd(63, '.') + '\n').join('');

suite('real faults: ENOSPC on a tiny tmpfs', () => {
  let fsMount: TinyTmpfs | undefined;
  let root = '';
  let session: GuardSession;
  const original = block('orig', 300 * KB);

  /** Mounts the tmpfs and fills it; called by each test (not a setup hook), so without root each test fails on its own. */
  function mountAndFill(): void {
    fsMount = mountTinyTmpfs('512k', 'writes that run out of space on a real file system');
    root = fsMount.dir;
    fs.writeFileSync(path.join(root, 'big.txt'), original);
    fs.chmodSync(path.join(root, 'big.txt'), 0o640);
    fs.writeFileSync(path.join(root, 'small.txt'), 'alpha\nbeta\n');
    fs.mkdirSync(path.join(root, 'keep'));
    const big = 16 * 1024 * 1024;
    session = createGuard({ roots: [root], limits: { maxLines: 1_000_000, maxBytes: big, maxFileBytes: big } }).session('enospc');
  }

  teardown(() => {
    fsMount?.unmount();
    fsMount = undefined;
  });

  /** Test premise: `bytes` more do not fit beside what is there. */
  function assertWillNotFit(bytes: number): void {
    const free = fs.statfsSync(root);
    assert.ok(free.bavail * free.bsize < bytes, `premise: ${bytes} bytes should not fit, but ${free.bavail * free.bsize} are free`);
  }

  test('a write of ~710 KB over the 300 KB file is WRITE_FAILED, nothing changed', async () => {
    mountAndFill();
    ok(await session.read('big.txt'));
    const before = snapshotTree(root);
    const content = block('new', 710 * KB);
    assertWillNotFit(content.length);
    assertFailedCleanly(await session.write('big.txt', content), root, before, 'a write that ran out of space');
  });

  test('an edit that grows the file past the free space is WRITE_FAILED, nothing changed', async () => {
    mountAndFill();
    ok(await session.read('big.txt'));
    const before = snapshotTree(root);
    const line = original.split('\n')[2000];
    const grown = original.length + 250 * KB;
    assertWillNotFit(grown);
    const result = await session.edit('big.txt', [{ oldString: line, newString: block('grow', 250 * KB).slice(0, -1) }]);
    assertFailedCleanly(result, root, before, 'an edit that ran out of space');
  });

  test('a create (write of a new ~710 KB file) is WRITE_FAILED and leaves no file', async () => {
    mountAndFill();
    const before = snapshotTree(root);
    const content = block('new', 710 * KB);
    assertWillNotFit(content.length);
    assertFailedCleanly(await session.write('keep/new.txt', content), root, before, 'a create that ran out of space');
  });

  test('an edit with oldString "" creating a file under new folders is WRITE_FAILED and leaves no file and no folder', async () => {
    mountAndFill();
    const before = snapshotTree(root);
    const content = block('new', 710 * KB);
    assertWillNotFit(content.length);
    const result = await session.edit('made/deep/new.txt', [{ oldString: '', newString: content }]);
    assertFailedCleanly(result, root, before, 'a create under new folders that ran out of space');
  });

  test('a multiEdit whose second file runs out of space is WRITE_FAILED and restores the first', async () => {
    mountAndFill();
    ok(await session.read('small.txt'));
    ok(await session.read('big.txt'));
    const before = snapshotTree(root);
    const line = original.split('\n')[10];
    assertWillNotFit(original.length + 250 * KB);
    const result = await session.multiEdit([
      { path: 'small.txt', edits: [{ oldString: 'beta', newString: 'BETA' }] },
      { path: 'big.txt', edits: [{ oldString: line, newString: block('grow', 250 * KB).slice(0, -1) }] },
    ]);
    assertFailedCleanly(result, root, before, 'a multiEdit whose second file ran out of space');
  });
});
