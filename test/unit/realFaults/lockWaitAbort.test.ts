/**
 * A call aborted while it waits for another call's lock on the same file returns CANCELLED at once, not when
 * the lock is finally released: edit #1 holds the file's lock while its approval is pending (for as long as
 * the user takes), edit #2 on the same file (another session) is aborted while queued behind it.
 * No timed assertion: #2 must settle before #1's approval is released, which happens only afterwards.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { ApprovalDecision, ApprovalRequest, MutationResult } from '../../../src/core/index';
import { ok, put, refused } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';

/** How long #1's approval stays pending at most after #2 was aborted: generous, and not asserted on. */
const HOLD_MS = 2000;

suite('real faults: aborting a call queued behind another call on the same file', () => {
  test('an edit aborted while waiting for the lock resolves CANCELLED before the lock holder is approved; the holder then applies', async function () {
    this.timeout(60_000);
    const root = makeTempDir('readgate-lockwait-');
    const file = put(path.join(root, 'a.txt'), 'one\ntwo\nthree\n');
    let releaseFirst!: (decision: ApprovalDecision) => void;
    let markAsked!: () => void;
    const firstAsked = new Promise<void>((resolve) => {
      markAsked = resolve;
    });
    let approvals = 0;
    // The first approval (edit #1's) stays pending until the test releases it; any later one is immediate.
    const approve = (request: ApprovalRequest): Promise<ApprovalDecision> => {
      approvals++;
      if (approvals > 1) return Promise.resolve({ approved: true });
      assert.strictEqual(request.sessionId, 'one');
      markAsked();
      return new Promise<ApprovalDecision>((resolve) => {
        releaseFirst = resolve;
      });
    };
    const guard = createGuard({ roots: [root], approve });
    const one = guard.session('one');
    const two = guard.session('two');
    ok(await one.read('a.txt'));
    ok(await two.read('a.txt'));

    const first = one.edit('a.txt', [{ oldString: 'one', newString: 'ONE' }]);
    await firstAsked;
    const controller = new AbortController();
    let secondResult: MutationResult | undefined;
    const second = two.edit('a.txt', [{ oldString: 'three', newString: 'THREE' }], { signal: controller.signal }).then((result) => {
      secondResult = result;
      return 'second settled' as const;
    });
    // Let #2 reach the lock it has to wait for (a few turns of the event loop; nothing is timed).
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();

    // #1's approval is released only after this race: by the marker when #2 is still pending after a
    // generous while, else right after #2 settled.
    let timer: NodeJS.Timeout | undefined;
    const marker = new Promise<'still pending'>((resolve) => {
      timer = setTimeout(() => resolve('still pending'), HOLD_MS);
    });
    const winner = await Promise.race([second, marker]);
    clearTimeout(timer);
    const whilePending = fs.readFileSync(file, 'utf8');
    releaseFirst({ approved: true });
    assert.strictEqual(
      winner,
      'second settled',
      `edit #2 was aborted but stayed pending while edit #1 held the lock (${HOLD_MS} ms until #1's approval was released); then it returned ${JSON.stringify(await second.then(() => secondResult))}`,
    );
    refused(secondResult!, 'CANCELLED');
    assert.strictEqual(whilePending, 'one\ntwo\nthree\n', 'something was written while #1 awaited approval');
    ok(await first);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'ONE\ntwo\nthree\n');
  });
});
