/**
 * A directory swapped for a symlink while the guard writes, for real: a child process renames root/sub to
 * root/sub.old and puts a symlink root/sub -> <outside> (outside every root) in its place, then swaps back, as
 * fast as it can for ~2.5 s, while this test edits root/sub/a.txt (read, then edit) and creates
 * root/sub/new-<i>.txt. Whatever each call returns, nothing outside the roots changes, and every call that
 * reported success put exactly the content it claims inside the roots.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { MutationResult } from '../../../src/core/index';
import { childProgram, startChild } from '../helpers/childGuard';
import { put } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';
import { assertTreeUnchanged, snapshotTree } from '../helpers/treeSnapshot';

const SWAP_MS = 2500;

suite('real faults: a directory swapped for a symlink during writes', () => {
  test('nothing outside the roots changes, and every ok result wrote what it claims inside them', async function () {
    this.timeout(120_000);
    const root = makeTempDir('readgate-swap-root-');
    const outside = makeTempDir('readgate-swap-outside-');
    put(path.join(outside, 'a.txt'), 'gen 0\n'); // a decoy an escaped edit would match
    put(path.join(root, 'sub', 'a.txt'), 'gen 0\n');
    const outsideBefore = snapshotTree(outside);
    const session = createGuard({ roots: [root] }).session('swap');

    const swapper = startChild(childProgram('dirSwapper'), { args: [root, outside, String(SWAP_MS)] });
    const counts = { ok: 0, refused: {} as Record<string, number> };
    const tally = (result: MutationResult | { ok: boolean; code?: string }): void => {
      if (result.ok) counts.ok++;
      else {
        counts.refused[result.code!] = (counts.refused[result.code!] ?? 0) + 1;
        if (process.env.READGATE_DEBUG && counts.refused[result.code!] <= 3) console.log(`        ${result.code}: ${(result as { message?: string }).message?.slice(0, 300)}`);
      }
    };
    let generation = 0; // of the last ok edit
    const created: number[] = [];
    let exited = false;
    void swapper.finished(60_000).then(() => {
      exited = true;
    });
    for (let i = 0; !exited; i++) {
      tally(await session.read('sub/a.txt'));
      const edit = await session.edit('sub/a.txt', [{ oldString: `gen ${generation}`, newString: `gen ${generation + 1}` }]);
      tally(edit);
      if (edit.ok) generation++;
      const create = await session.write(`sub/new-${i}.txt`, `new ${i}\n`);
      tally(create);
      if (create.ok) created.push(i);
      // Let the swapper's exit be noticed even when every call fails fast.
      if (i % 50 === 49) await new Promise((resolve) => setImmediate(resolve));
    }
    const done = await swapper.finished(60_000);
    assert.ok(!done.hung && done.code === 0, `the swapper child failed: ${JSON.stringify(done)}`);
    const summary = `${counts.ok} calls ok, refused ${JSON.stringify(counts.refused)}; swapper ${done.stdout.trim()}`;
    console.log(`      ${summary}`);

    assertTreeUnchanged(outside, outsideBefore, `calls racing the swap (${summary})`);
    assert.ok(fs.lstatSync(path.join(root, 'sub')).isDirectory(), 'premise: the swapper put the real sub/ back');
    assert.strictEqual(fs.readFileSync(path.join(root, 'sub', 'a.txt'), 'utf8'), `gen ${generation}\n`, `sub/a.txt does not hold what the last ok edit wrote (${summary})`);
    const missing = created.filter((i) => {
      const file = path.join(root, 'sub', `new-${i}.txt`);
      return !fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== `new ${i}\n`;
    });
    assert.deepStrictEqual(missing, [], `files whose create was ok are missing from sub/ or hold other bytes (${summary})`);
  });
});
