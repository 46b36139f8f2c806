/**
 * Read-only report documents (session ledgers, statistics) under the `readgate-report:` scheme. Rendered on
 * demand from the guard, so reopening one shows the current state; never dirty, nothing to save.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { changedBy, type ChangeRecord, type ErrorCode, type Guard, type LedgerEntryView, type SessionStats } from '../../core/index';
import { agentLinesMarkdown, type MarkOf } from '../history/agentLines';
import { isStandaloneSession } from '../sessions/sessionKeys';
import { STANDALONE_CALLS_LABEL, type SessionLabels } from '../sessions/sessionLabels';
import { Disposable } from '../util/dispose';
import type { EndedRecord } from '../sessions/endedSessions';
import { addStats, emptyStats } from '../util/stats';
import { NO_SESSIONS_YET } from './emptyStates';
import { guardPathToUri } from '../util/paths';
import { markdownCode, markdownText } from '../util/markdownText';

export const REPORT_SCHEME = 'readgate-report';

/**
 * A session's ledger as Markdown (also streamed by the chat participant's `/ledger`, without the heading).
 * "Since then" names a change only when the content differs from what the session saw (decided by content).
 */
export async function ledgerMarkdown(guard: Guard, labels: SessionLabels, id: string, options: { heading: boolean } = { heading: true }): Promise<string> {
  const session = guard.hasSession(id) ? guard.session(id) : undefined;
  const entries: LedgerEntryView[] = session?.entries() ?? [];
  const stale = await Promise.all(
    entries.map((entry) =>
      entry.version === undefined || !session
        ? false
        : session.check(entry.path).then(
            (state) => state === 'stale',
            () => false,
          ),
    ),
  );
  const lines = options.heading ? [`# ReadGate ledger: ${markdownText(labels.labelOf(id))}`, '', `Session id: ${markdownCode(id)}`, ''] : [];
  if (entries.length === 0) return [...lines, 'This session has not seen any file yet.'].join('\n');
  lines.push('| file | lines seen | of | version | since then |', '|---|---|---|---|---|');
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    const version = entry.version ? `\`${entry.version.slice(0, 8)}\`` : 'seen missing';
    const since = stale[i] ? (entry.changedBy ? markdownText(`changed ${changedBy(entry.changedBy, id)}`) : 'changed') : '';
    lines.push(
      `| ${markdownText(vscode.workspace.asRelativePath(guardPathToUri(entry.path)))} | ${entry.seenText} | ${entry.totalLines} | ${version} | ${since} |`,
    );
  }
  return lines.join('\n');
}

function refusalsText(refusals: Partial<Record<ErrorCode, number>>): string {
  const parts = Object.entries(refusals).map(([code, count]) => `${code} ${count}`);
  return parts.length ? parts.join(', ') : 'none';
}

/**
 * One row per session, and one for all tool calls without a chat session together (each had a session of its
 * own for one call only; one row each would be a pile of one-call rows).
 */
function statisticsReport(guard: Guard, labels: SessionLabels, standaloneTotals: SessionStats | undefined, ended: readonly EndedRecord[]): string {
  const rows: [string, SessionStats][] = guard
    .sessionIds()
    .filter((id) => !isStandaloneSession(id))
    .map((id) => [labels.labelOf(id), guard.session(id).stats()]);
  // Ended sessions count for the window until the user clears them.
  for (const record of ended) rows.push([`${record.label} (ended)`, record.stats]);
  if (standaloneTotals) rows.push([STANDALONE_CALLS_LABEL, standaloneTotals]);
  const lines = ['# ReadGate statistics', ''];
  if (rows.length === 0) return [...lines, NO_SESSIONS_YET].join('\n');
  const total = emptyStats();
  lines.push('| session | reads | placeholder hits | est. tokens saved | changes applied | refusals |', '|---|---|---|---|---|---|');
  for (const [label, stats] of rows) {
    addStats(total, stats);
    lines.push(
      `| ${markdownText(label)} | ${stats.reads} | ${stats.placeholderHits} | ${stats.estimatedTokensSaved} | ${stats.mutations} | ${refusalsText(stats.refusals)} |`,
    );
  }
  lines.push(
    `| **all sessions in this window** | **${total.reads}** | **${total.placeholderHits}** | **${total.estimatedTokensSaved}** | **${total.mutations}** | ${refusalsText(total.refusals)} |`,
    '',
  );
  lines.push('Tokens saved are estimated at about 4 characters a token from the size of the content each placeholder stood for.');
  return lines.join('\n');
}

export class Reports extends Disposable implements vscode.TextDocumentContentProvider {
  constructor(
    private readonly guard: Guard,
    private readonly labels: SessionLabels,
    private readonly standaloneTotals: () => SessionStats | undefined = () => undefined,
    private readonly ended: () => readonly EndedRecord[] = () => [],
    private readonly history: () => Promise<ChangeRecord[]> = async () => [],
    /** The problems a recorded change introduced and resolved (`problemMarkStore.ts`). */
    private readonly markOf: MarkOf = () => undefined,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string | Promise<string> {
    const kind = path.posix.basename(uri.path, '.md');
    if (kind === 'statistics') return this.statistics();
    return ledgerMarkdown(this.guard, this.labels, decodeURIComponent(uri.query));
  }

  private async statistics(): Promise<string> {
    const report = statisticsReport(this.guard, this.labels, this.standaloneTotals(), this.ended());
    const records = await this.history().catch(() => []);
    return [report, ...agentLinesMarkdown(records, Date.now(), this.markOf)].join('\n');
  }

  private opened = 0;

  /**
   * Opens a report of the current state. Each opening is a document of its own (a fresh fragment): a report
   * still open from earlier would otherwise be shown with its old content while VS Code refetches it.
   */
  async open(kind: 'statistics' | 'ledger', sessionId?: string): Promise<vscode.TextEditor> {
    const document = await vscode.workspace.openTextDocument(this.uriOf(kind, sessionId));
    return vscode.window.showTextDocument(document, { preview: true, preserveFocus: false });
  }

  /** Opens a report as a rendered Markdown preview (tables read as tables); returns its Markdown. */
  async preview(kind: 'statistics' | 'ledger', sessionId?: string): Promise<string> {
    const document = await vscode.workspace.openTextDocument(this.uriOf(kind, sessionId));
    await vscode.commands.executeCommand('markdown.showPreview', document.uri);
    return document.getText();
  }

  private uriOf(kind: 'statistics' | 'ledger', sessionId?: string): vscode.Uri {
    return vscode.Uri.from({
      scheme: REPORT_SCHEME,
      path: `/${kind}.md`,
      query: sessionId ? encodeURIComponent(sessionId) : '',
      fragment: String(++this.opened),
    });
  }
}
