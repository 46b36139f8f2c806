/**
 * The approval gate: the guard's `approve` port in VS Code. Decides by policy whether a change
 * needs review; if so, queues it in the approval panel (opened beside the editor, with a status bar reminder
 * while an agent's change waits) and resolves with what the user decided (approve, approve with some hunks
 * rejected, reject with a reason). A cancelled call leaves the queue at once. A change the user started (a
 * palette action, `isUsersOwnSession`) gets the panel's focus instead, as the next step of what the user is
 * doing, and gives it back to the editor it came from once decided; an agent's change never takes focus. If a file changes while its change is under review, the request says so: approving
 * it is then refused by the guard, which never applies an outdated diff.
 *
 * A revert from the change history is always reviewed. Its conflicts (lines changed since that it would
 * restore) are shown with it, and an approval takes its merged parts only when the user chose "Take the Merged
 * Parts" (`takeMerged`): any other approval message for it is ignored. Every approval says who gave it
 * (`approvedBy`: the user, a session's grant or the policy), which the change history records.
 */
import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import { type ApprovalDecision, type ApprovalRequest, type Guard, indexLines } from '../../core/index';
import type { Config } from '../config';
import type { Log } from '../log';
import { isStandaloneSession, isUsersOwnSession } from '../sessions/sessionKeys';
import type { SessionLabels } from '../sessions/sessionLabels';
import { Disposable } from '../util/dispose';
import { guardPathToUri } from '../util/paths';
import { decideApproval } from './approvalPolicy';
import { ApprovalPanel } from './approvalPanel';
import { type ConflictInput, conflictViews } from './conflictModel';
import { parseWebviewMessage } from './messageValidation';
import type { ConflictView, FromWebview, RequestView } from './protocol';
import { Proposals } from './proposals';
import { ReviewStatus } from './reviewStatus';
import { COMMAND_IDS } from '../commandIds';
import { type ReviewFile, approvalWith, requestView, reviewFile } from './reviewModel';

/**
 * Which sessions wait for the user's review, for surfaces that tell their clients so while they wait (MCP's
 * progress notifications).
 */
export interface ReviewWaits {
  /** The files (as the panel names them) of the changes this session has waiting for review; empty when none. */
  waitingFiles(sessionId: string): string[];
  /** A session's waiting changes came or went (its id). */
  readonly onDidChangeWaiting: vscode.Event<string>;
}

interface Pending {
  id: string;
  request: ApprovalRequest;
  files: ReviewFile[];
  /** A revert's conflicts, as the panel shows them (empty: none). */
  conflicts: ConflictView[];
  /** The change is a revert (`Guard.revert`). */
  revert: boolean;
  notice?: string;
  revision: number;
  /** A refresh is running (further change events wait for it). */
  refreshing: boolean;
  /** The user's own change: the editor that had focus when it was asked for, which gets it back after the decision. */
  returnTo?: { uri: vscode.Uri; viewColumn: vscode.ViewColumn | undefined };
  resolve(decision: ApprovalDecision): void;
}

export class ApprovalService extends Disposable implements ReviewWaits {
  private readonly pending = new Map<string, Pending>();
  private readonly _onDidChangeWaiting = this._register(new vscode.EventEmitter<string>());
  readonly onDidChangeWaiting = this._onDidChangeWaiting.event;
  private readonly grants = new Map<string, Set<string>>();
  private readonly panel: ApprovalPanel;
  private readonly proposals = this._register(new Proposals());
  private readonly status: ReviewStatus;
  /** The guard this gate is the approve port of (see `serve`). */
  private guard: Guard | undefined;

  /** `onDidObserveChange` is the change watcher's unfiltered event (typing, saves, other writers, our own edits). */
  constructor(
    extensionUri: vscode.Uri,
    private readonly config: Config,
    private readonly labels: SessionLabels,
    private readonly log: Log,
    onDidObserveChange: vscode.Event<vscode.Uri>,
  ) {
    super();
    this.panel = this._register(new ApprovalPanel(extensionUri, (message) => this.handle(message)));
    this.status = this._register(new ReviewStatus(COMMAND_IDS.reviewPending));
    this._register(onDidObserveChange((uri) => this.noticeChange(uri)));
    this._register(
      new vscode.Disposable(() => {
        for (const entry of this.pending.values()) entry.resolve({ approved: false, reason: 'ReadGate was shut down before the change was reviewed' });
        this.pending.clear();
      }),
    );
  }

  /** The guard's approve port. */
  readonly approve = async (request: ApprovalRequest): Promise<ApprovalDecision> => {
    const revert = request.operation === 'revert';
    const current = this.config.current;
    const need = decideApproval({
      mode: current.approvalMode,
      trusted: vscode.workspace.isTrusted,
      protectedGlobs: current.protectedGlobs,
      files: request.files.flatMap((file) => {
        const removesOrMoves = file.deleted === true || file.movedTo !== undefined;
        const source = { path: file.path, relative: this.relative(file.path), removesOrMoves };
        return file.movedTo !== undefined ? [source, { path: file.movedTo, relative: this.relative(file.movedTo), removesOrMoves }] : [source];
      }),
      granted: this.grants.get(request.sessionId) ?? new Set(),
      revert,
    });
    if (!need.ask) return { approved: true, approvedBy: need.by };
    // An agent's own tool decides this change's result as it writes it: there is nothing to show for review.
    if (request.ownTool?.preview === false) return { approved: false, reason: need.why };
    if (request.signal.aborted) return { approved: false, reason: 'cancelled' };
    return new Promise<ApprovalDecision>((resolve) => this.enqueue(request, revert, need.why, resolve));
  };

  /** Holds a change for review and shows it: focused for the user's own change, beside the editor for an agent's. */
  private enqueue(request: ApprovalRequest, revert: boolean, why: string | undefined, resolve: (decision: ApprovalDecision) => void): void {
    const id = randomUUID();
    const files = request.files.map((file) => reviewFile(file, (path) => this.display(path)));
    const conflicts = this.conflictsOf(request.conflicts, request.files);
    const own = isUsersOwnSession(request.sessionId);
    const active = own ? vscode.window.activeTextEditor : undefined;
    const returnTo = active ? { uri: active.document.uri, viewColumn: active.viewColumn } : undefined;
    const entry: Pending = {
      id,
      request,
      files,
      conflicts,
      revert,
      revision: 0,
      refreshing: false,
      ...(returnTo ? { returnTo } : {}),
      resolve: (decision) => this.settle(id, resolve, decision),
    };
    this.pending.set(id, entry);
    request.signal.addEventListener('abort', () => entry.resolve({ approved: false, reason: 'cancelled' }), { once: true });
    this.log.info('[approval] review requested', { session: request.sessionId, request: id, files: files.length, why, own });
    if (own) this.panel.showFocused(this.views(), id);
    else this.refresh(true);
    this.showStatus();
    this._onDidChangeWaiting.fire(request.sessionId);
  }

  /** The status bar's reminder: agents' changes that wait (the user's own are on the screen already). */
  private showStatus(): void {
    const agents = [...this.pending.values()].filter((entry) => !isUsersOwnSession(entry.request.sessionId));
    this.status.show(agents.map((entry) => ({ who: this.labels.labelOf(entry.request.sessionId), files: entry.files.map((file) => this.display(file.path)) })));
  }

  waitingFiles(sessionId: string): string[] {
    const files = [...this.pending.values()]
      .filter((entry) => entry.request.sessionId === sessionId)
      .flatMap((entry) => entry.files.map((file) => this.display(file.path)));
    return [...new Set(files)];
  }

  /** The requests waiting for review, as the panel shows them. */
  views(): RequestView[] {
    return [...this.pending.values()].map((entry) => {
      const { sessionId } = entry.request;
      return requestView(entry.id, this.labels.labelOf(sessionId), entry.request, entry.files, {
        notice: entry.notice,
        revision: entry.revision,
        oneCall: isStandaloneSession(sessionId),
        own: isUsersOwnSession(sessionId),
        revert: entry.revert,
        conflicts: entry.conflicts,
      });
    });
  }

  /** Opens (or reveals) the panel with the pending requests. */
  reveal(): void {
    if (this.pending.size === 0) {
      void vscode.window.showInformationMessage('No change is waiting for your review.');
      return;
    }
    this.refresh(true);
  }

  /**
   * Connects the gate to the guard it serves. The guard is created with `approve` as its port, so it exists only
   * after the gate, and no request can arrive before this call. A file that changes during review is rechecked
   * by content in the requesting session. Grants live no longer than what their session has seen: a session
   * that forgets (Forget Session, `/forget`, `clear()`, expiry, disposal) loses its grants too, and a new session
   * reusing its id starts without them.
   */
  serve(guard: Guard): void {
    this.guard = guard;
    const unsubscribe = guard.onDidForgetSession((sessionId) => {
      if (this.grants.delete(sessionId)) this.log.info('[approval] grants dropped with their session', { session: sessionId });
    });
    this._register(new vscode.Disposable(unsubscribe));
  }

  /** Narrow grant: further changes to this file by this session skip review (never protected files). */
  grant(sessionId: string, path: string): void {
    let files = this.grants.get(sessionId);
    if (!files) this.grants.set(sessionId, (files = new Set()));
    files.add(path);
  }

  /** Messages from the panel (or from integration tests, through the same protocol). */
  handle(raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message || message.type === 'ready') return;
    const entry = this.pending.get(message.id);
    if (!entry) return; // not for a request we hold: ignored
    this.apply(entry, message);
  }

  private apply(entry: Pending, message: Exclude<FromWebview, { type: 'ready' }>): void {
    switch (message.type) {
      case 'approve':
        // The user approved a diff that has since been recomputed: show the new one instead of applying it.
        if (message.revision !== entry.revision) return this.refresh(false);
        // A revert with conflicts is applied only as its merged parts, and only when the user took them.
        if (entry.conflicts.length > 0 && message.takeMerged !== true) return this.refresh(false);
        // A one-call session ends with this call: a grant to it would never be used. A grant covers edits only.
        if (message.allowFurtherEdits && !isStandaloneSession(entry.request.sessionId)) {
          for (const file of entry.files) if (!file.deleted && file.movedTo === undefined) this.grant(entry.request.sessionId, file.path);
        }
        entry.resolve({ ...approvalWith(entry.files, message.rejectedHunks), approvedBy: 'user', ...(entry.conflicts.length > 0 ? { takeMerged: true } : {}) });
        break;
      case 'reject':
        entry.resolve({ approved: false, ...(message.reason ? { reason: message.reason } : {}) });
        break;
      case 'openDiff': {
        const file = entry.files.find((f) => f.path === message.path);
        if (!file) return;
        const before = this.proposals.put(entry.id, 'before', file.path, file.before);
        const after = this.proposals.put(entry.id, 'after', file.path, file.after);
        const title =
          file.movedTo !== undefined
            ? `${this.display(file.path)} → ${this.display(file.movedTo)} (proposed move)`
            : `${this.display(file.path)} (proposed ${file.deleted ? 'deletion' : 'change'})`;
        void vscode.commands.executeCommand('vscode.diff', before, after, title, { preview: true, viewColumn: vscode.ViewColumn.Active });
        break;
      }
    }
  }

  private settle(id: string, resolve: (decision: ApprovalDecision) => void, decision: ApprovalDecision): void {
    const entry = this.pending.get(id);
    if (!entry || !this.pending.delete(id)) return;
    this.proposals.forget(id);
    this.log.info('[approval] decided', { request: id, approved: decision.approved, edited: decision.approved && Boolean(decision.files) });
    resolve(decision);
    this.refresh(false);
    this.showStatus();
    this._onDidChangeWaiting.fire(entry.request.sessionId);
    if (entry.returnTo) void this.returnFocus(entry.returnTo);
  }

  /**
   * After the user's own change is decided, the editor it came from gets focus back (so Ctrl+Z works at once),
   * unless another of the user's changes still waits; a panel left with nothing to review closes.
   */
  private async returnFocus(to: NonNullable<Pending['returnTo']>): Promise<void> {
    if ([...this.pending.values()].some((entry) => entry.returnTo)) return;
    if (this.pending.size === 0) this.panel.close();
    const editor = vscode.window.visibleTextEditors.find(
      (candidate) => candidate.document.uri.toString() === to.uri.toString() && (to.viewColumn === undefined || candidate.viewColumn === to.viewColumn),
    );
    const document = editor?.document ?? vscode.workspace.textDocuments.find((candidate) => candidate.uri.toString() === to.uri.toString());
    if (!document || document.isClosed) return;
    await vscode.window
      .showTextDocument(document, { viewColumn: editor?.viewColumn ?? to.viewColumn, preserveFocus: false })
      .then(undefined, (error: unknown) => this.log.warn(`[approval] could not give focus back to ${to.uri.toString()}: ${String(error)}`));
  }

  private refresh(reveal: boolean): void {
    this.panel.show(this.views(), reveal);
  }

  private noticeChange(uri: vscode.Uri): void {
    if (this.pending.size === 0) return;
    for (const entry of this.pending.values()) {
      const file = entry.files.find((f) => guardPathToUri(f.path).toString() === uri.toString());
      if (file && !entry.refreshing) void this.refreshEntry(entry, file.path);
    }
  }

  /**
   * A file of a pending change moved on: recompute the change against its new content (the guard re-plans
   * under its lock) and show that, or say that it can no longer be applied. Events are hints and may be late
   * echoes of earlier writes, so only content that really changed counts.
   */
  private async refreshEntry(entry: Pending, path: string): Promise<void> {
    entry.refreshing = true;
    try {
      if (!(await this.isStale(entry.request.sessionId, path)) || !this.pending.has(entry.id)) return;
      const refreshed = await entry.request.refresh();
      if (!this.pending.has(entry.id)) return;
      // Re-planned against the same content (a late echo, or a session that could not tell): nothing to say.
      if (refreshed.ok && refreshed.files.every((file) => entry.files.find((shown) => shown.path === file.path)?.before === file.before)) return;
      const name = this.display(path);
      if (refreshed.ok) {
        entry.files = refreshed.files.map((file) => reviewFile(file, (path) => this.display(path)));
        entry.conflicts = this.conflictsOf(refreshed.conflicts, refreshed.files);
        entry.revision++;
        entry.notice = `${name} changed while you were reviewing, outside the lines this change touches. The diff below was recomputed against the new content.`;
      } else {
        entry.notice = `${name} changed while you were reviewing, in lines this change depends on. It can no longer be applied as proposed: approving it will be refused and nothing will be written. Reject it, and the agent will see what changed.`;
      }
      this.log.info('[approval] file changed during review', { request: entry.id, refreshed: refreshed.ok });
      this.refresh(false);
    } finally {
      entry.refreshing = false;
    }
  }

  /**
   * Whether the file's content may have moved on from what the session's change was made against (never creates
   * a session). A session that never read it (a change naming an expectedVersion) cannot tell: true, and the
   * re-plan decides.
   */
  private async isStale(sessionId: string, path: string): Promise<boolean> {
    const guard = this.guard;
    return guard !== undefined && guard.hasSession(sessionId) && (await guard.session(sessionId).check(path)) !== 'fresh';
  }

  /** A revert's conflicts as the panel shows them; the request's files tell how long each file is now. */
  private conflictsOf(conflicts: readonly ConflictInput[] | undefined, files: ApprovalRequest['files']): ConflictView[] {
    if (!conflicts?.length) return [];
    const lineCount = (path: string): number | undefined => {
      const file = files.find((candidate) => candidate.path === path);
      return file && !file.created ? indexLines(file.before).count : undefined;
    };
    return conflictViews(conflicts, (path) => this.display(path), lineCount);
  }

  private relative(path: string): string | undefined {
    const uri = guardPathToUri(path);
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return folder ? vscode.workspace.asRelativePath(uri, false) : undefined;
  }

  private display(path: string): string {
    return vscode.workspace.asRelativePath(guardPathToUri(path));
  }
}
