/**
 * One task at a time, in the order they were queued: the history's store is read and changed only by the task
 * that runs, so two records made at once can never interleave their writes or their budget. A task that fails
 * does not stop the ones after it.
 */
export class SerialQueue {
  private tail: Promise<void> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Resolves once every task queued so far, and every task those queued, has finished. */
  async idle(): Promise<void> {
    let seen: Promise<void>;
    do {
      seen = this.tail;
      await seen;
    } while (seen !== this.tail);
  }
}
