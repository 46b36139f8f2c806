/**
 * The approval page: holds the queue the extension sent, which request is active, the user's per-hunk choices,
 * the layout and the rejection draft; renders them; and turns clicks and shortcuts into protocol messages
 * (`approve`, `reject`, `openDiff`). It never decides anything about files: the extension validates every
 * message and ignores those for requests it no longer holds (protocol.ts).
 *
 * Rendering: the queue is rebuilt on every change (it is small); the active request's detail is rebuilt only
 * when its content or the layout changed, so a new request arriving in the queue does not reset the scroll
 * position or focus in the one being reviewed. Hunk toggles update their hunk in place.
 *
 * Focus: the page moves focus only in answer to the user's own input, or to put back focus it already had
 * before a re-render (SPEC section 4: never steal focus from the editor the user is typing in). A request that
 * arrives or leaves is announced through the live region instead. The one exception is the user's own change
 * (Apply Patch): its review is the next step of what the user is doing, so the extension asks for focus
 * (`focusRequest` with `moveFocus`) and the page puts it on the request's title.
 */
import type { RequestView, ToWebview } from '../../src/vscode/approval/protocol';
import { Announcer } from './announcer';
import { ChunkScheduler } from './chunkScheduler';
import type { Layout } from './diffRows';
import { hunkToggleLabel, renderFile, setHunkRejected, toggleCollapsed } from './diffView';
import { h, setFlag } from './dom';
import type { ExtensionChannel } from './extensionChannel';
import { HunkChoices, isEveryHunkRejected, isEverythingRejected } from './hunkChoices';
import { renderConflicts } from './conflicts';
import { decisionWords, renderDecisionBar, renderRejectForm, renderRequestHeader, renderShortcutHelp } from './requestDetail';
import { renderQueue } from './requestQueue';
import { isWholeFileChange, requestSummary, wholeFileChangesLabel } from './requestWording';
import { isMac, type Command } from './shortcuts';
import type { ViewState } from './viewState';

/** Performance marks the browser tests read: the active request's first paintable frame, and all rows filled. */
export const MARK_FIRST_RENDER = 'readgate-approval:first-render';
export const MARK_RENDERED = 'readgate-approval:rendered';

const FIRST_BUDGET_MS = 12;
const FRAME_BUDGET_MS = 10;

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export class ApprovalPage {
  private requests: RequestView[] = [];
  private activeId: string | undefined;
  private pendingFocusId: string | undefined;
  /** The pending focusRequest also asked for keyboard focus. */
  private pendingMoveFocus = false;
  /** Deleted files whose collapsed lines the user expanded: `${request id}\n${path}`. */
  private readonly expanded = new Set<string>();
  private layout: Layout;
  private readonly choices: HunkChoices;
  private rejectDraft: { id: string; reason: string } | undefined;
  private savedScroll: { id: string; y: number } | undefined;
  private readonly submitted = new Set<string>();
  private readonly announcedNotices = new Map<string, string>();
  private received = false;
  private renderedSignature: string | undefined;
  private renderedId: string | undefined;
  private hunkCursor = -1;
  private scrollTimer: ReturnType<typeof setTimeout> | undefined;
  private stickyObserver: ResizeObserver | undefined;

  private readonly scheduler = new ChunkScheduler();
  private readonly expandScheduler = new ChunkScheduler();
  private readonly announcer = new Announcer();
  private readonly queueSlot = h('div', { class: 'queue-slot' });
  private readonly detail = h('main', { class: 'request', attrs: { 'aria-labelledby': 'request-title' } });

  constructor(
    private readonly root: HTMLElement,
    private readonly channel: ExtensionChannel,
  ) {
    const state = channel.loadState();
    this.layout = state.layout;
    this.activeId = state.activeId;
    this.choices = new HunkChoices(state.choices);
    this.rejectDraft = state.rejectDraft;
    this.savedScroll = state.scroll;

    root.classList.add('approval-app');
    root.append(this.queueSlot, this.detail, this.announcer.element);
    this.detail.append(h('p', { class: 'waiting', text: 'Loading the changes to review…' }));
    root.addEventListener('click', (event) => this.onClick(event));
    root.addEventListener('input', (event) => this.onInput(event));
    root.addEventListener('focusin', (event) => this.onFocusIn(event));
    window.addEventListener('scroll', () => this.onScroll(), { passive: true });
  }

  // ---- messages from the extension -------------------------------------------------------------------------

  receive(message: ToWebview): void {
    if (message.type === 'focusRequest') this.focusRequest(message.id, message.moveFocus === true);
    else this.setRequests(message.requests);
  }

  private focusRequest(id: string, moveFocus: boolean): void {
    if (!this.requests.some((request) => request.id === id)) {
      this.pendingFocusId = id;
      this.pendingMoveFocus = moveFocus;
      return;
    }
    if (id !== this.activeId) {
      this.activeId = id;
      this.saveState();
      this.render();
      const request = this.active();
      if (request) this.announcer.say(`Showing ${this.describe(request)}.`);
    }
    if (moveFocus) this.focusTitle();
  }

  private focusTitle(): void {
    this.detail.querySelector<HTMLElement>('#request-title')?.focus();
  }

  private setRequests(requests: RequestView[]): void {
    const first = !this.received;
    this.received = true;
    const previous = this.requests;
    const previousIds = new Set(previous.map((request) => request.id));
    const previousActiveIndex = previous.findIndex((request) => request.id === this.activeId);
    this.requests = requests;
    this.submitted.clear();
    const reset = this.choices.reconcile(requests);

    const ids = new Set(requests.map((request) => request.id));
    let activeChanged = false;
    let moveFocus = false;
    if (this.pendingFocusId && ids.has(this.pendingFocusId)) {
      activeChanged = this.pendingFocusId !== this.activeId;
      this.activeId = this.pendingFocusId;
      this.pendingFocusId = undefined;
      moveFocus = this.pendingMoveFocus;
      this.pendingMoveFocus = false;
    } else if (!this.activeId || !ids.has(this.activeId)) {
      const fallback = requests[Math.min(Math.max(previousActiveIndex, 0), requests.length - 1)];
      activeChanged = this.activeId !== fallback?.id;
      this.activeId = fallback?.id;
    }
    if (this.rejectDraft && !ids.has(this.rejectDraft.id)) this.rejectDraft = undefined;
    if (this.savedScroll && !ids.has(this.savedScroll.id)) this.savedScroll = undefined;
    for (const id of this.announcedNotices.keys()) if (!ids.has(id)) this.announcedNotices.delete(id);
    for (const key of this.expanded) if (!ids.has(key.slice(0, key.indexOf('\n')))) this.expanded.delete(key);
    this.saveState();
    this.render();
    if (moveFocus) this.focusTitle();

    const messages: string[] = [];
    const added = requests.filter((request) => !previousIds.has(request.id));
    if (first) {
      if (requests.length) messages.push(`${plural(requests.length, 'approval request')} pending.`);
    } else if (added.length === 1) {
      messages.push(`New approval request: ${this.describe(added[0])}.`);
    } else if (added.length > 1) {
      messages.push(`${added.length} new approval requests.`);
    }
    const active = this.active();
    if (active && activeChanged && !first) messages.push(`Showing ${this.describe(active)}.`);
    if (!active && previous.length) messages.push('No more changes waiting for approval.');
    for (const { requestId, path } of reset) {
      const file = requests.find((request) => request.id === requestId)?.files.find((f) => f.path === path);
      messages.push(`The diff of ${file?.displayPath ?? path} changed; your hunk choices for it were cleared.`);
    }
    if (active?.notice && this.announcedNotices.get(active.id) !== active.notice) {
      this.announcedNotices.set(active.id, active.notice);
      messages.push(`Notice: ${active.notice}`);
    }
    if (messages.length) this.announcer.say(messages.join(' '));
  }

  // ---- commands ----------------------------------------------------------------------------------------------

  runCommand(command: Command): void {
    switch (command) {
      case 'approve':
        return this.approve();
      case 'reject':
        return this.openRejectForm();
      case 'sendRejection':
        return this.sendRejection();
      case 'cancelRejection':
        return this.closeRejectForm(true);
      case 'nextHunk':
        return this.moveHunk(1);
      case 'previousHunk':
        return this.moveHunk(-1);
      case 'toggleLayout':
        return this.setLayout(this.layout === 'inline' ? 'sideBySide' : 'inline');
      case 'nextRequest':
        return this.moveRequest(1);
      case 'previousRequest':
        return this.moveRequest(-1);
    }
  }

  private approve(): void {
    const request = this.active();
    if (!request || this.submitted.has(request.id)) return;
    const tally = this.choices.tally(request);
    if (isEverythingRejected(tally)) {
      this.announcer.say(`Every hunk is rejected, so there is nothing to approve. ${request.revert ? 'Use Cancel to write nothing.' : request.own ? 'Use Reject to cancel the patch.' : 'Use Reject to tell the agent why.'}`);
      return;
    }
    const allowFurtherEdits = this.detail.querySelector<HTMLInputElement>('#allow-further')?.checked === true;
    // The button of a revert with conflicts says "Take the Merged Parts": pressing it is the user taking them.
    const takeMerged = (request.conflicts?.length ?? 0) > 0;
    this.channel.post({ type: 'approve', id: request.id, rejectedHunks: this.choices.rejectedHunks(request), revision: request.revision, ...(allowFurtherEdits ? { allowFurtherEdits } : {}), ...(takeMerged ? { takeMerged } : {}) });
    this.submitted.add(request.id);
    this.updateDecision();
    const approved = takeMerged ? 'Took the merged parts' : 'Approved';
    this.announcer.say(tally.rejected ? `${approved}: ${tally.total - tally.rejected} of ${plural(tally.total, 'hunk')}.` : `${approved}.`);
  }

  private openRejectForm(): void {
    const request = this.active();
    if (!request || this.submitted.has(request.id)) return;
    // The user's own patch: there is no one to give a reason to; rejecting it cancels it.
    if (request.own) return this.sendRejection();
    if (this.rejectDraft?.id !== request.id) this.rejectDraft = { id: request.id, reason: '' };
    this.saveState();
    this.showRejectForm(true);
    const field = this.detail.querySelector<HTMLTextAreaElement>('#reject-reason');
    if (field) {
      field.value = this.rejectDraft.reason;
      field.focus();
    }
  }

  private closeRejectForm(moveFocus: boolean): void {
    this.rejectDraft = undefined;
    this.saveState();
    this.showRejectForm(false);
    if (moveFocus) this.detail.querySelector<HTMLElement>('[data-action="reject"]')?.focus();
  }

  private sendRejection(): void {
    const request = this.active();
    if (!request || this.submitted.has(request.id)) return;
    const field = this.detail.querySelector<HTMLTextAreaElement>('#reject-reason');
    const reason = field?.value.trim() ?? '';
    this.channel.post(reason ? { type: 'reject', id: request.id, reason } : { type: 'reject', id: request.id });
    this.submitted.add(request.id);
    this.updateDecision();
    this.announcer.say(request.revert ? 'Cancelled: nothing is written.' : request.own ? 'Rejected: your patch is not applied.' : 'Rejected.');
  }

  private setLayout(layout: Layout): void {
    if (layout === this.layout) return;
    const anchor = this.captureAnchor();
    this.layout = layout;
    this.saveState();
    this.render();
    if (anchor) this.restoreAnchor(anchor);
    this.announcer.say(layout === 'inline' ? 'Inline view.' : 'Side-by-side view.');
  }

  private moveRequest(delta: number): void {
    const index = this.requests.findIndex((request) => request.id === this.activeId);
    const next = this.requests[index + delta];
    if (!next) {
      this.announcer.say(delta > 0 ? 'This is the last request.' : 'This is the first request.');
      return;
    }
    this.selectRequest(next.id, 'title');
  }

  private selectRequest(id: string, focus: 'title' | 'keep'): void {
    if (id === this.activeId) return;
    // Nothing focused (the body) still means the user is in this page: the whole document is the panel.
    const hadFocus = !document.activeElement || document.activeElement === document.body || this.root.contains(document.activeElement);
    this.activeId = id;
    this.hunkCursor = -1;
    this.saveState();
    this.render();
    if (focus === 'title' && hadFocus) this.detail.querySelector<HTMLElement>('#request-title')?.focus();
    const request = this.active();
    if (request) this.announcer.say(`Showing ${this.describe(request)}.`);
  }

  private moveHunk(delta: number): void {
    const toggles = [...this.detail.querySelectorAll<HTMLButtonElement>('.hunk-toggle')];
    if (!toggles.length) return;
    const focused = toggles.indexOf(document.activeElement as HTMLButtonElement);
    const from = focused >= 0 ? focused : this.hunkCursor;
    const to = from < 0 ? 0 : Math.min(Math.max(from + delta, 0), toggles.length - 1);
    const toggle = toggles[to];
    this.hunkCursor = to;
    toggle.focus({ preventScroll: true });
    const hunk = toggle.closest<HTMLElement>('.hunk');
    const box = toggle.getBoundingClientRect();
    if (box.top < this.stickyBottom() || box.bottom > window.innerHeight) hunk?.scrollIntoView({ block: 'start' });
  }

  private toggleHunk(fileIndex: number, hunkIndex: number): void {
    const request = this.active();
    const file = request?.files[fileIndex];
    if (!request || !file || this.submitted.has(request.id)) return;
    const position = file.hunks.findIndex((hunk) => hunk.index === hunkIndex);
    if (position < 0) return;
    const rejected = this.choices.toggle(request.id, file, hunkIndex);
    const hunk = this.detail.querySelector<HTMLElement>(`.file[data-file-index="${fileIndex}"] .hunk[data-hunk-index="${hunkIndex}"]`);
    if (hunk) setHunkRejected(hunk, rejected);
    this.saveState();
    this.updateDecision();
    const tally = this.choices.tally(request);
    const label = hunkToggleLabel(file, position).replace(/^Reject hunk/, 'Hunk');
    this.announcer.say(`${label} ${rejected ? 'rejected' : 'accepted'}. ${tally.total - tally.rejected} of ${plural(tally.total, 'hunk')} will be applied.`);
  }

  // ---- DOM events --------------------------------------------------------------------------------------------

  private onClick(event: MouseEvent): void {
    const target = (event.target as Element | null)?.closest<HTMLElement>('[data-action]');
    if (!target || !this.root.contains(target)) return;
    if (target.getAttribute('aria-disabled') === 'true' && target.dataset.action !== 'approve') return;
    const fileIndex = Number(target.dataset.file);
    switch (target.dataset.action) {
      case 'toggle-hunk':
        return this.toggleHunk(fileIndex, Number(target.dataset.hunk));
      case 'open-diff': {
        const request = this.active();
        const file = request?.files[fileIndex];
        if (request && file) this.channel.post({ type: 'openDiff', id: request.id, path: file.path });
        return;
      }
      case 'approve':
        return this.approve();
      case 'reject':
        return this.rejectDraft?.id === this.activeId && !this.rejectFormHidden() ? this.closeRejectForm(false) : this.openRejectForm();
      case 'send-rejection':
        return this.sendRejection();
      case 'cancel-rejection':
        return this.closeRejectForm(true);
      case 'layout':
        return this.setLayout(target.dataset.layout === 'sideBySide' ? 'sideBySide' : 'inline');
      case 'select-request':
        if (target.dataset.request) this.selectRequest(target.dataset.request, 'keep');
        return;
      case 'toggle-collapsed':
        return this.toggleCollapsed(target, fileIndex);
    }
  }

  private toggleCollapsed(button: HTMLElement, fileIndex: number): void {
    const request = this.active();
    const file = request?.files[fileIndex];
    const toggled = toggleCollapsed(button);
    if (!request || !file || !toggled) return;
    const key = `${request.id}\n${file.path}`;
    if (toggled.expanded) this.expanded.add(key);
    else this.expanded.delete(key);
    if (toggled.tasks.length) this.expandScheduler.run(toggled.tasks, { firstBudget: FIRST_BUDGET_MS, frameBudget: FRAME_BUDGET_MS });
  }

  private onInput(event: Event): void {
    const target = event.target;
    if (target instanceof HTMLTextAreaElement && target.id === 'reject-reason' && this.activeId) {
      this.rejectDraft = { id: this.activeId, reason: target.value };
      this.saveState();
    }
  }

  private onFocusIn(event: FocusEvent): void {
    const target = event.target;
    if (target instanceof HTMLElement && target.classList.contains('hunk-toggle')) {
      this.hunkCursor = [...this.detail.querySelectorAll('.hunk-toggle')].indexOf(target);
    }
  }

  private onScroll(): void {
    clearTimeout(this.scrollTimer);
    this.scrollTimer = setTimeout(() => {
      if (!this.activeId || this.renderedId !== this.activeId) return;
      this.savedScroll = { id: this.activeId, y: Math.round(window.scrollY) };
      this.saveState();
    }, 150);
  }

  // ---- rendering ---------------------------------------------------------------------------------------------

  private active(): RequestView | undefined {
    return this.requests.find((request) => request.id === this.activeId);
  }

  private describe(request: RequestView): string {
    const position = this.requests.indexOf(request) + 1;
    return `request ${position} of ${this.requests.length}, ${requestSummary(request)}`;
  }

  private render(): void {
    const focused = document.activeElement instanceof HTMLElement && this.root.contains(document.activeElement) ? document.activeElement : undefined;
    const focusKey = focused?.dataset.focus;
    const previousId = this.renderedId;

    this.queueSlot.replaceChildren(this.requests.length ? renderQueue(this.requests, this.activeId) : '');
    const request = this.active();
    const signature = request ? `${this.layout}\n${JSON.stringify(request)}` : '';
    if (!request) {
      this.scheduler.cancel();
      this.renderedSignature = undefined;
      this.renderedId = undefined;
      this.detail.replaceChildren(h('p', { class: 'empty', text: this.received ? 'No changes are waiting for approval.' : 'Loading the changes to review…' }));
    } else if (signature !== this.renderedSignature) {
      this.renderDetail(request);
      this.renderedSignature = signature;
      this.renderedId = request.id;
    } else {
      this.updateDecision();
    }

    if (focused && !focused.isConnected) {
      const sameRequest = previousId === this.activeId;
      const keyStillMeaningful = focusKey && (sameRequest || focusKey.startsWith('queue:') || focusKey.startsWith('layout:'));
      const replacement = keyStillMeaningful ? this.root.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focusKey)}"]`) : null;
      (replacement ?? this.detail.querySelector<HTMLElement>('#request-title') ?? this.root.querySelector<HTMLElement>('.queue-item'))?.focus({ preventScroll: true });
    }
  }

  private renderDetail(request: RequestView): void {
    performance.clearMarks(MARK_FIRST_RENDER);
    performance.clearMarks(MARK_RENDERED);
    const draft = this.rejectDraft?.id === request.id && !request.own ? this.rejectDraft : undefined;
    // A grant covers edits only, and is pointless for a session that ends with this call or is the user's own.
    const offerGrant = !request.oneCall && !request.own && request.files.some((file) => !isWholeFileChange(file));
    const conflicts = request.conflicts ?? [];
    const actions = renderDecisionBar(this.layout, { offerGrant, own: request.own === true, revert: request.revert === true, conflicts: conflicts.length > 0 });
    const parts = [
      ...renderRequestHeader(request),
      ...(conflicts.length ? [renderConflicts(conflicts)] : []),
      actions,
      ...(request.own ? [] : [renderRejectForm(draft?.reason ?? '', isMac())]),
      renderShortcutHelp(isMac(), decisionWords(request)),
    ];

    const files = h('div', { class: 'files' });
    const tasks: (() => void)[] = [];
    this.expandScheduler.cancel();
    request.files.forEach((file, fileIndex) => {
      const expanded = this.expanded.has(`${request.id}\n${file.path}`);
      const rendered = renderFile(file, { fileIndex, layout: this.layout, expanded, isRejected: (index) => this.choices.isRejected(request.id, file, index) });
      files.append(rendered.element);
      tasks.push(...rendered.tasks);
    });

    this.detail.setAttribute('data-request-id', request.id);
    this.detail.replaceChildren(...parts, files);
    this.showRejectForm(!!draft);
    this.updateDecision();
    this.hunkCursor = -1;

    const restore = this.savedScroll?.id === request.id && this.renderedId !== request.id ? this.savedScroll.y : undefined;
    if (this.renderedId !== request.id) window.scrollTo(0, 0);
    this.scheduler.run(tasks, {
      firstBudget: FIRST_BUDGET_MS,
      frameBudget: FRAME_BUDGET_MS,
      onDone: () => {
        performance.mark(MARK_RENDERED, { detail: { id: request.id } });
        if (restore !== undefined && window.scrollY === 0) window.scrollTo(0, restore);
      },
    });
    performance.mark(MARK_FIRST_RENDER, { detail: { id: request.id } });
    this.observeStickyHeight(actions);
  }

  private rejectFormHidden(): boolean {
    return this.detail.querySelector('#reject-form')?.hasAttribute('hidden') ?? true;
  }

  private showRejectForm(open: boolean): void {
    const form = this.detail.querySelector('#reject-form');
    if (!form) return;
    setFlag(form, 'hidden', !open, '');
    this.detail.querySelector('[data-action="reject"]')?.setAttribute('aria-expanded', String(open));
  }

  /** Approve's enabled state and the hint beside it follow the hunk choices and whether a decision was sent. */
  private updateDecision(): void {
    const request = this.active();
    if (!request) return;
    const approve = this.detail.querySelector<HTMLElement>('[data-action="approve"]');
    const hint = this.detail.querySelector<HTMLElement>('#approve-hint');
    const tally = this.choices.tally(request);
    const sent = this.submitted.has(request.id);
    const nothingToApprove = isEverythingRejected(tally);
    approve?.setAttribute('aria-disabled', String(sent || nothingToApprove));
    for (const element of this.detail.querySelectorAll('[data-action="reject"], [data-action="send-rejection"], .hunk-toggle')) {
      element.setAttribute('aria-disabled', String(sent));
    }
    if (hint) {
      hint.textContent = sent
        ? 'Sent. Waiting for the extension…'
        : nothingToApprove
          ? `Every hunk is rejected: use ${request.revert ? 'Cancel' : 'Reject'} instead.`
          : isEveryHunkRejected(tally)
            ? `Every hunk is rejected: only ${wholeFileChangesLabel(request)} will be applied.`
            : tally.rejected
              ? `${tally.rejected} of ${plural(tally.total, 'hunk')} rejected; only the others will be applied.`
              : '';
      hint.classList.toggle('warning', nothingToApprove && !sent);
    }
  }

  private stickyBottom(): number {
    return this.detail.querySelector('.actions')?.getBoundingClientRect().bottom ?? 0;
  }

  /** Keeps `scroll-padding-top` equal to the sticky action bar, so focused hunks never hide under it. */
  private observeStickyHeight(actions: HTMLElement): void {
    this.stickyObserver?.disconnect();
    this.stickyObserver = new ResizeObserver(() => {
      document.documentElement.style.setProperty('--sticky-height', `${Math.ceil(actions.getBoundingClientRect().height)}px`);
    });
    this.stickyObserver.observe(actions);
  }

  /** The first hunk at the top of the view and its offset, to keep it in place across a layout switch. */
  private captureAnchor(): { fileIndex: string; hunkIndex: string; top: number } | undefined {
    const top = this.stickyBottom();
    for (const hunk of this.detail.querySelectorAll<HTMLElement>('.hunk')) {
      const box = hunk.getBoundingClientRect();
      if (box.bottom > top) {
        const fileIndex = hunk.closest<HTMLElement>('.file')?.dataset.fileIndex;
        return fileIndex === undefined ? undefined : { fileIndex, hunkIndex: hunk.dataset.hunkIndex ?? '', top: Math.max(box.top, top) };
      }
    }
    return undefined;
  }

  private restoreAnchor(anchor: { fileIndex: string; hunkIndex: string; top: number }): void {
    const hunk = this.detail.querySelector<HTMLElement>(`.file[data-file-index="${anchor.fileIndex}"] .hunk[data-hunk-index="${anchor.hunkIndex}"]`);
    if (hunk) window.scrollBy(0, hunk.getBoundingClientRect().top - anchor.top);
  }

  private saveState(): void {
    const state: ViewState = { version: 1, layout: this.layout, choices: this.choices.toJSON() };
    if (this.activeId) state.activeId = this.activeId;
    if (this.rejectDraft) state.rejectDraft = this.rejectDraft;
    if (this.savedScroll) state.scroll = this.savedScroll;
    this.channel.saveState(state);
  }
}
