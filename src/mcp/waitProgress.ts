/**
 * MCP progress while a tool call waits for the user. A change from an MCP client can wait in the review panel
 * for as long as the user reads it, and clients give up on a request after a timeout (the SDK's default is 60
 * seconds). MCP lets a client ask for progress with a `progressToken` in the request's `_meta`, and clients
 * that pass `resetTimeoutOnProgress` (the SDK's option) start their timeout again at each notification. So
 * while a call waits for review, its client hears `notifications/progress` at once and then every
 * WAIT_PROGRESS_INTERVAL_MS, with a `progress` that increases, as MCP's progress section asks. A request
 * without a token hears nothing: MCP allows progress only for tokens the client gave.
 *
 * Deliberately not here: what the call waits for (the extension knows its review queue) and how the
 * notification travels (the SDK sends it on the request's own stream: its SSE response over HTTP, stdout over
 * stdio, through the bridge unchanged).
 */

/** Under a third of the SDK's default timeout of 60 s, so a client that resets on progress never reaches it. */
export const WAIT_PROGRESS_INTERVAL_MS = 10_000;

/** Tells the client of one request how its call is getting on. */
export type ProgressReport = (message: string) => void;

/**
 * A report for the request that carries `progressToken`, or undefined when it carries none. Each report is one
 * notification with the next `progress` (1, 2, 3 …; no `total`, since how long the user takes is unknown); a
 * notification that cannot be sent (the client went away) is dropped.
 */
export function progressReport(
  progressToken: string | number | undefined,
  send: (notification: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; message: string } }) => Promise<void>,
): ProgressReport | undefined {
  if (progressToken === undefined) return undefined;
  let progress = 0;
  return (message) => {
    progress += 1;
    send({ method: 'notifications/progress', params: { progressToken, progress, message } }).catch(() => undefined);
  };
}

/**
 * Reports a wait while it lasts: `set(message)` starts it (reported at once, then every interval), a different
 * message is reported at once, `set(undefined)` or `dispose()` stops it.
 */
export class WaitProgress {
  private timer: ReturnType<typeof setInterval> | undefined;
  private message: string | undefined;

  constructor(
    private readonly report: ProgressReport,
    private readonly intervalMs = WAIT_PROGRESS_INTERVAL_MS,
  ) {}

  set(message: string | undefined): void {
    const changed = message !== this.message;
    this.message = message;
    if (message === undefined) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    this.timer ??= setInterval(() => {
      if (this.message !== undefined) this.report(this.message);
    }, this.intervalMs);
    if (changed) this.report(message);
  }

  dispose(): void {
    this.set(undefined);
  }
}

/** "Waiting for the user to review the change to src/app.ts" (at most three names, then how many more). */
export function reviewWaitMessage(files: readonly string[]): string {
  const shown = files.slice(0, 3).join(', ');
  const more = files.length > 3 ? ` and ${files.length - 3} more files` : '';
  return files.length === 0 ? 'Waiting for the user to review the change' : `Waiting for the user to review the change to ${shown}${more}`;
}
