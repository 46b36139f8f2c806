/**
 * A FIFO swapped in between the guard's stat and its open must never hang it: one child swaps root/f.txt
 * between a regular file and a FIFO for ~2 s while a guard in another child reads, edits and writes it over
 * and over. The guard child must finish (every call resolved to ok or a refusal) well before a generous
 * deadline; otherwise it is killed and the test fails as hung.
 */
import * as assert from 'assert';
import * as path from 'path';
import { childProgram, coreBundle, startChild } from '../helpers/childGuard';
import { put } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';

const SWAP_MS = 2000;
const DEADLINE_MS = 30_000;

suite('real faults: a FIFO swapped in under the guard', () => {
  test('a guard reading and editing a file that keeps turning into a FIFO never hangs', async function () {
    this.timeout(DEADLINE_MS + 30_000);
    const root = makeTempDir('readgate-fifo-');
    put(path.join(root, 'f.txt'), 'alpha\nbeta\n');
    const swapper = startChild(childProgram('fifoSwapper'), { args: [root, String(SWAP_MS)] });
    const guard = startChild(childProgram('fifoGuard'), { args: [coreBundle(), root, String(SWAP_MS)] });
    const [guardDone, swapperDone] = await Promise.all([guard.finished(DEADLINE_MS), swapper.finished(DEADLINE_MS)]);
    assert.ok(!swapperDone.hung && swapperDone.code === 0, `the swapper child failed: ${JSON.stringify(swapperDone)}`);
    assert.ok(
      !guardDone.hung,
      `hung: the guard child did not finish within ${DEADLINE_MS / 1000} s (a call blocked opening a FIFO?) and was killed; swapper ${swapperDone.stdout.trim()}; guard output: ${JSON.stringify(guardDone.stdout.slice(-500))}`,
    );
    assert.strictEqual(guardDone.code, 0, `the guard child failed (a call threw instead of resolving):\n${guardDone.stderr}`);
    const summary = guardDone.stdout.trim().split('\n').pop() ?? '';
    console.log(`      guard ${summary}; swapper ${swapperDone.stdout.trim()}`);
    const parsed = JSON.parse(summary) as { calls: number; ok: number; refused: Record<string, number> };
    assert.strictEqual(parsed.ok + Object.values(parsed.refused).reduce((sum, n) => sum + n, 0), parsed.calls);
  });
});
