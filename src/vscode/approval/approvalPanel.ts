/**
 * The approval panel's owner: one webview panel per window, created on the first request that needs review,
 * opened beside the editor without taking focus (except for a change the user started: `showFocused`). Strict CSP with a per-load nonce; scripts and styles only
 * from our bundle (`dist/webview/`); `localResourceRoots` limited to it. State survives the panel being hidden
 * (the page keeps it with setState). Never posts after disposal.
 */
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import { Disposable } from '../util/dispose';
import { approvalPanelHtml } from './panelHtml';
import { widenPanelGroup } from './widenPanel';
import type { RequestView, ToWebview } from './protocol';

export const APPROVAL_VIEW_TYPE = 'readgate.approval';

export class ApprovalPanel extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private ready = false;
  private latest: RequestView[] = [];
  /** A focusRequest to deliver once the page is ready (a panel just created cannot take it yet). */
  private pendingFocus: Extract<ToWebview, { type: 'focusRequest' }> | undefined;

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
    this.update(requests, true);
    if (reveal) this.panel?.reveal(vscode.ViewColumn.Beside, true);
    if (this.panel) this.post({ type: 'requests', requests });
  }

  /**
   * Shows the pending requests and gives the panel keyboard focus on request `id` (its title): for a change the
   * user started, whose review is the next step of what they are doing.
   */
  showFocused(requests: RequestView[], id: string): void {
    const opening = !this.panel;
    this.update(requests, false);
    if (!this.panel) return;
    this.panel.reveal(vscode.ViewColumn.Beside, false);
    // Half of the editor's group is too narrow to review in: the new group gets a usable width.
    if (opening) void widenPanelGroup(this.panel);
    this.post({ type: 'requests', requests });
    this.post({ type: 'focusRequest', id, moveFocus: true });
  }

  /** Reveals the panel with focus and shows request `id` (the notification's "Review"). */
  focus(id: string): void {
    this.panel?.reveal(undefined, false);
    this.post({ type: 'focusRequest', id });
  }

  /** Closes the panel (nothing left to review). */
  close(): void {
    // Forgotten at once, not when its dispose event arrives: a change asked for right after must open a new panel.
    const panel = this.panel;
    this.panel = undefined;
    this.pendingFocus = undefined;
    this.ready = false;
    panel?.dispose();
  }

  private update(requests: RequestView[], preserveFocus: boolean): void {
    this.latest = requests;
    if (!this.panel && requests.length > 0 && !this.isDisposed) this.create(preserveFocus);
    if (this.panel) this.panel.title = requests.length ? `ReadGate: Review (${requests.length})` : 'ReadGate: Review';
  }

  private post(message: ToWebview): void {
    if (!this.panel || this.isDisposed) return;
    if (this.ready) void this.panel.webview.postMessage(message);
    else if (message.type === 'focusRequest') this.pendingFocus = message;
  }

  private create(preserveFocus: boolean): void {
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const panel = vscode.window.createWebviewPanel(
      APPROVAL_VIEW_TYPE,
      'ReadGate: Review',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus },
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
          const focus = this.pendingFocus;
          this.pendingFocus = undefined;
          if (focus && this.latest.some((request) => request.id === focus.id)) this.post(focus);
          return;
        }
        this.onMessage(message);
      }),
      panel.onDidDispose(() => {
        for (const subscription of subscriptions) subscription.dispose();
        if (this.panel === panel) {
          this.panel = undefined;
          this.pendingFocus = undefined;
        }
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
