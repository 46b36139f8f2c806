import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { identityOf, survivesInodeReuse } from '../../../src/core/version/fileIdentity';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { makeTempDir } from '../helpers/tempDir';

suite('file identity', () => {
  test('keys local files by device and inode', () => {
    assert.strictEqual(identityOf(2049, 1234, '/r/a.txt'), 'ino:2049:1234');
    assert.strictEqual(identityOf(2049n, 1234n, '/r/a.txt'), 'ino:2049:1234');
  });

  // Some network and virtual file systems report inode 0 for every file: keying by it would make every file
  // on them one file, so a read of one would authorize edits of all others.
  test('falls back to the normalized path where the inode is 0', () => {
    assert.strictEqual(identityOf(2049, 0, '/r/a.txt'), 'path:/r/a.txt');
    assert.strictEqual(identityOf(2049n, 0n, '/r/a.txt'), 'path:/r/a.txt');
    assert.notStrictEqual(identityOf(7, 0, '/r/a.txt'), identityOf(7, 0, '/r/b.txt'));
  });

  test('a birth time tells a file from a stranger on its freed inode; a rename keeps it', async () => {
    assert.strictEqual(identityOf(2049, 1234, '/r/a.txt', 1795468566970.1626), 'ino:2049:1234:1795468566970.1626');
    assert.strictEqual(survivesInodeReuse('ino:2049:1234:1795468566970.1626'), true);
    assert.strictEqual(survivesInodeReuse('ino:2049:1234'), false);
    assert.strictEqual(survivesInodeReuse('path:/r/a.txt'), true);

    const dir = makeTempDir();
    const fsPort = createNodeFileSystem();
    const a = path.join(dir, 'a.txt');
    fs.writeFileSync(a, 'x');
    const first = (await fsPort.stat(a))!.identity;
    const renamed = path.join(dir, 'renamed.txt');
    fs.renameSync(a, renamed);
    assert.strictEqual((await fsPort.stat(renamed))!.identity, first, 'a rename changed the identity');
    const inode = fs.statSync(renamed).ino;
    fs.rmSync(renamed);
    const b = path.join(dir, 'b.txt');
    fs.writeFileSync(b, 'x');
    assert.strictEqual(fs.statSync(b).ino, inode, 'test premise: the new file landed on the freed inode');
    assert.notStrictEqual((await fsPort.stat(b))!.identity, first, 'a stranger on a reused inode got the old identity');
  });
});
