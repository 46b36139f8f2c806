/**
 * Write failures through a fault-injecting FileSystem port (never skipped, unlike the directory-locking tests):
 * a failed call leaves every file byte for byte as it was and removes the directories it made.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { FileSystem } from '../../../src/core/index';
import { faultyWrites } from '../helpers/faultyFileSystem';
import { ok, put, refused } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';

function setup(fileSystem: FileSystem) {
  const root = makeTempDir();
  const guard = createGuard({ roots: [root], fileSystem });
  return { root, session: guard.session('faults') };
}

suite('write failures: single files', () => {
  test('an edit whose write fails is WRITE_FAILED and leaves the file byte for byte as it was', async () => {
    const { fileSystem, writes } = faultyWrites((p) => p.endsWith('a.txt'));
    const { root, session } = setup(fileSystem);
    const bytes = Buffer.from('one\r\ntwo\r\n\u00e9\r\n');
    const file = put(path.join(root, 'a.txt'), bytes);
    ok(await session.read('a.txt'));
    refused(await session.edit('a.txt', [{ oldString: 'two', newString: 'TWO' }]), 'WRITE_FAILED', 'ENOSPC', 'left exactly as it was');
    assert.deepStrictEqual(writes, [file]);
    assert.deepStrictEqual(fs.readFileSync(file), bytes);
    assert.deepStrictEqual(fs.readdirSync(root), ['a.txt']);
    // Nothing was recorded as written: the failed proposal is not what the session has seen.
    refused(await session.edit('a.txt', [{ oldString: 'TWO', newString: 'x' }]), 'NO_OCCURRENCE_FOUND');
  });

  // Audit: a failed create left the directories it had made for the file.
  test('a create whose write fails removes the directories it made', async () => {
    const { fileSystem } = faultyWrites(() => true);
    const { root, session } = setup(fileSystem);
    put(path.join(root, 'keep', 'old.txt'), 'old\n');
    refused(await session.write('keep/x/y/new.txt', 'hello\n'), 'WRITE_FAILED');
    refused(await session.edit('new/deep/c.txt', [{ oldString: '', newString: 'c\n' }]), 'WRITE_FAILED');
    assert.deepStrictEqual(fs.readdirSync(root), ['keep']);
    assert.deepStrictEqual(fs.readdirSync(path.join(root, 'keep')), ['old.txt']);
  });

  test('a directory someone else put a file in meanwhile is kept when a create fails', async () => {
    let root = '';
    const { fileSystem } = faultyWrites(
      () => true,
      'EIO',
      () => fs.writeFileSync(path.join(root, 'x', 'theirs.txt'), 'theirs\n'),
    );
    const made = setup(fileSystem);
    root = made.root;
    refused(await made.session.write('x/y/new.txt', 'hello\n'), 'WRITE_FAILED');
    assert.deepStrictEqual(fs.readdirSync(path.join(root, 'x')), ['theirs.txt']);
  });
});

suite('write failures: multiEdit all or none', () => {
  // Audit: "No file was changed" was reported while new/deep/ stayed behind.
  test('a multiEdit failing on its last file restores the earlier files and removes the file and directories it created', async () => {
    const { fileSystem, writes } = faultyWrites((p, n) => p.endsWith('b.txt') && n === 0);
    const { root, session } = setup(fileSystem);
    const aBytes = Buffer.from('first\r\nfile\r\n');
    const a = put(path.join(root, 'a.txt'), aBytes);
    fs.chmodSync(a, 0o640);
    const b = put(path.join(root, 'b.txt'), 'second\n');
    ok(await session.read('a.txt'));
    ok(await session.read('b.txt'));
    const message = refused(
      await session.multiEdit([
        { path: 'a.txt', edits: [{ oldString: 'file', newString: 'FILE' }] },
        { path: 'new/deep/c.txt', edits: [{ oldString: '', newString: 'three\n' }] },
        { path: 'b.txt', edits: [{ oldString: 'second', newString: 'SECOND' }] },
      ]),
      'WRITE_FAILED',
      'No file was changed',
      'restored',
    );
    assert.ok(!/except/.test(message), message);
    assert.deepStrictEqual(writes.slice(0, 3), [a, path.join(root, 'new', 'deep', 'c.txt'), b]);
    assert.deepStrictEqual(fs.readFileSync(a), aBytes);
    assert.strictEqual((fs.statSync(a).mode & 0o777).toString(8), '640');
    assert.strictEqual(fs.readFileSync(b, 'utf8'), 'second\n');
    assert.deepStrictEqual(fs.readdirSync(root).sort(), ['a.txt', 'b.txt']);
  });

  test('a failed batch write removes the directories made for its created files', async () => {
    const real = faultyWrites(() => false).fileSystem;
    const fileSystem: FileSystem = {
      ...real,
      async writeBatch() {
        throw Object.assign(new Error('the editor refused the edit'), { code: 'EDITOR_EDIT_REFUSED' });
      },
    };
    const { root, session } = setup(fileSystem);
    const a = put(path.join(root, 'a.txt'), 'alpha\n');
    ok(await session.read('a.txt'));
    refused(
      await session.multiEdit([
        { path: 'a.txt', edits: [{ oldString: 'alpha', newString: 'A' }] },
        { path: 'made/here/c.txt', edits: [{ oldString: '', newString: 'c\n' }] },
      ]),
      'WRITE_FAILED',
      'No file was changed',
    );
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'alpha\n');
    assert.deepStrictEqual(fs.readdirSync(root), ['a.txt']);
  });
});
