/**
 * The "Agent Changes" tree view: every change on record, sessions → changes → files, newest first (the model is
 * `historyTree.ts`). A file opens the diff editor on what the change did to it, and so does a change of one file
 * (its file needs no extra click). A change that introduced problems is marked (`problemMarkStore.ts`); one whose
 * revert is in effect says "reverted", a revert that was undone "undone" (`revertMarks.ts`, over what the files
 * hold now: an unsaved buffer counts, so the view redraws when one of their documents changes or closes).
 * Redraws when a change is recorded or marked (a burst redraws once, and a hidden view catches up when shown). While the history is empty the view shows its welcome, which the
 * `readgate.agentChanges.state` context key selects: `empty` once a listing found nothing, `off` when the
 * extension has nowhere to keep the history; no welcome while the first listing runs.
 */
import * as vscode from 'vscode';
import type { ChangedFile, ChangeRecord } from '../../core/index';
import { COMMAND_IDS } from '../commandIds';
import { Disposable } from '../util/dispose';
import { VisibleRefresh } from '../views/visibleRefresh';
import { markdownText } from '../util/markdownText';
import { guardPathToUri } from '../util/paths';
import { type ChangeContext, changeText, fileText, groupBySession, type ItemText, type SessionGroup, sessionText } from './historyTree';
import type { HistorySource } from './historySource';
import { type ChangeProblems, problemsMarkText } from './problemMarks';
import { pathsToCheck, type RevertMarks, revertMarks } from './revertMarks';

export const AGENT_CHANGES_VIEW_ID = 'readgate.agentChanges';
export const AGENT_CHANGES_STATE_KEY = 'readgate.agentChanges.state';

export type AgentChangesNode =
  /** `newest`: the session of the newest change, shown expanded. */
  | { kind: 'session'; group: SessionGroup; newest: boolean }
  | { kind: 'change'; record: ChangeRecord; context: Omit<ChangeContext, 'problems' | 'display'> }
  | { kind: 'file'; record: ChangeRecord; file: ChangedFile; index: number };

const REFRESH_INTERVAL_MS = 300;

/** The problems marks (`problemMarkStore.ts`), as the view reads them. */
export interface ProblemMarks {
  get(recordId: string): ChangeProblems | undefined;
  readonly onDidChange: vscode.Event<void>;
}

const SURFACE_ICONS: Record<string, string> = { chat: 'comment-discussion', tool: 'tools', mcp: 'plug', api: 'extensions', palette: 'account' };

function tooltip(text: ItemText): vscode.MarkdownString {
  const [first, ...rest] = text.tooltip;
  return new vscode.MarkdownString([`**${markdownText(first ?? '')}**`, ...rest.map(markdownText)].join('\n\n'));
}

/**
 * A change's icon: a revert's, a reverted change's, or a change's; a change with new problems keeps it, in the
 * Problems panel's colour. The icon shows at any width, where the description may be cut.
 */
function changeIcon(node: Extract<AgentChangesNode, { kind: 'change' }>, problems: ChangeProblems | undefined): vscode.ThemeIcon {
  const color = problemsMarkText(problems)
    ? new vscode.ThemeColor(problems?.errors ? 'problemsErrorIcon.foreground' : 'problemsWarningIcon.foreground')
    : undefined;
  const name = node.record.revertOf !== undefined ? 'discard' : node.context.reverted ? 'circle-slash' : 'git-commit';
  return new vscode.ThemeIcon(name, color ?? (node.context.undone ? new vscode.ThemeColor('disabledForeground') : undefined));
}

export class AgentChangesView extends Disposable implements vscode.TreeDataProvider<AgentChangesNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<AgentChangesNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  readonly view: vscode.TreeView<AgentChangesNode>;
  private listing: Promise<ChangeRecord[]> | undefined;
  private marking: Promise<RevertMarks> | undefined;
  /** The documents (URIs) whose text the revert marks depend on. */
  private watched = new Set<string>();
  private readonly refresher: VisibleRefresh;

  /** `history` undefined: the extension has nowhere to keep it (the view says so). */
  constructor(
    private readonly history: HistorySource | undefined,
    private readonly display: (path: string) => string,
    private readonly marks?: ProblemMarks,
  ) {
    super();
    this.view = this._register(vscode.window.createTreeView(AGENT_CHANGES_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }));
    this.refresher = this._register(new VisibleRefresh(this.view, REFRESH_INTERVAL_MS, () => this._onDidChangeTreeData.fire(undefined)));
    if (marks) this._register(marks.onDidChange(() => this.refresher.schedule()));
    // Undo in an unsaved buffer, or closing it without saving, can take a revert back: the marks are asked again.
    const textChanged = (document: vscode.TextDocument): void => {
      if (!this.watched.has(document.uri.toString())) return;
      this.marking = undefined;
      this.refresher.schedule();
    };
    this._register(vscode.workspace.onDidChangeTextDocument((event) => event.contentChanges.length && textChanged(event.document)));
    this._register(vscode.workspace.onDidCloseTextDocument(textChanged));
    if (history) {
      const unsubscribe = history.onDidRecord(() => this.scheduleRefresh());
      this._register(new vscode.Disposable(unsubscribe));
    } else {
      void vscode.commands.executeCommand('setContext', AGENT_CHANGES_STATE_KEY, 'off');
    }
  }

  /** Lists the records again and redraws. */
  refresh(): void {
    this.listing = undefined;
    this.marking = undefined;
    this._onDidChangeTreeData.fire(undefined);
  }

  private scheduleRefresh(): void {
    this.listing = undefined;
    this.marking = undefined;
    this.refresher.schedule();
  }

  /** Which changes are reverted now and which reverts undone, from what their files hold now. */
  private revertMarks(records: ChangeRecord[]): Promise<RevertMarks> {
    this.marking ??= (async () => {
      const paths = pathsToCheck(records);
      this.watched = new Set(paths.map((path) => guardPathToUri(path).toString()));
      const versions = this.history?.versionsNow ? await this.history.versionsNow(paths) : new Map<string, string | null>();
      return revertMarks(records, (path) => versions.get(path));
    })();
    return this.marking;
  }

  private async changeNodes(group: SessionGroup, records: ChangeRecord[]): Promise<AgentChangesNode[]> {
    const marks = await this.revertMarks(records);
    const byId = new Map(records.map((record) => [record.id, record]));
    return group.changes.map((record) => {
      const reverted = marks.reverted.get(record.id);
      const revertOf = record.revertOf === undefined ? undefined : byId.get(record.revertOf);
      return {
        kind: 'change',
        record,
        context: { ...(reverted ? { reverted } : {}), ...(marks.undone.has(record.id) ? { undone: true } : {}), ...(revertOf ? { revertOf } : {}) },
      };
    });
  }

  private records(): Promise<ChangeRecord[]> {
    if (!this.history) return Promise.resolve([]);
    this.listing ??= this.history.list().then((records) => {
      void vscode.commands.executeCommand('setContext', AGENT_CHANGES_STATE_KEY, records.length ? 'listed' : 'empty');
      return records;
    });
    return this.listing;
  }

  async getChildren(node?: AgentChangesNode): Promise<AgentChangesNode[]> {
    const records = await this.records();
    if (!node) return groupBySession(records).map((group, i) => ({ kind: 'session', group, newest: i === 0 }));
    if (node.kind === 'session') return this.changeNodes(node.group, records);
    if (node.kind === 'change') return node.record.files.map((file, index) => ({ kind: 'file', record: node.record, file, index }));
    return [];
  }

  getTreeItem(node: AgentChangesNode): vscode.TreeItem {
    const now = Date.now();
    if (node.kind === 'session') {
      const text = sessionText(node.group, now);
      const item = new vscode.TreeItem(text.label, node.newest ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      return this.dress(item, `history-session:${node.group.sessionId}`, text, new vscode.ThemeIcon(SURFACE_ICONS[node.group.surface] ?? 'history'));
    }
    if (node.kind === 'change') {
      const problems = this.marks?.get(node.record.id);
      const text = changeText(node.record, now, { ...node.context, ...(problems ? { problems } : {}), display: this.display });
      const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.Collapsed);
      // A change of one file opens it at once; it still expands, to its file's own commands.
      const [only] = node.record.files;
      if (node.record.files.length === 1) {
        item.command = {
          command: COMMAND_IDS.openAgentChange,
          title: 'Open Changes',
          arguments: [{ kind: 'file', record: node.record, file: only, index: 0 } satisfies AgentChangesNode],
        };
      }
      return this.dress(item, `history-change:${node.record.id}`, text, changeIcon(node, problems));
    }
    const text = fileText(node.file, this.display);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    item.resourceUri = guardPathToUri(node.file.path);
    item.command = { command: COMMAND_IDS.openAgentChange, title: 'Open Changes', arguments: [node] };
    return this.dress(item, `history-file:${node.record.id}:${node.index}`, text);
  }

  private dress(item: vscode.TreeItem, id: string, text: ItemText, icon?: vscode.ThemeIcon): vscode.TreeItem {
    item.id = id;
    item.description = text.description;
    item.tooltip = tooltip(text);
    item.contextValue = text.contextValue;
    if (icon) item.iconPath = icon;
    return item;
  }
}
