/**
 * Where inodes are unusable (reported as 0 by some network and virtual file systems), a file's identity is
 * its normalized path (SPEC section 1). The guard must then stay correct and fail safe: decisions are still
 * by content, and names it cannot prove to be one file are treated as different files.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { FileSystem } from '../../../src/core/index';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { nodeSyscalls, type Syscalls } from '../../../src/core/nodeFs/syscalls';
import { ok, put, refused } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';

/** The Node file system as seen on a file system whose every inode is 0 (faked at the system calls, so the port agrees with itself). */
function withoutInodes(): FileSystem {
  const inodeZero = (stats: fs.Stats): fs.Stats => Object.assign(Object.create(Object.getPrototypeOf(stats)), stats, { ino: 0 });
  const syscalls: Syscalls = {
    ...nodeSyscalls,
    lstatSync: (p) => inodeZero(nodeSyscalls.lstatSync(p)),
    statSync: (p) => inodeZero(nodeSyscalls.statSync(p)),
    fstatSync: (fd) => inodeZero(nodeSyscalls.fstatSync(fd)),
  };
  return createNodeFileSystem({ syscalls });
}

function setup() {
  const root = makeTempDir();
  const guard = createGuard({ roots: [root], fileSystem: withoutInodes() });
  return { root, guard, session: guard.session('s1') };
}

suite('file identity by path where inodes are 0', () => {
  test('a read authorizes edits, and the session keeps editing its own result', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'a.txt'), 'one\ntwo\n');
    ok(await session.read('a.txt'));
    ok(await session.edit('a.txt', [{ oldString: 'one', newString: 'ONE' }]));
    ok(await session.edit('a.txt', [{ oldString: 'two', newString: 'TWO' }]));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'ONE\nTWO\n');
  });

  test('two files never share an identity, so reading one does not unlock the other', async () => {
    const { root, session } = setup();
    put(path.join(root, 'a.txt'), 'a\n');
    put(path.join(root, 'b.txt'), 'b\n');
    ok(await session.read('a.txt'));
    refused(await session.edit('b.txt', [{ oldString: 'b', newString: 'B' }]), 'EDIT_REQUIRES_PRIOR_READ');
  });

  // rm + recreate cannot be told from a rewrite without inodes: content decides, so new bytes in seen lines
  // are refused with the diff, never overwritten as if unchanged.
  test('a file re-created with other content is refused with what changed, its content kept', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'a.txt'), 'one\ntwo\n');
    ok(await session.read('a.txt'));
    fs.rmSync(file);
    fs.writeFileSync(file, 'one\ntheirs\n');
    refused(await session.edit('a.txt', [{ oldString: 'two', newString: 'TWO' }]), 'FILE_CHANGED_SINCE_READ', '+theirs');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\ntheirs\n');
  });

  test('a symlink and its target are still one file (the guard keys by the resolved target)', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'a.txt'), 'one\n');
    fs.symlinkSync('a.txt', path.join(root, 'link.txt'));
    ok(await session.read('link.txt'));
    ok(await session.edit('a.txt', [{ oldString: 'one', newString: 'two' }]));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'two\n');
  });

  // Hard links cannot be recognized without inodes: each name is a file of its own (stricter, never looser).
  test('a hard link is another file: a read through one name does not authorize an edit through the other', async () => {
    const { root, session } = setup();
    put(path.join(root, 'a.txt'), 'one\n');
    fs.linkSync(path.join(root, 'a.txt'), path.join(root, 'b.txt'));
    ok(await session.read('a.txt'));
    // Hard-linked files are never changed (issue: the write path keeps every byte), whichever name is used.
    refused(await session.edit('b.txt', [{ oldString: 'one', newString: 'two' }]), 'WRITE_FAILED', 'hard links');
    refused(await session.edit('a.txt', [{ oldString: 'one', newString: 'two' }]), 'WRITE_FAILED', 'hard links');
    assert.strictEqual(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'one\n');
  });
});
