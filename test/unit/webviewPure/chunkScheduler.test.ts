import * as assert from 'assert';

/**
 * The review panel's scheduler with a fake clock and fake animation frames: the work done before the first paint
 * and in each frame stops once its time budget is spent (at most one task over), whatever the machine's speed,
 * and a new run cancels the old one. The browser test asserts only that rows arrive progressively.
 */
interface Scheduler {
  readonly busy: boolean;
  run(tasks: (() => void)[], options: { firstBudget: number; frameBudget: number; onDone?: () => void }): void;
  flush(): void;
}
// The page's module is typed against the DOM, which the Node test build does not include: loaded untyped.
const { ChunkScheduler } = require('../../../media/approval/chunkScheduler') as { ChunkScheduler: new () => Scheduler };

suite('review panel: chunk scheduler (fake clock)', () => {
  let now = 0;
  let frames: (() => void)[] = [];
  const saved = { performance: globalThis.performance, raf: (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame, document: (globalThis as { document?: unknown }).document };

  setup(() => {
    now = 0;
    frames = [];
    Object.defineProperty(globalThis, 'performance', { value: { now: () => now }, configurable: true, writable: true });
    Object.assign(globalThis, { requestAnimationFrame: (step: () => void) => frames.push(step), document: { hidden: false } });
  });
  teardown(() => {
    Object.defineProperty(globalThis, 'performance', { value: saved.performance, configurable: true, writable: true });
    Object.assign(globalThis, { requestAnimationFrame: saved.raf, document: saved.document });
  });

  /** `count` tasks that each take `ms` of the fake clock and log their index. */
  const tasks = (count: number, ms: number, log: number[]) => Array.from({ length: count }, (_, i) => () => {
    now += ms;
    log.push(i);
  });

  test('runs tasks until the first budget is spent, then one frame budget per animation frame', () => {
    const log: number[] = [];
    let done = 0;
    const scheduler = new ChunkScheduler();
    scheduler.run(tasks(20, 3, log), { firstBudget: 10, frameBudget: 8, onDone: () => done++ });
    assert.deepStrictEqual(log, [0, 1, 2, 3], 'before the first paint: tasks until 10 ms are spent (3, 6, 9, 12 ms)');
    const perFrame: number[] = [];
    while (frames.length) {
      const before = log.length;
      frames.shift()!();
      perFrame.push(log.length - before);
    }
    assert.deepStrictEqual(perFrame, [3, 3, 3, 3, 3, 1], 'each frame: tasks until 8 ms are spent');
    assert.deepStrictEqual(log, Array.from({ length: 20 }, (_, i) => i), 'every task once, in order');
    assert.strictEqual(done, 1);
    assert.strictEqual(scheduler.busy, false);
  });

  test('one slow task ends its slice: the next task waits for the next frame', () => {
    const log: number[] = [];
    const scheduler = new ChunkScheduler();
    const slow = [() => { now += 500; log.push(0); }, () => { log.push(1); }];
    scheduler.run(slow, { firstBudget: 10, frameBudget: 8 });
    assert.deepStrictEqual(log, [0]);
    assert.strictEqual(frames.length, 1);
    frames.shift()!();
    assert.deepStrictEqual(log, [0, 1]);
  });

  test('a new run cancels the old one: its pending frame does nothing and its onDone never fires', () => {
    const oldLog: number[] = [];
    const newLog: number[] = [];
    let oldDone = 0;
    const scheduler = new ChunkScheduler();
    scheduler.run(tasks(10, 5, oldLog), { firstBudget: 5, frameBudget: 5, onDone: () => oldDone++ });
    scheduler.run(tasks(3, 1, newLog), { firstBudget: 100, frameBudget: 5 });
    while (frames.length) frames.shift()!();
    assert.deepStrictEqual(oldLog, [0]);
    assert.deepStrictEqual(newLog, [0, 1, 2]);
    assert.strictEqual(oldDone, 0);
  });

  test('flush runs everything left at once; a hidden page continues on timers', async () => {
    const log: number[] = [];
    const scheduler = new ChunkScheduler();
    scheduler.run(tasks(6, 4, log), { firstBudget: 4, frameBudget: 4 });
    assert.strictEqual(log.length, 1);
    scheduler.flush();
    assert.strictEqual(log.length, 6);
    frames = [];
    (globalThis as unknown as { document: { hidden: boolean } }).document.hidden = true;
    const hidden: number[] = [];
    scheduler.run(tasks(2, 4, hidden), { firstBudget: 4, frameBudget: 4 });
    assert.deepStrictEqual(hidden, [0]);
    assert.strictEqual(frames.length, 0, 'no animation frame is asked for while hidden');
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.deepStrictEqual(hidden, [0, 1]);
  });
});
