/**
 * One file's problem reports over time: when each `onDidChangeDiagnostics` naming it arrived. Language services
 * report asynchronously and in parts (TypeScript's syntax, then semantic, then suggestion diagnostics), so a
 * file's problems count as settled once a report arrived after its new content and then none for a quiet
 * period; a report before the new content describes the old one.
 */
import * as vscode from 'vscode';

/** No further report for this long after the last one: the service has said what it had to say. */
export const QUIET_MS = 150;

export class DiagnosticsWatch implements vscode.Disposable {
  /** When each report for the file arrived (ms since the epoch). */
  private readonly reports: number[] = [];
  /** When the open document's text last changed (the change written into it, or VS Code reloading it). */
  contentChangedAt: number | undefined;
  private readonly subscriptions: vscode.Disposable[];
  private readonly listeners = new Set<() => void>();

  constructor(readonly uri: vscode.Uri) {
    const key = uri.toString();
    this.subscriptions = [
      vscode.languages.onDidChangeDiagnostics((event) => {
        if (!event.uris.some((changed) => changed.toString() === key)) return;
        this.reports.push(Date.now());
        this.notify();
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.document.uri.toString() !== key || event.contentChanges.length === 0) return;
        this.contentChangedAt = Date.now();
        this.notify();
      }),
    ];
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Resolves the time the document's text changed, once it has (at once if it has), or undefined at `deadline`. */
  contentChanged(deadline: number): Promise<number | undefined> {
    if (this.contentChangedAt !== undefined) return Promise.resolve(this.contentChangedAt);
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.contentChangedAt === undefined) return;
        finish(this.contentChangedAt);
      };
      const limit = setTimeout(() => finish(undefined), Math.max(0, deadline - Date.now()));
      const finish = (at: number | undefined): void => {
        clearTimeout(limit);
        this.listeners.delete(check);
        resolve(at);
      };
      this.listeners.add(check);
    });
  }

  /** Whether a report arrived after `since`. */
  reportedSince(since: number): boolean {
    return this.reports.some((time) => time >= since);
  }

  /**
   * Resolves true once a report arrived after `since` and none for `quietMs` (or by `deadline`, ms since the
   * epoch, a report after `since` at all); false when none arrived by then.
   */
  settled(since: number, deadline: number, quietMs = QUIET_MS): Promise<boolean> {
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (settled: boolean): void => {
        clearTimeout(timer);
        clearTimeout(limit);
        this.listeners.delete(check);
        resolve(settled);
      };
      const check = (): void => {
        clearTimeout(timer);
        const last = this.reports.at(-1);
        if (last === undefined || last < since) return;
        timer = setTimeout(() => finish(true), Math.max(0, Math.min(quietMs, deadline - Date.now())));
      };
      // At the deadline a report since the new content is still an answer, if perhaps not the last one.
      const limit = setTimeout(() => finish(this.reportedSince(since)), Math.max(0, deadline - Date.now()));
      this.listeners.add(check);
      check();
    });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    this.listeners.clear();
  }
}

/** `work`'s value, or undefined when it is not there by `deadline` (ms since the epoch). */
export function beforeDeadline<T>(work: Promise<T | undefined>, deadline: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()))));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
