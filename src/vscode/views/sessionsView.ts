/**
 * The "Sessions" tree view: every guard session, and under each the files it has seen with the line ranges,
 * a short version tag, and a marker when someone changed the file since (and who, as far as it is known).
 * Refreshes on ledger changes (debounced: a burst of reads redraws once).
 */
import * as path from 'path';
import * as vscode from 'vscode';
import type { Guard, LedgerEntryView } from '../../core/index';
import type { SessionLabels } from '../sessionLabels';
import { Disposable } from '../util/dispose';
import { describeChange } from './changeWords';
import { guardPathToUri } from '../util/paths';

export const SESSIONS_VIEW_ID = 'readgate.sessions';

export type SessionsNode = { kind: 'session'; id: string } | { kind: 'file'; sessionId: string; entry: LedgerEntryView };

export class SessionsView extends Disposable implements vscode.TreeDataProvider<SessionsNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<SessionsNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private refreshTimer: NodeJS.Timeout | undefined;
  readonly view: vscode.TreeView<SessionsNode>;

  constructor(
    private readonly guard: () => Guard,
    private readonly labels: SessionLabels,
  ) {
    super();
    this.view = this._register(vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }));
    const unsubscribe = guard().onDidChangeLedger(() => this.scheduleRefresh());
    this._register(new vscode.Disposable(() => {
      unsubscribe();
      if (this.refreshTimer) clearTimeout(this.refreshTimer);
    }));
  }

  refresh(): void {
    this._onDidChangeTreeData.fire(undefined);
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer || this.isDisposed) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (!this.isDisposed) this.refresh();
    }, 150);
  }

  getChildren(node?: SessionsNode): SessionsNode[] {
    const guard = this.guard();
    if (!node) return guard.sessionIds().map((id) => ({ kind: 'session', id }));
    if (node.kind === 'file') return [];
    // Most recently used first.
    return guard.session(node.id).entries().reverse().map((entry) => ({ kind: 'file', sessionId: node.id, entry }));
  }

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    if (node.kind === 'session') {
      const session = this.guard().session(node.id);
      const stats = session.stats();
      const files = session.entries().length;
      const item = new vscode.TreeItem(this.labels.labelOf(node.id), vscode.TreeItemCollapsibleState.Expanded);
      item.id = `session:${node.id}`;
      item.description = `${files} file${files === 1 ? '' : 's'} · ${stats.reads} read${stats.reads === 1 ? '' : 's'}`;
      item.tooltip = new vscode.MarkdownString(`**${this.labels.labelOf(node.id)}**\n\nSession id: \`${node.id}\`\n\nReads ${stats.reads} (${stats.placeholderHits} answered with the unchanged placeholder, ~${stats.estimatedTokensSaved} tokens saved) · changes applied ${stats.mutations}`);
      item.contextValue = 'readgate.session';
      item.iconPath = new vscode.ThemeIcon('comment-discussion');
      return item;
    }
    const { entry } = node;
    const item = new vscode.TreeItem(path.basename(entry.path), vscode.TreeItemCollapsibleState.None);
    item.id = `file:${node.sessionId}:${entry.path}`;
    item.resourceUri = guardPathToUri(entry.path);
    const parts = entry.version === undefined ? ['seen missing'] : [`lines ${entry.seenText} of ${entry.totalLines}`, entry.version.slice(0, 7)];
    if (entry.changedBy) parts.push(`changed by ${describeChange(entry.changedBy)}`);
    item.description = parts.join(' · ');
    item.tooltip = new vscode.MarkdownString(
      `${vscode.workspace.asRelativePath(guardPathToUri(entry.path))}\n\n` +
        (entry.version === undefined ? 'The session saw this path missing.' : `Seen: lines ${entry.seenText} of ${entry.totalLines} (version \`${entry.version}\`)`) +
        (entry.changedBy ? `\n\n$(warning) Changed since by ${describeChange(entry.changedBy)}: the agent must see the change before editing those lines.` : ''),
      true,
    );
    item.contextValue = entry.version === undefined ? 'readgate.missingFile' : 'readgate.file';
    if (entry.changedBy) item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
    if (entry.version !== undefined) item.command = { command: 'readgate.revealSeenRange', title: 'Reveal Seen Lines', arguments: [node] };
    return item;
  }
}
