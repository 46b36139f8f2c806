/**
 * Read-only report documents (session ledgers, statistics) under the `readgate-report:` scheme. Rendered on
 * demand from the guard, so reopening one shows the current state; never dirty, nothing to save.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import type { ErrorCode, Guard, LedgerEntryView, SessionStats } from '../../core/index';
import { describeChange } from '../views/changeWords';
import type { SessionLabels } from '../sessionLabels';
import { Disposable } from '../util/dispose';
import { guardPathToUri } from '../util/paths';

export const REPORT_SCHEME = 'readgate-report';

/**
 * A session's ledger as Markdown (also streamed by the chat participant's `/ledger`, without the heading).
 * "Since then" names a change only when the content differs from what the session saw (decided by content).
 */
export async function ledgerMarkdown(guard: Guard, labels: SessionLabels, id: string, options: { heading: boolean } = { heading: true }): Promise<string> {
  const session = guard.hasSession(id) ? guard.session(id) : undefined;
  const entries: LedgerEntryView[] = session?.entries() ?? [];
  const stale = await Promise.all(entries.map((entry) => (entry.version === undefined || !session ? false : session.check(entry.path).then((state) => state === 'stale', () => false))));
  const lines = options.heading ? [`# ReadGate ledger: ${labels.labelOf(id)}`, '', `Session id: \`${id}\``, ''] : [];
  if (entries.length === 0) return [...lines, 'This session has not seen any file yet.'].join('\n');
  lines.push('| file | lines seen | of | version | since then |', '|---|---|---|---|---|');
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i];
    const version = entry.version ? `\`${entry.version.slice(0, 8)}\`` : 'seen missing';
    const since = stale[i] ? (entry.changedBy ? `changed ${describeChange(entry.changedBy)}` : 'changed') : '';
    lines.push(`| ${vscode.workspace.asRelativePath(guardPathToUri(entry.path))} | ${entry.seenText} | ${entry.totalLines} | ${version} | ${since} |`);
  }
  return lines.join('\n');
}

function refusalsText(refusals: Partial<Record<ErrorCode, number>>): string {
  const parts = Object.entries(refusals).map(([code, count]) => `${code} ${count}`);
  return parts.length ? parts.join(', ') : 'none';
}

function statisticsReport(guard: Guard, labels: SessionLabels): string {
  const ids = guard.sessionIds();
  const lines = ['# ReadGate statistics', ''];
  if (ids.length === 0) return [...lines, 'No agent session has used ReadGate yet in this window.'].join('\n');
  const total: SessionStats = { reads: 0, contentReads: 0, placeholderHits: 0, estimatedTokensSaved: 0, mutations: 0, refusals: {} };
  lines.push('| session | reads | placeholder hits | est. tokens saved | changes applied | refusals |', '|---|---|---|---|---|---|');
  for (const id of ids) {
    const stats = guard.session(id).stats();
    total.reads += stats.reads;
    total.contentReads += stats.contentReads;
    total.placeholderHits += stats.placeholderHits;
    total.estimatedTokensSaved += stats.estimatedTokensSaved;
    total.mutations += stats.mutations;
    for (const [code, count] of Object.entries(stats.refusals) as [ErrorCode, number][]) total.refusals[code] = (total.refusals[code] ?? 0) + count;
    lines.push(`| ${labels.labelOf(id)} | ${stats.reads} | ${stats.placeholderHits} | ${stats.estimatedTokensSaved} | ${stats.mutations} | ${refusalsText(stats.refusals)} |`);
  }
  lines.push(`| **all sessions** | **${total.reads}** | **${total.placeholderHits}** | **${total.estimatedTokensSaved}** | **${total.mutations}** | ${refusalsText(total.refusals)} |`, '');
  lines.push('Tokens saved are estimated at about 4 characters a token from the size of the content each placeholder stood for.');
  return lines.join('\n');
}

export class Reports extends Disposable implements vscode.TextDocumentContentProvider {

  constructor(
    private readonly guard: Guard,
    private readonly labels: SessionLabels,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string | Promise<string> {
    const kind = path.posix.basename(uri.path, '.md');
    if (kind === 'statistics') return statisticsReport(this.guard, this.labels);
    return ledgerMarkdown(this.guard, this.labels, decodeURIComponent(uri.query));
  }

  private opened = 0;

  /**
   * Opens a report of the current state. Each opening is a document of its own (a fresh fragment): a report
   * still open from earlier would otherwise be shown with its old content while VS Code refetches it.
   */
  async open(kind: 'statistics' | 'ledger', sessionId?: string): Promise<vscode.TextEditor> {
    const uri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `/${kind}.md`, query: sessionId ? encodeURIComponent(sessionId) : '', fragment: String(++this.opened) });
    const document = await vscode.workspace.openTextDocument(uri);
    return vscode.window.showTextDocument(document, { preview: true, preserveFocus: false });
  }
}
