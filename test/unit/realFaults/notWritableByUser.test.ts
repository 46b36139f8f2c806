/**
 * A file the calling user may not write: the guard runs in a child process as `nobody` (65534:65534) on a
 * root-owned 0644 file in a world-writable 0777 directory, where temp + rename would succeed and silently hand
 * the file to nobody. The edit must be WRITE_FAILED naming the file as not writable by this user, and the file
 * must keep its bytes, mode and root ownership. Needs root (to run a child as another user).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { MutationResult, ReadResult } from '../../../src/core/index';
import { childProgram, coreBundle, readableBy, startChild } from '../helpers/childGuard';
import { needsRoot } from '../helpers/needsRoot';
import { put } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';
import { assertFailedCleanly, snapshotTree } from '../helpers/treeSnapshot';

const nobody = { uid: 65534, gid: 65534 };

suite('real faults: a file this user may not write', () => {
  test('a guard running as nobody editing a root-owned 0644 file in a 0777 folder is WRITE_FAILED (not writable by this user)', async function () {
    this.timeout(60_000);
    needsRoot('a guard running as another user (nobody) on a file it may not write');
    const root = makeTempDir('readgate-notmine-');
    fs.chmodSync(root, 0o777);
    const file = put(path.join(root, 'roots.txt'), 'one\ntwo\n');
    fs.chownSync(file, 0, 0);
    fs.chmodSync(file, 0o644);
    const before = snapshotTree(root);

    const { paths: [core, program], copied } = readableBy(nobody, [coreBundle(), childProgram('guardCalls')]);
    const spec = { roots: [root], calls: [{ op: 'read', path: 'roots.txt' }, { op: 'edit', path: 'roots.txt', edits: [{ oldString: 'two', newString: 'TWO' }] }] };
    const child = startChild(program, { args: [core, JSON.stringify(spec)], as: nobody, cwd: root });
    const done = await child.finished(30_000);
    assert.ok(!done.hung, `hung: the guard child running as nobody did not finish within 30 s\n${done.stderr}`);
    assert.strictEqual(done.code, 0, `the guard child failed (bundle ${copied ? 'copied to a readable place' : 'read in place'}):\n${done.stderr}`);
    const [read, edit] = done.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line).result as ReadResult | MutationResult);
    assert.ok(read?.ok, `premise: nobody can read the 0644 file: ${JSON.stringify(read)}`);
    assertFailedCleanly(edit as MutationResult, root, before, 'an edit by nobody of a root-owned 0644 file', 'not writable by this user');
    assert.strictEqual(fs.statSync(file).uid, 0, 'the file is no longer owned by root');
  });
});
