/**
 * A change of several files is written in one synchronous pass of the Node port: every file's expectation is
 * checked before the first is touched, and nothing else in this process runs between two replacements. So code
 * running beside the call (another agent's session, a watcher) never sees the change half made, and a file
 * changed before the pass refuses the whole change with nothing written and nothing to roll back.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FileSystem } from '../../../src/core/ports';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { fixture } from '../helpers/guardFixture';
import { ok, refused } from '../helpers/results';

const FILES = ['a.txt', 'b.txt', 'c.txt', 'd.txt'];

/** Reads every file at every turn of the microtask queue until stopped: what in-process code can see. */
function watch(root: string): { states: Set<string>; stop: () => Promise<void> } {
  const states = new Set<string>();
  let running = true;
  const loop = (async () => {
    while (running) {
      states.add(FILES.map((name) => fs.readFileSync(path.join(root, name), 'utf8').trim()).join(' '));
      await Promise.resolve();
    }
  })();
  return {
    states,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

suite('one pass: a change of several files is never seen half made', () => {
  test('in-process code reading all files at every microtask sees all old or all new, never a mix', async () => {
    const f = fixture();
    for (const name of FILES) f.file(name, 'old\n');
    for (const name of FILES) ok(await f.session.read(name));
    const watcher = watch(f.root);
    ok(await f.session.multiEdit(FILES.map((name) => ({ path: name, edits: [{ oldString: 'old', newString: 'new' }] }))));
    await watcher.stop();
    assert.deepStrictEqual([...watcher.states].sort(), ['new new new new', 'old old old old']);
  });

  test('a file changed before the pass refuses the change with no file written, so nothing is rolled back', async () => {
    // The last file changes after the guard planned the change and before the pass: the change is refused whole.
    const real = createNodeFileSystem();
    let root = '';
    const fileSystem: FileSystem = {
      ...real,
      async writeInOnePass(writes) {
        fs.writeFileSync(path.join(root, 'd.txt'), 'theirs\n');
        return real.writeInOnePass!(writes);
      },
    };
    const f = fixture({ fileSystem });
    root = f.root;
    for (const name of FILES) f.file(name, 'old\n');
    for (const name of FILES) ok(await f.session.read(name));
    const watcher = watch(f.root);
    const message = refused(await f.session.multiEdit(FILES.map((name) => ({ path: name, edits: [{ oldString: 'old', newString: 'new' }] }))), 'FILE_CHANGED_SINCE_READ', 'd.txt');
    await watcher.stop();
    assert.doesNotMatch(message, /restored/, message);
    assert.deepStrictEqual(FILES.map((name) => f.text(name)), ['old\n', 'old\n', 'old\n', 'theirs\n']);
    assert.ok(![...watcher.states].some((state) => state.includes('new')), [...watcher.states].join(' | '));
  });
});
