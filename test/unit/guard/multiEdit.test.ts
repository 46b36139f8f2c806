/**
 * multiEdit end to end on real directories: one approval for every file, all files or none (refusals before
 * writing, and a write failing mid-way restores what was already written), and one path named twice.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { ApprovalDecision, ApprovalRequest, FileSystem, GuardOptions, MutationResult } from '../../../src/core/index';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { makeTempDir } from '../helpers/tempDir';
import { put, refused, ok } from '../helpers/results';
import { lockDirectory } from '../helpers/lockDirectory';


function setup(approve?: (request: ApprovalRequest) => Promise<ApprovalDecision>, options: Partial<GuardOptions> = {}) {
  const root = makeTempDir();
  const requests: ApprovalRequest[] = [];
  const guard = createGuard({
    roots: [root],
    approve: async (request) => {
      requests.push(request);
      return approve ? approve(request) : { approved: true };
    },
    ...options,
  });
  return { root, guard, requests, session: guard.session('s1') };
}

suite('guard multiEdit', () => {
  test('edits two files with one approval request that lists both, and writes both', async () => {
    const { root, requests, session } = setup();
    const a = put(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
    const b = put(path.join(root, 'lib', 'b.ts'), 'export const b = 2;\n');
    ok(await session.read('src/a.ts'));
    ok(await session.read('lib/b.ts'));
    const result = ok(
      await session.multiEdit(
        [
          { path: 'src/a.ts', edits: [{ oldString: 'a = 1', newString: 'a = 10' }] },
          { path: 'lib/b.ts', edits: [{ oldString: 'b = 2', newString: 'b = 20' }] },
        ],
        { explanation: 'scale constants' },
      ),
    );
    assert.strictEqual(requests.length, 1);
    assert.strictEqual(requests[0].operation, 'multiEdit');
    assert.strictEqual(requests[0].explanation, 'scale constants');
    assert.deepStrictEqual(requests[0].files.map((f) => f.path), [a, b]);
    assert.deepStrictEqual(result.files.map((f) => f.path), [a, b]);
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'export const a = 10;\n');
    assert.strictEqual(fs.readFileSync(b, 'utf8'), 'export const b = 20;\n');
  });

  test('an unread file among the changes refuses the whole call: no file is written and no approval asked', async () => {
    const { root, requests, session } = setup();
    const a = put(path.join(root, 'a.txt'), 'one\n');
    const b = put(path.join(root, 'b.txt'), 'two\n');
    ok(await session.read('a.txt'));
    const message = refused(
      await session.multiEdit([
        { path: 'a.txt', edits: [{ oldString: 'one', newString: 'ONE' }] },
        { path: 'b.txt', edits: [{ oldString: 'two', newString: 'TWO' }] },
      ]),
      'EDIT_REQUIRES_PRIOR_READ',
    );
    assert.ok(/no file was changed/i.test(message), message);
    assert.strictEqual(requests.length, 0);
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'one\n');
    assert.strictEqual(fs.readFileSync(b, 'utf8'), 'two\n');
  });

  test('an edit that matches nothing in a later file refuses the whole call, including a file it would create', async () => {
    const { root, requests, session } = setup();
    const a = put(path.join(root, 'a.txt'), 'one\n');
    const b = put(path.join(root, 'b.txt'), 'two\n');
    ok(await session.read('a.txt'));
    ok(await session.read('b.txt'));
    const message = refused(
      await session.multiEdit([
        { path: 'a.txt', edits: [{ oldString: 'one', newString: 'ONE' }] },
        { path: 'new/c.txt', edits: [{ oldString: '', newString: 'three\n' }] },
        { path: 'b.txt', edits: [{ oldString: 'not there', newString: 'TWO' }] },
      ]),
      'NO_OCCURRENCE_FOUND',
    );
    assert.ok(/no file was changed/i.test(message), message);
    assert.strictEqual(requests.length, 0);
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'one\n');
    assert.strictEqual(fs.readFileSync(b, 'utf8'), 'two\n');
    assert.ok(!fs.existsSync(path.join(root, 'new')));
  });

  test('a denied path among the changes refuses the whole call', async () => {
    const { root, requests, session } = setup(undefined, { deny: ['**/.env*'] });
    const a = put(path.join(root, 'a.txt'), 'one\n');
    put(path.join(root, '.env'), 'A=1\n');
    ok(await session.read('a.txt'));
    refused(
      await session.multiEdit([
        { path: 'a.txt', edits: [{ oldString: 'one', newString: 'ONE' }] },
        { path: '.env', edits: [{ oldString: 'A=1', newString: 'A=2' }] },
      ]),
      'PATH_DENIED',
    );
    assert.strictEqual(requests.length, 0);
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'one\n');
  });

  test('when a later file fails to write, the files already written are restored byte for byte and the call is WRITE_FAILED', async function () {
    const probeDir = makeTempDir();
    const probe = lockDirectory(probeDir);
    if (!probe) this.skip();
    probe!();

    let unlock: (() => void) | undefined;
    let secondDir = '';
    const { root, session } = setup(async () => {
      unlock = lockDirectory(secondDir);
      return { approved: true };
    });
    secondDir = path.join(root, 'second');
    const firstBytes = Buffer.from('first\r\nfile\r\n\u00e9t\u00e9\r\n');
    const first = path.join(root, 'first', 'a.txt');
    fs.mkdirSync(path.dirname(first), { recursive: true });
    fs.writeFileSync(first, firstBytes);
    fs.chmodSync(first, 0o640);
    const second = put(path.join(secondDir, 'b.txt'), 'second\n');
    ok(await session.read('first/a.txt'));
    ok(await session.read('second/b.txt'));

    let result: MutationResult;
    try {
      result = await session.multiEdit([
        { path: 'first/a.txt', edits: [{ oldString: 'file', newString: 'FILE' }] },
        { path: 'second/b.txt', edits: [{ oldString: 'second', newString: 'SECOND' }] },
      ]);
    } finally {
      unlock?.();
    }
    assert.ok(unlock, 'the approve callback could not lock the second directory');
    // Leaving the first file edited would break "all files or none".
    refused(result, 'WRITE_FAILED', 'restored');
    assert.deepStrictEqual(fs.readFileSync(first), firstBytes);
    assert.strictEqual((fs.statSync(first).mode & 0o777).toString(8), '640');
    assert.strictEqual(fs.readFileSync(second, 'utf8'), 'second\n');
    assert.deepStrictEqual(fs.readdirSync(path.dirname(first)), ['a.txt']);
    assert.deepStrictEqual(fs.readdirSync(secondDir), ['b.txt']);
  });

  test('when a later file fails to write, a file created earlier in the call is removed again', async function () {
    const probeDir = makeTempDir();
    const probe = lockDirectory(probeDir);
    if (!probe) this.skip();
    probe!();

    let unlock: (() => void) | undefined;
    let lockedDir = '';
    const { root, session } = setup(async () => {
      unlock = lockDirectory(lockedDir);
      return { approved: true };
    });
    lockedDir = path.join(root, 'locked');
    const existing = put(path.join(lockedDir, 'b.txt'), 'b\n');
    ok(await session.read('locked/b.txt'));
    let result: MutationResult;
    try {
      result = await session.multiEdit([
        { path: 'made/c.txt', edits: [{ oldString: '', newString: 'c\n' }] },
        { path: 'locked/b.txt', edits: [{ oldString: 'b', newString: 'B' }] },
      ]);
    } finally {
      unlock?.();
    }
    refused(result, 'WRITE_FAILED');
    assert.ok(!fs.existsSync(path.join(root, 'made', 'c.txt')), 'the created file was left behind');
    assert.strictEqual(fs.readFileSync(existing, 'utf8'), 'b\n');
  });

  test('the same path listed twice merges its edits in order into one file change', async () => {
    const { root, requests, session } = setup();
    const file = put(path.join(root, 'a.txt'), 'one\ntwo\n');
    ok(await session.read('a.txt'));
    const result = ok(
      await session.multiEdit([
        { path: 'a.txt', edits: [{ oldString: 'one', newString: 'uno' }] },
        // Runs against the first change's result: "uno" exists only after it.
        { path: 'a.txt', edits: [{ oldString: 'uno', newString: 'eins' }] },
      ]),
    );
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'eins\ntwo\n');
    assert.strictEqual(requests.length, 1);
    assert.strictEqual(requests[0].files.length, 1);
    assert.strictEqual(requests[0].files[0].after, 'eins\ntwo\n');
    assert.strictEqual(result.files.length, 1);
  });

  test('one file named through its real name and a symlink is one file change, edits merged in order', async () => {
    const { root, requests, session } = setup();
    const file = put(path.join(root, 'a.txt'), 'one\ntwo\n');
    fs.symlinkSync('a.txt', path.join(root, 'alias.txt'));
    ok(await session.read('a.txt'));
    // Two plans for one target would have the second write overwrite the first.
    ok(
      await session.multiEdit([
        { path: 'a.txt', edits: [{ oldString: 'one', newString: 'ONE' }] },
        { path: 'alias.txt', edits: [{ oldString: 'two', newString: 'TWO' }] },
      ]),
    );
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'ONE\nTWO\n');
    assert.strictEqual(requests[0].files.length, 1);
    assert.ok(fs.lstatSync(path.join(root, 'alias.txt')).isSymbolicLink());
  });
});

suite('guard multiEdit through a batch-writing port', () => {
  function batchFixture(fail: boolean) {
    const real = createNodeFileSystem();
    const batches: string[][] = [];
    const fileSystem: FileSystem = {
      ...real,
      async writeBatch(writes) {
        batches.push(writes.map((w) => w.path));
        if (fail) throw Object.assign(new Error('the editor refused the edit'), { code: 'EDITOR_EDIT_REFUSED' });
        for (const write of writes) await real.writeFile(write.path, write.data, write.options);
      },
    };
    const root = makeTempDir();
    const guard = createGuard({ roots: [root], fileSystem });
    return { root, batches, session: guard.session('batch') };
  }

  // An editor applies a batch as one undo step; the guard must hand it every file at once.
  test('writes all files of a multiEdit in one batch when the port offers it', async () => {
    const { root, batches, session } = batchFixture(false);
    const a = put(path.join(root, 'a.txt'), 'alpha\n');
    const b = put(path.join(root, 'b.txt'), 'beta\n');
    await session.read(a);
    await session.read(b);
    ok(await session.multiEdit([{ path: a, edits: [{ oldString: 'alpha', newString: 'A' }] }, { path: b, edits: [{ oldString: 'beta', newString: 'B' }] }]));
    assert.deepStrictEqual(batches, [[a, b]]);
    assert.deepStrictEqual([fs.readFileSync(a, 'utf8'), fs.readFileSync(b, 'utf8')], ['A\n', 'B\n']);
  });

  test('a failed batch is WRITE_FAILED and says no file was changed', async () => {
    const { root, session } = batchFixture(true);
    const a = put(path.join(root, 'a.txt'), 'alpha\n');
    const b = put(path.join(root, 'b.txt'), 'beta\n');
    await session.read(a);
    await session.read(b);
    refused(await session.multiEdit([{ path: a, edits: [{ oldString: 'alpha', newString: 'A' }] }, { path: b, edits: [{ oldString: 'beta', newString: 'B' }] }]), 'WRITE_FAILED', 'No file was changed');
    assert.deepStrictEqual([fs.readFileSync(a, 'utf8'), fs.readFileSync(b, 'utf8')], ['alpha\n', 'beta\n']);
  });
});
