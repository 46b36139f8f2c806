/**
 * Named regressions of the write-path issue ("the write path keeps every byte"), each reproduced in-process on
 * real temp files, with competitors placed at an exact system call through the fault-injecting port.
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { FileStat, FileSystem } from '../../../src/core/index';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { KeyedLock } from '../../../src/core/lock';
import { runLocked } from '../../../src/core/mutate/fileLocks';
import type { GuardContext } from '../../../src/core/context/guardContext';
import { controlledFileSystem } from '../helpers/faultySyscalls';
import { ok, put, refused } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';
import { isTemp } from '../helpers/tree';

function setup() {
  const root = makeTempDir('readgate-regress-');
  const control = controlledFileSystem();
  const guard = createGuard({ roots: [root], fileSystem: control.fileSystem });
  return { root, control, guard, session: guard.session('s') };
}

suite('write path regressions', () => {
  // Item 4: an append landing after the last content check went to the old inode and was lost with it.
  test('an append that lands between the final check and the rename is put back, and the edit is refused', async () => {
    const { root, control, session } = setup();
    const file = put(path.join(root, 'log.txt'), 'first\nsecond\n');
    ok(await session.read('log.txt'));
    let raced = false;
    control.arm((call) => (call.name === 'renameSync' && call.path && isTemp(call.path) && !raced ? { kind: 'race', run: () => ((raced = true), fs.appendFileSync(file, 'appended\n')) } : undefined));
    const message = refused(await session.edit('log.txt', [{ oldString: 'first', newString: 'FIRST' }]), 'FILE_CHANGED_SINCE_READ', 'at the very instant', 'theirs was kept');
    control.disarm();
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'first\nsecond\nappended\n', message);
    assert.deepStrictEqual(fs.readdirSync(root), ['log.txt']);
  });

  // Item 5: multiEdit wrote a.txt, then found b.txt changed and rolled a.txt back.
  test('a multiEdit checks every file before writing the first: a file changed during approval means nothing is written at all', async () => {
    const root = makeTempDir('readgate-regress-');
    const a = put(path.join(root, 'a.txt'), 'alpha\n');
    const b = put(path.join(root, 'b.txt'), 'beta\n');
    const renames: string[] = [];
    const control = controlledFileSystem();
    const guard = createGuard({
      roots: [root],
      fileSystem: control.fileSystem,
      approve: async () => {
        fs.writeFileSync(b, 'BETA by someone else\n');
        control.arm((call) => {
          if (call.name === 'renameSync' || call.name === 'linkSync') renames.push(call.path ?? '');
          return undefined;
        });
        return { approved: true };
      },
    });
    const session = guard.session('s');
    ok(await session.read('a.txt'));
    ok(await session.read('b.txt'));
    const inode = fs.statSync(a).ino;
    refused(
      await session.multiEdit([
        { path: 'a.txt', edits: [{ oldString: 'alpha', newString: 'ALPHA' }] },
        { path: 'b.txt', edits: [{ oldString: 'beta', newString: 'B' }] },
      ]),
      'FILE_CHANGED_SINCE_READ',
      'No file was changed',
    );
    control.disarm();
    assert.deepStrictEqual(renames, [], 'a file was written although another file of the call was already known to be refused');
    assert.strictEqual(fs.statSync(a).ino, inode);
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'alpha\n');
    assert.strictEqual(fs.readFileSync(b, 'utf8'), 'BETA by someone else\n');
  });

  // Item 5: the rollback after an I/O failure overwrote what someone else wrote to an already-written file.
  test('the rollback of a failed multiEdit never overwrites a change someone else made to an already-written file', async () => {
    const { root, control, session } = setup();
    const a = put(path.join(root, 'a.txt'), 'alpha\n');
    put(path.join(root, 'b.txt'), 'beta\n');
    ok(await session.read('a.txt'));
    ok(await session.read('b.txt'));
    let aWritten = false;
    control.arm((call) => {
      if (call.name === 'renameSync' && call.path?.includes('.a.txt.readgate-')) aWritten = true;
      if (call.name === 'writeSync' && aWritten) {
        // b.txt's temp file is being written: someone appends to a.txt, then the disk is full.
        if (!fs.readFileSync(a, 'utf8').includes('theirs')) fs.appendFileSync(a, 'theirs\n');
        return { kind: 'errno', code: 'ENOSPC' };
      }
      return undefined;
    });
    const message = refused(
      await session.multiEdit([
        { path: 'a.txt', edits: [{ oldString: 'alpha', newString: 'ALPHA' }] },
        { path: 'b.txt', edits: [{ oldString: 'beta', newString: 'BETA' }] },
      ]),
      'WRITE_FAILED',
    );
    control.disarm();
    assert.ok(aWritten, 'test premise: a.txt was written before b.txt failed');
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'ALPHA\ntheirs\n', 'their appended line must survive the rollback');
    assert.ok(message.includes(`except ${a}`), message);
    assert.strictEqual(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'beta\n');
  });

  // Item 7 (the in-process half; a child process as `nobody` covers "another user's file").
  test('a read-only file (mode 0444) is refused with WRITE_FAILED, even for root, and keeps its bytes and mode', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'ro.txt'), 'keep\n');
    fs.chmodSync(file, 0o444);
    ok(await session.read('ro.txt'));
    refused(await session.edit('ro.txt', [{ oldString: 'keep', newString: 'lose' }]), 'WRITE_FAILED', 'read-only', '0444', 'Nothing was changed');
    refused(await session.write('ro.txt', 'lose\n'), 'WRITE_FAILED', 'read-only');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'keep\n');
    assert.strictEqual(fs.statSync(file).mode & 0o777, 0o444);
  });

  test('a file made read-only after approval is refused by the port, right before the rename', async () => {
    const { root, control, session } = setup();
    const file = put(path.join(root, 'a.txt'), 'one\n');
    ok(await session.read('a.txt'));
    control.arm((call) => (call.name === 'fsyncSync' ? { kind: 'race', run: () => fs.chmodSync(file, 0o444) } : undefined));
    refused(await session.edit('a.txt', [{ oldString: 'one', newString: 'two' }]), 'WRITE_FAILED', 'read-only');
    control.disarm();
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\n');
    assert.deepStrictEqual(fs.readdirSync(root), ['a.txt']);
  });

  // Item 9: a FIFO swapped in between the stat and the open blocked the thread for ever.
  test('a FIFO swapped in between stat and open is refused as SPECIAL_FILE for read and edit, without blocking', async () => {
    const { root, control, session } = setup();
    const file = put(path.join(root, 'f.txt'), 'text\n');
    ok(await session.read('f.txt', { force: true }));
    const fifo = path.join(root, 'fifo');
    const swapBeforeOpen = () =>
      control.arm((call) =>
        call.name === 'openSync' && call.path === file
          ? {
              kind: 'race',
              run: () => {
                execFileSync('mkfifo', [fifo]);
                fs.renameSync(fifo, file);
              },
            }
          : undefined,
      );
    swapBeforeOpen();
    refused(await session.read('f.txt', { force: true }), 'SPECIAL_FILE', 'FIFO');
    control.disarm();
    fs.rmSync(file);
    put(file, 'text\n');
    ok(await session.read('f.txt', { force: true }));
    swapBeforeOpen();
    refused(await session.edit('f.txt', [{ oldString: 'text', newString: 'TEXT' }]), 'SPECIAL_FILE', 'FIFO');
    control.disarm();
    assert.ok(fs.lstatSync(file).isFIFO(), 'the FIFO is left alone');
  });

  // Item 3: the lock was keyed by path, so two names of one file ran concurrently.
  test('calls on two names of one file (same identity) wait for each other', async () => {
    const root = makeTempDir('readgate-regress-');
    put(path.join(root, 'A.txt'), 'x\n');
    put(path.join(root, 'a.txt'), 'x\n');
    // A case-insensitive disk as the port sees it: both spellings are one file.
    const real = createNodeFileSystem();
    const sameIdentity = (stat: FileStat | undefined): FileStat | undefined => stat && { ...stat, identity: 'ino:1:42' };
    const fileSystem: FileSystem = { ...real, stat: async (p) => sameIdentity(await real.stat(p)) };
    const ctx = { fs: fileSystem, locks: new KeyedLock() } as unknown as GuardContext;
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = runLocked(ctx, [{ target: path.join(root, 'A.txt') }], undefined, async () => {
      order.push('first start');
      await new Promise<void>((resolve) => (releaseFirst = resolve));
      order.push('first end');
    });
    await new Promise((resolve) => setImmediate(resolve));
    const second = runLocked(ctx, [{ target: path.join(root, 'a.txt') }], undefined, async () => {
      order.push('second');
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepStrictEqual(order, ['first start'], 'the second call ran while the first held the same file');
    releaseFirst();
    await Promise.all([first, second]);
    assert.deepStrictEqual(order, ['first start', 'first end', 'second']);
  });

  // Item 6 (the deterministic half; a racing process covers it for real): a folder swapped for a link out of the
  // roots right before the temp file is created, or right before link() places the new file. The write path holds
  // the checked folder open and names everything through it, so the file lands in that folder (now renamed), and
  // nothing, not even a temp file, lands where the link leads.
  for (const step of ['openSync', 'linkSync'] as const) {
    test(`a folder swapped for a link to outside right before ${step} of a create: nothing is created outside`, async () => {
      const { root, control, session } = setup();
      put(path.join(root, 'sub', 'keep.txt'), 'keep\n');
      const outside = makeTempDir('readgate-outside-');
      let swapped = false;
      control.arm((call) =>
        call.name === step && call.path !== undefined && isTemp(call.path) && !swapped
          ? {
              kind: 'race',
              run: () => {
                swapped = true;
                fs.renameSync(path.join(root, 'sub'), path.join(root, 'sub.old'));
                fs.symlinkSync(outside, path.join(root, 'sub'));
              },
            }
          : undefined,
      );
      const result = await session.write('sub/new.txt', 'new\n');
      control.disarm();
      assert.ok(swapped, 'test premise: the folder was swapped');
      assert.deepStrictEqual(fs.readdirSync(outside), [], `written outside the roots: ${JSON.stringify(result)}`);
      const inChecked = fs.readdirSync(path.join(root, 'sub.old')).sort();
      if (result.ok) assert.deepStrictEqual(inChecked, ['keep.txt', 'new.txt']);
      else assert.deepStrictEqual(inChecked, ['keep.txt'], JSON.stringify(result));
    });
  }

  // Seen under the real folder-swap race: "could not check … (EINVAL on readlink)" and "… (ENOENT on open) … check
  // the file's permissions" for paths that merely changed while they were resolved or opened.
  test('a link swapped back to a folder while the path is resolved is walked again, not refused as unreadable', async () => {
    const { root, control, session } = setup();
    put(path.join(root, 'real', 'a.txt'), 'one\n');
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'sub'));
    let swapped = false;
    control.arm((call) =>
      call.name === 'readlinkSync' && !swapped
        ? {
            kind: 'race',
            run: () => {
              swapped = true;
              fs.unlinkSync(path.join(root, 'sub'));
              fs.mkdirSync(path.join(root, 'sub'));
              put(path.join(root, 'sub', 'a.txt'), 'two\n');
            },
          }
        : undefined,
    );
    const read = ok(await session.read('sub/a.txt'));
    control.disarm();
    assert.ok(swapped, 'test premise: the link was swapped during the walk');
    assert.ok(read.text.includes('two'), read.text);
  });

  test('a file that vanishes between its check and its open is FILE_NOT_FOUND, for read and edit', async () => {
    const { root, control, session } = setup();
    const file = put(path.join(root, 'a.txt'), 'one\n');
    ok(await session.read('a.txt'));
    const vanishBeforeOpen = () => control.arm((call) => (call.name === 'openSync' && call.path === file ? { kind: 'race', run: () => fs.existsSync(file) && fs.unlinkSync(file) } : undefined));
    vanishBeforeOpen();
    refused(await session.read('a.txt', { force: true }), 'FILE_NOT_FOUND', 'vanished while ReadGate opened it');
    control.disarm();
    put(file, 'one\n');
    ok(await session.read('a.txt', { force: true }));
    vanishBeforeOpen();
    refused(await session.edit('a.txt', [{ oldString: 'one', newString: 'two' }]), 'FILE_NOT_FOUND', 'vanished');
    control.disarm();
    assert.ok(!fs.existsSync(file), 'nothing re-created');
  });

  // Review of this change: a single-file write left the content check to the port, but a port that writes
  // elsewhere (an editor's document through a WorkspaceEdit) does not verify `expect`; the user's typing during
  // approval was then overwritten.
  test('a port that does not verify its writes still gets the content check right before a single-file write', async () => {
    const root = makeTempDir('readgate-regress-');
    const file = put(path.join(root, 'a.txt'), 'one\ntwo\n');
    const real = createNodeFileSystem();
    // Writes like an editor buffer would: whatever is there is replaced, nothing verified.
    const fileSystem: FileSystem = { ...real, verifiesExpectations: false, writeFile: (p, data, options) => real.writeFile(p, data, { ...(options?.mode !== undefined ? { mode: options.mode } : {}) }) };
    const guard = createGuard({
      roots: [root],
      fileSystem,
      approve: async () => {
        fs.writeFileSync(file, 'one\ntwo typed by the user\n');
        return { approved: true };
      },
    });
    const session = guard.session('s');
    ok(await session.read('a.txt'));
    refused(await session.edit('a.txt', [{ oldString: 'two', newString: 'TWO' }]), 'FILE_CHANGED_SINCE_READ', 'typed by the user');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\ntwo typed by the user\n');
  });
});
