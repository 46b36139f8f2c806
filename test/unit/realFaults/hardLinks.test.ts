/**
 * A file with more than one hard link: edit and write are WRITE_FAILED naming the hard link. Rewriting it in
 * place cannot be atomic (a crash or ENOSPC midway leaves every name truncated), and temp + rename would split
 * the names apart; so the guard refuses, and both names keep their bytes and stay one inode.
 *
 * (This replaces the earlier "rewrite in place so every name sees it" behaviour tested in
 * guard/fileSystemEdges.test.ts.)
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { GuardSession, MutationResult } from '../../../src/core/index';
import { ok, put } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';
import { assertFailedCleanly, snapshotTree } from '../helpers/treeSnapshot';

function setup() {
  const root = makeTempDir('readgate-links-');
  const first = put(path.join(root, 'first.txt'), 'one\ntwo\nthree\n');
  const second = path.join(root, 'second.txt');
  fs.linkSync(first, second);
  return { root, first, second, session: createGuard({ roots: [root] }).session('links') };
}

async function check(call: (session: GuardSession) => Promise<MutationResult>, what: string): Promise<void> {
  const { root, first, second, session } = setup();
  const inode = fs.statSync(first).ino;
  ok(await session.read('first.txt'));
  const before = snapshotTree(root);
  const result = await call(session);
  assertFailedCleanly(result, root, before, what, 'hard link');
  assert.strictEqual(fs.statSync(first).ino, inode, 'first.txt is no longer the same inode');
  assert.strictEqual(fs.statSync(second).ino, inode, 'second.txt is no longer the same inode as first.txt');
  assert.strictEqual(fs.statSync(first).nlink, 2);
}

suite('real faults: a file with two hard links', () => {
  test('an edit through one name is WRITE_FAILED (hard link); both names keep their bytes and one inode', async () => {
    await check((session) => session.edit('first.txt', [{ oldString: 'two', newString: 'TWO' }]), 'an edit of a hard-linked file');
  });

  test('an edit through the other name is WRITE_FAILED (hard link); both names keep their bytes and one inode', async () => {
    await check((session) => session.edit('second.txt', [{ oldString: 'two', newString: 'TWO' }]), 'an edit of a hard-linked file through its second name');
  });

  test('a write is WRITE_FAILED (hard link); both names keep their bytes and one inode', async () => {
    await check((session) => session.write('first.txt', 'replaced\n'), 'a write of a hard-linked file');
  });
});
