/**
 * One session's changes of one file are applied in the order the calls were made: each call takes its place in a
 * queue per file the moment it is made, before anything asynchronous, and starts once every earlier call of the
 * session on any of its files has finished. (The guard's per-file locks serialize calls of all sessions, but in the
 * order they reach them: a call that resolves its paths faster would overtake an earlier one, and the last
 * call would not win.) A call cancelled while it waits leaves its place at once; calls after it still wait for
 * the calls before it.
 */
export class CallOrder {
  private readonly tails = new Map<string, Promise<void>>();

  /** Queues `work` on `keys` now (synchronously); it starts when the earlier calls on those keys are done. */
  run<T>(keys: readonly string[], signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const unique = [...new Set(keys)];
    const before = Promise.all(unique.map((key) => this.tails.get(key)));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => (finish = resolve));
    // Later calls wait for this one and, through it, for every call before it.
    const tail = before.then(() => finished);
    for (const key of unique) this.tails.set(key, tail);
    void tail.then(() => {
      for (const key of unique) if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return waitFor(before, signal).then(work).finally(finish);
  }
}

function waitFor(before: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return before.then(() => undefined);
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void =>
      reject(Object.assign(new Error('the call was cancelled while it waited for an earlier call of its session on the same file'), { name: 'AbortError' }));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void before.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
