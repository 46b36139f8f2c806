/**
 * The approval panel's owner: one webview panel per window, created on the first request that needs review,
 * opened beside the editor without taking focus. Strict CSP with a per-load nonce; scripts and styles only
 * from our bundle (`dist/webview/`); `localResourceRoots` limited to it. State survives the panel being hidden
 * (the page keeps it with setState). Never posts after disposal.
 */
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { Disposable } from '../util/dispose';
import { approvalPanelHtml } from './panelHtml';
import type { RequestView, ToWebview } from './protocol';

export const APPROVAL_VIEW_TYPE = 'readgate.approval';

export class ApprovalPanel extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private latest: RequestView[] = [];

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (message: unknown) => void,
  ) {
    super();
    this._register(new vscode.Disposable(() => this.panel?.dispose()));
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** Shows the pending requests; opens the panel beside the editor (keeping focus where it is) if needed. */
  show(requests: RequestView[], reveal: boolean): void {
    this.latest = requests;
    if (!this.panel && requests.length > 0 && !this.isDisposed) this.create();
    if (!this.panel) return;
    this.panel.title = requests.length ? `ReadGate: Review (${requests.length})` : 'ReadGate: Review';
    if (reveal) this.panel.reveal(vscode.ViewColumn.Beside, true);
    this.post({ type: 'requests', requests });
  }

  focus(id: string): void {
    this.panel?.reveal(undefined, false);
    this.post({ type: 'focusRequest', id });
  }

  private post(message: ToWebview): void {
    if (this.panel && this.ready && !this.isDisposed) void this.panel.webview.postMessage(message);
  }

  private create(): void {
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(
      APPROVAL_VIEW_TYPE,
      'ReadGate: Review',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, localResourceRoots: [root], retainContextWhenHidden: true },
    );
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'icon.png');
    panel.webview.html = this.html(panel.webview, root);
    this.ready = false;
    const subscriptions = [
      panel.webview.onDidReceiveMessage((message: unknown) => {
        if (typeof message === 'object' && message !== null && (message as { type?: unknown }).type === 'ready') {
          this.ready = true;
          this.post({ type: 'requests', requests: this.latest });
          return;
        }
        this.onMessage(message);
      }),
      panel.onDidDispose(() => {
        for (const subscription of subscriptions) subscription.dispose();
        if (this.panel === panel) this.panel = undefined;
      }),
    ];
    this.panel = panel;
  }

  private html(webview: vscode.Webview, root: vscode.Uri): string {
    return approvalPanelHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(16).toString('base64'),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'approval.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(root, 'approval.css')).toString(),
    });
  }
}
