/**
 * One session's changes of one file apply in the order the calls were made, however long each call takes to
 * resolve its path (an adapter's file system answers asynchronously, after varying delays): the last call wins.
 */
import * as assert from 'assert';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import type { FileSystem } from '../../../src/core/ports';
import { fixture } from '../helpers/guardFixture';
import { ok } from '../helpers/results';
import { seeded } from '../helpers/seeded';

/** The Node file system answering lookups after a random delay of up to 3 ms, as a remote or editor one may. */
function jittery(next: () => number): FileSystem {
  const real = createNodeFileSystem();
  const later = <T>(value: Promise<T>): Promise<T> => new Promise((resolve, reject) => setTimeout(() => value.then(resolve, reject), Math.floor(next() * 3)));
  return { ...real, lstat: (p) => later(real.lstat(p)), stat: (p) => later(real.stat(p)), realpath: (p) => later(real.realpath(p)) };
}

suite('call order: one session, one file', () => {
  test('concurrent writes of one file from one session finish in call order: the last call wins (seeded)', async () => {
    const random = seeded();
    const f = fixture({ fileSystem: jittery(random.next) });
    const file = f.file('notes.txt', 'start\n');
    for (let round = 0; round < 10; round++) {
      ok(await f.session.read(file, { force: true }));
      const writes = Array.from({ length: 6 }, (_, i) => f.session.write(file, `round ${round} write ${i}\n`));
      const results = await Promise.all(writes);
      results.forEach((result) => ok(result));
      assert.strictEqual(f.text('notes.txt'), `round ${round} write 5\n`, random.note);
    }
  });

  test('edits of one file apply in call order, each on the result of the one before (seeded)', async () => {
    const random = seeded();
    const f = fixture({ fileSystem: jittery(random.next) });
    const file = f.file('list.txt', 'items:\n');
    ok(await f.session.read(file));
    const edits = Array.from({ length: 8 }, (_, i) => f.session.edit(file, [{ oldString: 'items:\n', newString: `items:\n${i}\n` }]));
    (await Promise.all(edits)).forEach((result) => ok(result));
    assert.strictEqual(f.text('list.txt'), 'items:\n7\n6\n5\n4\n3\n2\n1\n0\n', random.note);
  });

  test('a call cancelled while it waits for an earlier one leaves its place; the calls after it still wait their turn', async () => {
    const f = fixture();
    const file = f.file('a.txt', 'zero\n');
    ok(await f.session.read(file));
    const controller = new AbortController();
    const first = f.session.write(file, 'one\n');
    const second = f.session.write(file, 'two\n', { signal: controller.signal });
    const third = f.session.write(file, 'three\n');
    controller.abort();
    ok(await first);
    const cancelled = await second;
    assert.ok(!cancelled.ok && cancelled.code === 'CANCELLED', JSON.stringify(cancelled));
    ok(await third);
    assert.strictEqual(f.text('a.txt'), 'three\n');
  });
});
