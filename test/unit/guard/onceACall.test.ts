/**
 * One call looks at each file once: an edit stats its file once (the lock's keys come from the path check) and
 * loads it once; a patch of several files loads each once for placing the patch and planning the change alike.
 * Counted at the file system port, where every look costs a system call.
 */
import * as assert from 'assert';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import type { FileSystem } from '../../../src/core/ports';
import { fixture } from '../helpers/guardFixture';
import { ok } from '../helpers/results';

function counting(): { fileSystem: FileSystem; counts: Map<string, number>; reset(): void } {
  const real = createNodeFileSystem();
  const counts = new Map<string, number>();
  const count = (what: string, path: string): void => void counts.set(`${what} ${path}`, (counts.get(`${what} ${path}`) ?? 0) + 1);
  return {
    fileSystem: {
      ...real,
      stat: (path) => (count('stat', path), real.stat(path)),
      readFile: (path) => (count('readFile', path), real.readFile(path)),
    },
    counts,
    reset: () => counts.clear(),
  };
}

suite('once a call: each file is stat\'ed and loaded once', () => {
  test('an edit stats and loads its file once', async () => {
    const port = counting();
    const f = fixture({ fileSystem: port.fileSystem });
    const file = f.file('a.ts', 'one\ntwo\nthree\n');
    ok(await f.session.read(file));
    port.reset();
    ok(await f.session.edit(file, [{ oldString: 'two', newString: 'TWO' }]));
    assert.strictEqual(port.counts.get(`stat ${file}`), 1, JSON.stringify([...port.counts]));
    assert.strictEqual(port.counts.get(`readFile ${file}`), 1, JSON.stringify([...port.counts]));
  });

  test('a patch of two files loads each once, for placing the patch and planning the change', async () => {
    const port = counting();
    const f = fixture({ fileSystem: port.fileSystem });
    const a = f.file('a.ts', 'alpha\nbeta\ngamma\n');
    const b = f.file('b.ts', 'one\ntwo\nthree\n');
    ok(await f.session.read(a));
    ok(await f.session.read(b));
    port.reset();
    const patch = ['--- a/a.ts', '+++ b/a.ts', '@@ -1,3 +1,3 @@', ' alpha', '-beta', '+BETA', ' gamma', '--- a/b.ts', '+++ b/b.ts', '@@ -1,3 +1,3 @@', ' one', '-two', '+TWO', ' three', ''].join('\n');
    ok(await f.session.applyPatch(patch));
    for (const file of [a, b]) {
      assert.strictEqual(port.counts.get(`readFile ${file}`), 1, JSON.stringify([...port.counts]));
      assert.strictEqual(port.counts.get(`stat ${file}`), 1, JSON.stringify([...port.counts]));
    }
    assert.strictEqual(f.text('a.ts'), 'alpha\nBETA\ngamma\n');
  });
});
