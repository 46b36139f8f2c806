/**
 * A small Disposable base: one owner per feature adopts everything it creates with `_register`.
 * `dispose()` is idempotent, and anything registered after disposal is disposed at once, so a late
 * listener can never leak.
 */
import type * as vscode from 'vscode';

export function disposeAll(disposables: Iterable<vscode.Disposable>): void {
  const errors: unknown[] = [];
  for (const disposable of disposables) {
    try {
      disposable.dispose();
    } catch (error) {
      errors.push(error);
    }
  }
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed to dispose');
}

export abstract class Disposable implements vscode.Disposable {
  private _isDisposed = false;
  protected readonly _disposables: vscode.Disposable[] = [];

  get isDisposed(): boolean {
    return this._isDisposed;
  }

  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    const disposables = this._disposables.splice(0).reverse();
    disposeAll(disposables);
  }

  protected _register<T extends vscode.Disposable>(disposable: T): T {
    if (this._isDisposed) {
      disposable.dispose();
    } else {
      this._disposables.push(disposable);
    }
    return disposable;
  }
}
