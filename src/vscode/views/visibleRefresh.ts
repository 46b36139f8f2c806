/**
 * How ReadGate's tree views redraw: at most once per interval, and only while the view is visible. Changes come
 * in bursts (a git checkout, fast typing, a multi-file change), and a redraw reads the guard; a hidden view only
 * notes that it is stale and redraws once when it is shown again. Owns its visibility subscription and its timer.
 */
import * as vscode from 'vscode';
import { Disposable } from '../util/dispose';

export class VisibleRefresh extends Disposable {
  private timer: NodeJS.Timeout | undefined;
  private staleWhileHidden = false;

  constructor(
    private readonly view: vscode.TreeView<unknown>,
    private readonly intervalMs: number,
    private readonly redraw: () => void,
  ) {
    super();
    this._register(
      view.onDidChangeVisibility(({ visible }) => {
        if (visible && this.staleWhileHidden) {
          this.staleWhileHidden = false;
          this.redraw();
        }
      }),
    );
    this._register(new vscode.Disposable(() => this.timer && clearTimeout(this.timer)));
  }

  /** Asks for a redraw: soon if the view is visible, else when it is shown. */
  schedule(): void {
    if (!this.view.visible) {
      this.staleWhileHidden = true;
      return;
    }
    if (this.timer || this.isDisposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.isDisposed) this.redraw();
    }, this.intervalMs);
  }
}
