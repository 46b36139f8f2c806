/**
 * The "Sessions" tree view: every guard session, and under each the files it has seen with the line ranges,
 * a short version tag, and a marker when the file's content changed since (and who changed it, as far as the
 * watchers know). Staleness is decided by content (`check`), never by a watcher event alone: an event's echo
 * must not flag a file nobody changed. Refreshes on ledger changes and on every change observed to a file a
 * session has seen, ReadGate's own writes included (debounced: a burst redraws once).
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { changedBy, type Guard, type LedgerEntryView, type SessionStats } from '../../core/index';
import { isStandaloneSession } from '../sessions/sessionKeys';
import type { SessionLabels } from '../sessions/sessionLabels';
import { Disposable } from '../util/dispose';
import { VisibleRefresh } from './visibleRefresh';
import { guardPathToUri } from '../util/paths';
import { markdownCode, markdownText } from '../util/markdownText';
import { sessionFiles } from './sessionFiles';
import { contextName, fileDescription, plural, sessionDescription, sessionWhen } from './sessionWords';
import type { EndedSessions } from '../sessions/endedSessions';
import { COMMAND_IDS } from '../commandIds';

export const SESSIONS_VIEW_ID = 'readgate.sessions';

const NO_STATS: SessionStats = { reads: 0, contentReads: 0, placeholderHits: 0, deltaReads: 0, estimatedTokensSaved: 0, mutations: 0, refusals: {} };

export type SessionsNode =
  | { kind: 'session'; id: string }
  | { kind: 'file'; sessionId: string; entry: LedgerEntryView; stale?: boolean; ended?: true }
  | { kind: 'more'; sessionId: string; count: number }
  | { kind: 'ended' }
  | { kind: 'endedSession'; id: string };

/** Shortest time between two redraws of the view. */
const REFRESH_INTERVAL_MS = 400;

export class SessionsView extends Disposable implements vscode.TreeDataProvider<SessionsNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<SessionsNode | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  readonly view: vscode.TreeView<SessionsNode>;
  private readonly refresher: VisibleRefresh;

  constructor(
    private readonly guard: Guard,
    private readonly labels: SessionLabels,
    /** Every change the watcher observed, ReadGate's own and their echoes included (it rechecks by content). */
    onDidObserveChange: vscode.Event<vscode.Uri>,
    private readonly ended?: EndedSessions,
    /** ReadGate's own writes (a revert's among them), said once they are over: a watcher may drop their echo. */
    onDidWrite?: vscode.Event<string>,
  ) {
    super();
    this.view = this._register(vscode.window.createTreeView(SESSIONS_VIEW_ID, { treeDataProvider: this, showCollapseAll: true }));
    this.refresher = this._register(new VisibleRefresh(this.view, REFRESH_INTERVAL_MS, () => this.refresh()));
    if (ended) this._register(ended.onDidChange(() => this.scheduleRefresh()));
    // Not only the changes noted as someone else's: an echo of ReadGate's own write is ignored there, and a
    // file written back to what an agent saw must lose its marker as soon as it is.
    this._register(onDidObserveChange((uri) => this.fileChanged(uri.fsPath)));
    if (onDidWrite) this._register(onDidWrite((path) => this.fileChanged(path)));
    const unsubscribe = guard.onDidChangeLedger(() => this.scheduleRefresh());
    this._register(new vscode.Disposable(unsubscribe));
  }

  refresh(): void {
    this._onDidChangeTreeData.fire(undefined);
  }

  /** A file changed: redraw if a live session has seen it (typing in other files costs a lookup, no redraw). */
  private fileChanged(path: string): void {
    const seen = this.guard.sessionIds().some(
      (id) =>
        !isStandaloneSession(id) &&
        this.guard
          .session(id)
          .entries()
          .some((entry) => entry.path === path),
    );
    if (seen) this.scheduleRefresh();
  }

  /** A redraw checks files by content: at most a few a second, and only while the view is visible. */
  private scheduleRefresh(): void {
    this.refresher.schedule();
  }

  async getChildren(node?: SessionsNode): Promise<SessionsNode[]> {
    const guard = this.guard;
    // A tool call without a chat session has a session for that call only: not one to list.
    if (!node) {
      const live: SessionsNode[] = this.topLevel().map((id) => ({ kind: 'session', id }));
      return this.ended?.list().length ? [...live, { kind: 'ended' }] : live;
    }
    if (node.kind === 'ended') return (this.ended?.list() ?? []).map((record) => ({ kind: 'endedSession', id: record.id }));
    if (node.kind === 'endedSession') {
      // What it had seen when it ended: no longer checked against the files (it can act no more).
      const { listed } = sessionFiles(this.ended?.get(node.id)?.entries ?? []);
      return listed.map((entry) => ({ kind: 'file', sessionId: node.id, entry, ended: true }));
    }
    if (node.kind !== 'session') return [];
    // Agent contexts first (a subagent's ledger under its client's session), then the session's own files.
    const parts: SessionsNode[] = this.partsOf(node.id).map((id) => ({ kind: 'session', id }));
    // A node drawn before its session was dropped: looking must not bring the session back.
    if (!guard.hasSession(node.id)) return parts;
    const session = guard.session(node.id);
    const { listed, checked, more } = sessionFiles(session.entries());
    const states = await Promise.all(
      listed.map((entry, index) => (entry.version === undefined || index >= checked ? 'unknown' : session.check(entry.path).catch(() => 'unknown'))),
    );
    const files: SessionsNode[] = listed.map((entry, index) => ({ kind: 'file', sessionId: node.id, entry, stale: states[index] === 'stale' }));
    if (more > 0) files.push({ kind: 'more', sessionId: node.id, count: more });
    return [...parts, ...files];
  }

  /** The live sessions that are parts of `parent` (agent contexts, subagents). */
  private partsOf(parent: string): string[] {
    return this.guard.sessionIds().filter((id) => this.labels.parentOf(id) === parent);
  }

  /** Live sessions that are not part of another, and the MCP sessions whose agent contexts are live. */
  private topLevel(): string[] {
    const ids = new Set<string>();
    for (const id of this.guard.sessionIds()) {
      if (isStandaloneSession(id)) continue;
      ids.add(this.labels.parentOf(id) ?? id);
    }
    return [...ids];
  }

  getTreeItem(node: SessionsNode): vscode.TreeItem {
    switch (node.kind) {
      case 'session':
        return this.sessionItem(node.id);
      case 'ended':
        return this.endedGroupItem();
      case 'endedSession':
        return this.endedSessionItem(node.id);
      case 'more': {
        const item = new vscode.TreeItem(`… ${plural(node.count, 'more file')}`, vscode.TreeItemCollapsibleState.None);
        item.id = `more:${node.sessionId}`;
        item.tooltip = 'Open the session’s full ledger';
        item.command = { command: COMMAND_IDS.showLedger, title: 'Show Session Ledger', arguments: [{ kind: 'session', id: node.sessionId }] };
        return item;
      }
      case 'file':
        return fileItem(node);
    }
  }

  /** How many sessions, live or ended, go by each name: a name shown twice needs its time to be told apart. */
  private sharesName(label: string): boolean {
    const live = this.guard.sessionIds().filter((id) => !isStandaloneSession(id) && this.labels.labelOf(id) === label).length;
    const ended = (this.ended?.list() ?? []).filter((record) => record.label === label).length;
    return live + ended > 1;
  }

  private sessionItem(id: string): vscode.TreeItem {
    const session = this.guard.hasSession(id) ? this.guard.session(id) : undefined;
    const stats = session?.stats() ?? NO_STATS;
    const label = this.labels.labelOf(id);
    // Under its client's session, an agent context is named by its part alone ("subagent Explore").
    const item = new vscode.TreeItem(this.labels.parentOf(id) ? contextName(label).name : label, vscode.TreeItemCollapsibleState.Expanded);
    item.id = `session:${id}`;
    const contexts = this.partsOf(id).length;
    const when = session && this.sharesName(label) ? sessionWhen(session.startedAt) : undefined;
    const counts = contexts === 0 || session ? { files: session?.entries().length ?? 0, reads: stats.reads } : undefined;
    item.description = sessionDescription({ when, contexts, counts });
    const saved = `${stats.placeholderHits} answered with the unchanged placeholder, ${stats.deltaReads} with only what changed, ~${stats.estimatedTokensSaved} tokens saved`;
    const started = session ? ` (started ${new Date(session.startedAt).toLocaleTimeString()})` : '';
    item.tooltip = new vscode.MarkdownString(
      `**${markdownText(label)}**${started}\n\nSession id: ${markdownCode(id)}\n\nReads ${stats.reads} (${saved}) · changes applied ${stats.mutations}`,
    );
    item.contextValue = 'readgate.session';
    item.iconPath = new vscode.ThemeIcon('comment-discussion');
    return item;
  }

  private endedGroupItem(): vscode.TreeItem {
    const item = new vscode.TreeItem('Ended sessions', vscode.TreeItemCollapsibleState.Collapsed);
    item.id = 'ended';
    item.description = `${this.ended?.list().length ?? 0}`;
    item.tooltip =
      'Sessions that ended (a chat that went idle, an MCP client that disconnected, an Apply Patch run), with what each read and changed. They stay until you clear them.';
    item.contextValue = 'readgate.endedSessions';
    item.iconPath = new vscode.ThemeIcon('history');
    return item;
  }

  private endedSessionItem(id: string): vscode.TreeItem {
    const record = this.ended?.get(id);
    const stats = record?.stats ?? NO_STATS;
    const label = record?.label ?? id;
    // An agent context by its own name first: the default side bar width cuts the end of a row.
    const { name, client } = contextName(label);
    const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `ended:${id}`;
    const when = record && this.sharesName(label) ? sessionWhen(record.startedAt, record.endedAt) : undefined;
    item.description = sessionDescription({
      client,
      own: record?.own,
      when,
      counts: { files: record?.entries.length ?? 0, reads: stats.reads, changes: stats.mutations },
    });
    const ran = record ? ` (started ${new Date(record.startedAt).toLocaleTimeString()}, ended ${new Date(record.endedAt).toLocaleTimeString()})` : '';
    item.tooltip = new vscode.MarkdownString(
      `**${markdownText(label)}**${ran}\n\nSession id: ${markdownCode(id)}\n\nReads ${stats.reads} · changes applied ${stats.mutations}`,
    );
    item.contextValue = 'readgate.endedSession';
    item.iconPath = new vscode.ThemeIcon(record?.own ? 'diff-single' : 'comment-discussion');
    return item;
  }
}

/** A file a session has seen: who changed it since (first, as the row's essential words), then what was seen. */
function fileItem(node: Extract<SessionsNode, { kind: 'file' }>): vscode.TreeItem {
  const { entry } = node;
  const item = new vscode.TreeItem(path.basename(entry.path), vscode.TreeItemCollapsibleState.None);
  item.id = `${node.ended ? 'ended-file' : 'file'}:${node.sessionId}:${entry.path}`;
  item.resourceUri = guardPathToUri(entry.path);
  const changed = node.stale ? (entry.changedBy ? `changed ${changedBy(entry.changedBy, node.sessionId)}` : 'changed since') : undefined;
  item.description = fileDescription({ seenText: entry.seenText, totalLines: entry.totalLines, missing: entry.version === undefined }, changed);
  item.tooltip = new vscode.MarkdownString(
    `${markdownText(vscode.workspace.asRelativePath(guardPathToUri(entry.path)))}\n\n` +
      (entry.version === undefined
        ? 'The session saw this path missing.'
        : `Seen: lines ${entry.seenText} of ${entry.totalLines} (version \`${entry.version}\`)`) +
      (changed
        ? `\n\n$(warning) ${markdownText(`${changed[0].toUpperCase()}${changed.slice(1)}`)}: the agent must see the change before editing the lines it touched.`
        : ''),
    true,
  );
  item.contextValue = entry.version === undefined ? 'readgate.missingFile' : 'readgate.file';
  if (changed) item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
  if (entry.version !== undefined) item.command = { command: COMMAND_IDS.revealSeenRange, title: 'Reveal Seen Lines', arguments: [node] };
  return item;
}
