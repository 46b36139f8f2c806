/**
 * Owner and group survive an edit: a root-run guard editing a file owned by 65534:65534 (mode 0640) must leave
 * it owned by 65534:65534 with mode 0640, not hand it to root (a temp file made by root and renamed over the
 * original would). Needs root (chown).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import { ok, put } from '../helpers/results';
import { needsRoot } from '../helpers/needsRoot';
import { makeTempDir } from '../helpers/tempDir';

const NOBODY = 65534;

suite('real faults: owner and group are kept', () => {
  for (const operation of ['edit', 'write'] as const) {
    test(`as root, ${operation === 'edit' ? 'an edit' : 'a write'} of a file owned by ${NOBODY}:${NOBODY} (0640) keeps its owner, group and mode`, async () => {
      needsRoot('that an edit keeps a file owned by another user with that owner');
      const root = makeTempDir('readgate-owner-');
      const file = put(path.join(root, 'theirs.txt'), 'one\ntwo\n');
      fs.chownSync(file, NOBODY, NOBODY);
      fs.chmodSync(file, 0o640);
      const session = createGuard({ roots: [root] }).session('owner');
      ok(await session.read('theirs.txt'));
      if (operation === 'edit') ok(await session.edit('theirs.txt', [{ oldString: 'two', newString: 'TWO' }]));
      else ok(await session.write('theirs.txt', 'one\nTWO\n'));
      assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\nTWO\n');
      const stat = fs.statSync(file);
      assert.deepStrictEqual(
        { uid: stat.uid, gid: stat.gid, mode: (stat.mode & 0o7777).toString(8) },
        { uid: NOBODY, gid: NOBODY, mode: '640' },
        `the ${operation} changed the file's owner, group or mode`,
      );
      assert.deepStrictEqual(fs.readdirSync(root), ['theirs.txt']);
    });
  }
});
