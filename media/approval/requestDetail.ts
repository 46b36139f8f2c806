/**
 * The fixed parts of the active request's view, built fresh for each render: the header (what the change does,
 * whose it is, counts), the notice, the agent's reason (or, for the user's own patch, its source), the decision
 * bar (Approve, Reject, layout switch), the rejection form (not for the user's own patch: rejecting it is a
 * plain cancel) and the shortcut help line. Text only through `textContent`: the reason and the notice are
 * untrusted. Buttons carry `data-action`/`data-focus`; the page wires behaviour and state (approvalPage.ts).
 */
import type { RequestView } from '../../src/vscode/approval/protocol';
import { lineStats, type Layout } from './diffRows';
import { h } from './dom';
import { fileKindsLabel, titleParts } from './requestWording';
import { type DecisionWords, shortcutHelp } from './shortcuts';

/** Title and counts, then the notice (when there is one) and the agent's reason or the patch's source, in reading order. */
export function renderRequestHeader(request: RequestView): HTMLElement[] {
  const stats = request.files.map(lineStats).reduce((sum, s) => ({ added: sum.added + s.added, removed: sum.removed + s.removed }), { added: 0, removed: 0 });
  const [title, rest] = titleParts(request);
  const header = h(
    'div',
    { class: 'request-header' },
    h('h1', { class: 'request-title', attrs: { id: 'request-title', tabindex: '-1', 'data-focus': 'title' } }, title, h('span', { class: 'request-session', text: rest })),
    h('p', { class: 'request-meta', text: `${fileKindsLabel(request)} · ${stats.added.toLocaleString('en-US')} ${stats.added === 1 ? 'line' : 'lines'} added, ${stats.removed.toLocaleString('en-US')} removed` }),
  );
  const given = request.explanation?.trim();
  const explanation = h(
    'section',
    { class: 'explanation', attrs: { 'aria-labelledby': 'explanation-title' } },
    h('h2', { class: 'section-label', attrs: { id: 'explanation-title' }, text: request.revert ? 'What it reverts' : request.own ? 'Patch source' : "Agent's reason" }),
    given
      ? h('p', { class: 'explanation-text', text: request.explanation ?? '' })
      : h('p', { class: 'explanation-text missing', text: request.own ? 'The patch names no source.' : 'The agent gave no reason for this change.' }),
  );
  if (!request.notice) return [header, explanation];
  const notice = h('div', { class: 'notice', attrs: { role: 'note' } }, h('span', { class: 'notice-label', text: 'Note' }), h('span', { class: 'notice-text', text: request.notice }));
  return [header, notice, explanation];
}

export interface DecisionBarOptions {
  /** Offer "don't ask again" (not for a one-call session, the user's own patch, or only deletions and moves). */
  offerGrant: boolean;
  /** The user's own patch: Reject cancels it at once (no reason to give, no form). */
  own: boolean;
  /** A revert: its Reject is "Cancel" (nothing is written). */
  revert?: boolean;
  /** A revert with conflicts: Approve is "Take the Merged Parts". */
  conflicts?: boolean;
}

function approveButton(conflicts: boolean): HTMLElement {
  const label = conflicts ? 'Take the merged parts: revert everything that does not conflict, and keep the conflicting lines as they are now' : 'Approve the changes';
  return h('button', { class: 'button primary', text: conflicts ? 'Take the Merged Parts' : 'Approve', attrs: { type: 'button', 'data-action': 'approve', 'data-focus': 'approve', 'aria-label': label, 'aria-describedby': 'approve-hint' } });
}

function rejectButton(own: boolean, revert: boolean): HTMLElement {
  if (revert) return h('button', { class: 'button secondary', text: 'Cancel', attrs: { type: 'button', 'data-action': 'reject', 'data-focus': 'reject', 'aria-label': 'Cancel the revert: nothing is written' } });
  return own
    ? h('button', { class: 'button secondary', text: 'Reject', attrs: { type: 'button', 'data-action': 'reject', 'data-focus': 'reject', 'aria-label': 'Reject your patch: nothing is applied' } })
    : h('button', { class: 'button secondary', text: 'Reject…', attrs: { type: 'button', 'data-action': 'reject', 'data-focus': 'reject', 'aria-label': 'Reject the changes', 'aria-expanded': 'false', 'aria-controls': 'reject-form' } });
}

/** Approve, Reject…, "don't ask again", the hint beside them (filled by the page) and the Inline / Side by side switch. */
export function renderDecisionBar(layout: Layout, options: DecisionBarOptions): HTMLElement {
  const { offerGrant, own, revert = false, conflicts = false } = options;
  return h(
    'div',
    { class: 'actions', attrs: { role: 'group', 'aria-label': 'Decision' } },
    approveButton(conflicts),
    rejectButton(own, revert),
    ...(offerGrant
      ? [
          h(
            'label',
            { class: 'allow-further', attrs: { title: 'Later changes to these files by the same agent session are applied without review (never protected files).' } },
            h('input', { attrs: { type: 'checkbox', id: 'allow-further', 'data-focus': 'allow-further' } }),
            h('span', { text: 'Don\u2019t ask again for these files in this session' }),
          ),
        ]
      : []),
    h('span', { class: 'approve-hint', attrs: { id: 'approve-hint' } }),
    h(
      'div',
      { class: 'layout-switch', attrs: { role: 'group', 'aria-label': 'Diff layout' } },
      ...(['inline', 'sideBySide'] as const).map((option) =>
        h('button', {
          class: 'segment',
          text: option === 'inline' ? 'Inline' : 'Side by side',
          attrs: {
            type: 'button',
            'data-action': 'layout',
            'data-layout': option,
            'data-focus': `layout:${option}`,
            'aria-pressed': String(layout === option),
            'aria-label': option === 'inline' ? 'Inline view' : 'Side-by-side view',
          },
        }),
      ),
    ),
  );
}

/** The reason field and its buttons, hidden until the user chooses Reject. */
export function renderRejectForm(draft: string, mac: boolean): HTMLElement {
  const reason = h('textarea', { class: 'reason-field', attrs: { id: 'reject-reason', rows: 3, 'data-focus': 'reason', placeholder: 'What should the agent do instead?', 'aria-describedby': 'reject-help' } });
  reason.value = draft;
  return h(
    'div',
    { class: 'reject-form', attrs: { id: 'reject-form', role: 'group', 'aria-label': 'Reject the changes', hidden: true } },
    h('label', { class: 'section-label', attrs: { for: 'reject-reason' }, text: 'Reason for the agent (optional)' }),
    reason,
    h('p', { class: 'field-help', attrs: { id: 'reject-help' }, text: `No file is changed. The agent receives this reason. ${mac ? 'Cmd' : 'Ctrl'}+Enter sends, Escape cancels.` }),
    h(
      'div',
      { class: 'form-buttons' },
      h('button', { class: 'button primary', text: 'Send rejection', attrs: { type: 'button', 'data-action': 'send-rejection', 'data-focus': 'send-rejection', 'aria-label': 'Send the rejection to the agent' } }),
      h('button', { class: 'button secondary', text: 'Cancel', attrs: { type: 'button', 'data-action': 'cancel-rejection', 'data-focus': 'cancel-rejection', 'aria-label': 'Cancel rejecting' } }),
    ),
  );
}

/** What Ctrl+Enter and Ctrl+Backspace do for `request`, as its buttons say it (`renderDecisionBar`). */
export function decisionWords(request: RequestView): DecisionWords {
  return { approve: request.conflicts?.length ? 'take the merged parts' : 'approve', reject: request.revert ? 'cancel' : 'reject' };
}

export function renderShortcutHelp(mac: boolean, words?: DecisionWords): HTMLElement {
  const help = h('p', { class: 'help' }, h('span', { class: 'sr-only', text: 'Keyboard shortcuts: ' }));
  shortcutHelp(mac, words).forEach(([keys, what], i) => {
    if (i) help.append(h('span', { class: 'help-sep', text: ' · ', attrs: { 'aria-hidden': 'true' } }));
    keys.forEach((key, k) => {
      if (k) help.append(' ');
      help.append(h('kbd', { text: key }));
    });
    help.append(` ${what}`);
  });
  return help;
}
