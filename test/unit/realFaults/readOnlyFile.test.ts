/**
 * A file with no write bit at all (mode 0444) is read-only to the guard, even for root (whom the kernel would
 * let write it, and whose atomic rename would not even look at the file's mode): edit and write are
 * WRITE_FAILED naming it read-only, and the file keeps its bytes and its mode.
 */
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import { ok, put } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';
import { assertFailedCleanly, snapshotTree } from '../helpers/treeSnapshot';

function setup() {
  const root = makeTempDir('readgate-ro-');
  const file = put(path.join(root, 'frozen.txt'), 'one\ntwo\nthree\n');
  fs.chmodSync(file, 0o444);
  return { root, file, session: createGuard({ roots: [root] }).session('readonly') };
}

suite('real faults: a read-only file (mode 0444)', () => {
  test('an edit is WRITE_FAILED (read-only); bytes and mode unchanged', async () => {
    const { root, session } = setup();
    ok(await session.read('frozen.txt'));
    const before = snapshotTree(root);
    const result = await session.edit('frozen.txt', [{ oldString: 'two', newString: 'TWO' }]);
    assertFailedCleanly(result, root, before, `an edit of a 0444 file (running as uid ${process.getuid?.()})`, 'read-only');
  });

  test('a write is WRITE_FAILED (read-only); bytes and mode unchanged', async () => {
    const { root, session } = setup();
    ok(await session.read('frozen.txt'));
    const before = snapshotTree(root);
    const result = await session.write('frozen.txt', 'replaced\n');
    assertFailedCleanly(result, root, before, `a write of a 0444 file (running as uid ${process.getuid?.()})`, 'read-only');
  });
});
