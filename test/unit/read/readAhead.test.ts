/**
 * `Guard.readAhead`: a file read a moment before the read it is for (VS Code's prepare step). The read that takes it
 * shows those bytes and records their version, as if it had read them then; content still decides every edit after.
 * It is taken once, within READ_AHEAD_MS, and never after a write by the guard or a change of the roots; anything a
 * read would refuse is not read ahead at all.
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import type { Clock, FileSystem, ScratchSpace } from '../../../src/core/ports';
import { READ_AHEAD_MS } from '../../../src/core/text/readAhead';
import { fixture, numbered } from '../helpers/guardFixture';
import { ok, refused } from '../helpers/results';

/**
 * The Node port, counting whole-file reads per path. `hold` makes the next read of a path wait until released,
 * before it reads (`after`: once it has read, before it answers).
 */
function counting(): {
  fileSystem: FileSystem;
  reads: (file: string) => number;
  lent: (ScratchSpace | undefined)[];
  hold(file: string, after?: boolean): () => void;
} {
  const real = createNodeFileSystem();
  const counts = new Map<string, number>();
  const held = new Map<string, { gate: Promise<void>; after: boolean }>();
  const lent: (ScratchSpace | undefined)[] = [];
  return {
    fileSystem: {
      ...real,
      readFile: async (file, scratch) => {
        counts.set(file, (counts.get(file) ?? 0) + 1);
        lent.push(scratch);
        const hold = held.get(file);
        held.delete(file);
        if (!hold?.after) await hold?.gate;
        const bytes = await real.readFile(file, scratch);
        if (hold?.after) await hold.gate;
        return bytes;
      },
    },
    reads: (file) => counts.get(file) ?? 0,
    lent,
    hold(file, after = false) {
      let release!: () => void;
      held.set(file, { gate: new Promise((resolve) => (release = resolve)), after });
      return release;
    },
  };
}

/** Resolves once `check` holds, polling each turn of the event loop (a read-ahead runs on its own). */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let turn = 0; turn < 1000; turn++) {
    if (check()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.fail(`never: ${what}`);
}

/** A clock the test moves. */
function manualClock(): Clock & { advance(ms: number): void } {
  let now = 1_700_000_000_000;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

suite('read-ahead (Guard.readAhead)', () => {
  test('the read after it shows the bytes read then, and an edit is judged by the file as it is now', async () => {
    const port = counting();
    const f = fixture({ fileSystem: port.fileSystem });
    const file = f.file('a.txt', numbered(5));
    f.guard.readAhead(file);
    await until(() => port.reads(file) === 1, 'the read-ahead read the file');
    await new Promise((resolve) => setTimeout(resolve, 5));
    fs.writeFileSync(file, numbered(5).replace('line 3', 'line three'));
    const read = ok(await f.session.read(file));
    assert.strictEqual(port.reads(file), 1, 'the read took the bytes read ahead, not the disk again');
    assert.match(read.text, /3\tline 3\n/);
    assert.doesNotMatch(read.text, /three/);
    // What the session saw is what it was shown; the file as it is now decides the edit.
    const edit = await f.session.edit(file, [{ oldString: 'line 4', newString: 'line four' }]);
    refused(edit, 'FILE_CHANGED_SINCE_READ', 'line three');
    assert.strictEqual(f.text('a.txt'), numbered(5).replace('line 3', 'line three'), 'the refused edit wrote nothing');
    // Taken once: the next read reads the file as it is.
    const before = port.reads(file);
    const again = ok(await f.session.read(file, { force: true }));
    assert.match(again.text, /3\tline three\n/);
    assert.strictEqual(port.reads(file), before + 1);
  });

  test('a read that comes while the read-ahead is still reading waits for it and reads nothing itself', async () => {
    const port = counting();
    const f = fixture({ fileSystem: port.fileSystem });
    const file = f.file('slow.txt', numbered(3));
    const release = port.hold(file);
    f.guard.readAhead(file);
    await until(() => port.reads(file) === 1, 'the read-ahead started reading');
    const reading = f.session.read(file);
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const read = ok(await reading);
    assert.match(read.text, /lines 1-3 of 3/);
    assert.strictEqual(port.reads(file), 1);
  });

  test('a write by the guard after it started means the read reads afresh and shows the write', async () => {
    const port = counting();
    const f = fixture({ fileSystem: port.fileSystem });
    const file = f.file('w.txt', numbered(4));
    const other = f.guard.session('other');
    ok(await other.read(file));
    f.guard.readAhead(file);
    await until(() => port.reads(file) === 2, 'the read-ahead read the file');
    ok(await other.edit(file, [{ oldString: 'line 2', newString: 'line two' }]));
    const read = ok(await f.session.read(file));
    assert.match(read.text, /2\tline two\n/);
  });

  test('a write that starts while a read waits for its read-ahead means that read reads afresh', async () => {
    const port = counting();
    const f = fixture({ fileSystem: port.fileSystem });
    const file = f.file('race.txt', numbered(4));
    const other = f.guard.session('other');
    ok(await other.read(file));
    const release = port.hold(file, true);
    f.guard.readAhead(file);
    await until(() => port.reads(file) === 2, 'the read-ahead read the file');
    // The read takes the read-ahead, which still holds the old bytes, and waits for it; then the file is written.
    const reading = f.session.read(file);
    await new Promise((resolve) => setTimeout(resolve, 5));
    ok(await other.edit(file, [{ oldString: 'line 2', newString: 'line two' }]));
    release();
    assert.match(ok(await reading).text, /2\tline two\n/);
  });

  test('a read-ahead older than READ_AHEAD_MS is not used', async () => {
    const port = counting();
    const clock = manualClock();
    const f = fixture({ fileSystem: port.fileSystem, clock });
    const file = f.file('old.txt', 'before\n');
    f.guard.readAhead(file);
    await until(() => port.reads(file) === 1, 'the read-ahead read the file');
    await new Promise((resolve) => setTimeout(resolve, 5));
    fs.writeFileSync(file, 'after\n');
    clock.advance(READ_AHEAD_MS + 1);
    assert.match(ok(await f.session.read(file)).text, /1\tafter/);
    assert.strictEqual(port.reads(file), 2);
  });

  test('a read-ahead serves only a read of the same path, and gives its buffer back when another takes its place', async () => {
    const port = counting();
    const f = fixture({ fileSystem: port.fileSystem });
    const a = f.file('a.txt', 'a\n');
    const b = f.file('b.txt', 'b\n');
    f.guard.readAhead(a);
    await until(() => port.reads(a) === 1, 'the read-ahead of a');
    ok(await f.session.read(b));
    assert.strictEqual(port.reads(b), 1, 'b was read by its own read');
    f.guard.readAhead(b);
    await until(() => port.reads(b) === 2, 'the read-ahead of b');
    assert.match(ok(await f.session.read(b, { force: true })).text, /1\tb/);
    assert.strictEqual(port.reads(b), 2);
    // a's read-ahead was dropped when b's started: a is read afresh.
    ok(await f.session.read(a));
    assert.strictEqual(port.reads(a), 2);
    assert.ok(port.lent.at(-1) !== undefined, 'the buffer went back to the guard: the last read was lent it');
  });

  test('new roots or deny rules drop what was read ahead under the old ones', async () => {
    const port = counting();
    const f = fixture({ fileSystem: port.fileSystem });
    const file = f.file('secret.env', 'TOKEN=1\n');
    f.guard.readAhead(file);
    await until(() => port.reads(file) === 1, 'the read-ahead read the file');
    f.guard.configure({ deny: ['**/*.env'] });
    refused(await f.session.read(file), 'PATH_DENIED');
  });

  test('a read-ahead that fails to read leaves the read to read for itself, and to say what failed', async () => {
    const real = createNodeFileSystem();
    let failures = 0;
    const denyOnce = (error: string): FileSystem => ({
      ...real,
      readFile: async (file, scratch) => {
        if (failures-- > 0) throw Object.assign(new Error(`${error}: permission denied, open '${file}'`), { code: error });
        return real.readFile(file, scratch);
      },
    });
    const f = fixture({ fileSystem: denyOnce('EACCES') });
    const file = f.file('locked.txt', numbered(3));
    // The read-ahead's read fails; the read's own succeeds.
    failures = 1;
    f.guard.readAhead(file);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.match(ok(await f.session.read(file)).text, /3\tline 3/);
    // Both fail: the read says so itself, as without a read-ahead.
    failures = 2;
    f.guard.readAhead(file);
    await new Promise((resolve) => setTimeout(resolve, 20));
    refused(await f.session.read(file, { force: true }), 'PRIOR_READ_VERIFICATION_FAILED', 'EACCES');
    assert.strictEqual(failures, 0, 'the read tried the file itself');
  });

  test('nothing a read would refuse is read ahead, and such a read-ahead never throws or blocks', async () => {
    const port = counting();
    const f = fixture({ fileSystem: port.fileSystem, deny: ['**/*.key'] });
    const denied = f.file('id.key', 'k\n');
    const folder = path.join(f.root, 'folder');
    fs.mkdirSync(folder);
    const fifo = path.join(f.root, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const outside = path.join(path.dirname(f.root), 'outside.txt');
    for (const given of [denied, folder, fifo, outside, path.join(f.root, 'missing.txt'), 'relative.txt', '', 42 as unknown as string]) {
      f.guard.readAhead(given);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    assert.strictEqual(port.reads(denied) + port.reads(fifo) + port.reads(outside), 0, 'nothing was read');
    refused(await f.session.read(denied), 'PATH_DENIED');
    refused(await f.session.read(fifo), 'SPECIAL_FILE');
    refused(await f.session.read(folder), 'TARGET_IS_DIRECTORY');
    assert.deepStrictEqual(f.session.entries(), [], 'a read-ahead teaches no session anything');
  });
});
