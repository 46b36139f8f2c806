/**
 * Per-file serialization: check → approve → re-check → write runs under locks, so two calls on one file never
 * interleave. A promise chain per key, released on success or failure; keys of a multi-file call are taken in
 * sorted order, so two such calls cannot deadlock. A call whose signal is aborted while it waits stops waiting
 * at once (its place in the chain passes on when the call before it finishes).
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(keys: readonly string[], work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const releases: (() => void)[] = [];
    try {
      for (const key of sorted) releases.push(await this.acquire(key, signal));
      return await work();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }

  private acquire(key: string, signal: AbortSignal | undefined): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.tails.set(key, tail);
    const done = (): void => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
    return new Promise((resolve, reject) => {
      const onAbort = (): void => reject(abortError());
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      void previous.then(() => {
        signal?.removeEventListener('abort', onAbort);
        // An aborted waiter never held the lock: its turn is passed on at once.
        if (signal?.aborted) done();
        else resolve(done);
      });
    });
  }
}

function abortError(): Error {
  return Object.assign(new Error('the call was cancelled while it waited for another call on the same file'), { name: 'AbortError' });
}
