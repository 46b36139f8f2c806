import * as assert from 'assert';
import { identityOf } from '../../../src/core/version/fileIdentity';

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
});
