/**
 * Runs rendering work in slices so a big diff never freezes the panel: tasks (each one chunk of diff rows) run
 * synchronously until a time budget is spent, the rest continue one budget per animation frame. Starting a new
 * run cancels the previous one, so switching request or layout never finishes stale work. While the page is
 * hidden, animation frames stop, so slices continue on timers instead.
 */

export type Task = () => void;

export interface RunOptions {
  /** Milliseconds of work before the first paint. */
  firstBudget: number;
  /** Milliseconds of work per later frame. */
  frameBudget: number;
  /** Called once every task ran (not when the run was cancelled). */
  onDone?: () => void;
}

export class ChunkScheduler {
  private tasks: Task[] = [];
  private next = 0;
  private generation = 0;
  private options: RunOptions | undefined;

  get busy(): boolean {
    return this.next < this.tasks.length;
  }

  run(tasks: Task[], options: RunOptions): void {
    this.generation++;
    this.tasks = tasks;
    this.next = 0;
    this.options = options;
    if (tasks.length === 0) {
      options.onDone?.();
      return;
    }
    this.slice(options.firstBudget);
    if (this.busy) this.schedule();
  }

  /** Runs everything left now (e.g. before measuring positions that depend on all rows). */
  flush(): void {
    this.slice(Number.POSITIVE_INFINITY);
  }

  cancel(): void {
    this.generation++;
    this.tasks = [];
    this.next = 0;
    this.options = undefined;
  }

  private slice(budget: number): void {
    const start = performance.now();
    const hadWork = this.busy;
    while (this.busy) {
      this.tasks[this.next++]();
      if (performance.now() - start >= budget) break;
    }
    if (hadWork && !this.busy) this.options?.onDone?.();
  }

  private schedule(): void {
    const generation = this.generation;
    const step = () => {
      if (generation !== this.generation || !this.options) return;
      this.slice(this.options.frameBudget);
      if (this.busy) this.schedule();
    };
    if (document.hidden) setTimeout(step, 0);
    else requestAnimationFrame(step);
  }
}
