/**
 * The page's keyboard shortcuts: which key means which command, and the help line that documents them. Pure
 * mapping; the page decides what a command does in its current state.
 *
 * Rules: single-letter keys (j, k, v, [, ]) act only outside text fields and without Ctrl/Cmd, so typing a
 * reason never triggers them. Ctrl/Cmd+Enter approves, except in the reason field, where it sends the
 * rejection being written (approving there would do the opposite of what the user is typing). Ctrl/Cmd+Backspace
 * opens the rejection form, except in a text field, where it keeps deleting a word. Auto-repeat never approves
 * or rejects.
 */

export type Command =
  | 'approve'
  | 'reject'
  | 'sendRejection'
  | 'cancelRejection'
  | 'nextHunk'
  | 'previousHunk'
  | 'toggleLayout'
  | 'nextRequest'
  | 'previousRequest';

export interface KeyContext {
  /** Focus is in a text field. */
  inTextField: boolean;
  /** Focus is in the rejection reason field. */
  inReasonField: boolean;
}

export function commandFor(event: KeyboardEvent, context: KeyContext): Command | undefined {
  if (event.isComposing || event.defaultPrevented) return undefined;
  const primary = event.ctrlKey || event.metaKey;
  if (primary && !event.altKey && !event.shiftKey && event.key === 'Enter') {
    if (event.repeat) return undefined;
    return context.inReasonField ? 'sendRejection' : context.inTextField ? undefined : 'approve';
  }
  if (primary && !event.altKey && !event.shiftKey && event.key === 'Backspace') {
    return context.inTextField || event.repeat ? undefined : 'reject';
  }
  if (event.key === 'Escape' && context.inReasonField) return 'cancelRejection';
  if (context.inTextField || primary) return undefined;
  switch (event.key) {
    case 'j':
      return 'nextHunk';
    case 'k':
      return 'previousHunk';
    case 'v':
      return 'toggleLayout';
    case '[':
      return 'previousRequest';
    case ']':
      return 'nextRequest';
    default:
      return undefined;
  }
}

export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** What the approve and reject keys do, in the words of their buttons ("take the merged parts", "cancel"). */
export interface DecisionWords {
  approve: string;
  reject: string;
}

/** [keys, what they do] pairs for the help line; `words` as the request's buttons say them. */
export function shortcutHelp(mac: boolean, words: DecisionWords = { approve: 'approve', reject: 'reject' }): [string[], string][] {
  const mod = mac ? 'Cmd' : 'Ctrl';
  return [
    [[`${mod}+Enter`], words.approve],
    [[`${mod}+Backspace`], words.reject],
    [['j', 'k'], 'next/previous hunk'],
    [['Space'], 'toggle hunk'],
    [['v'], 'inline/side by side'],
    [['[', ']'], 'previous/next request'],
  ];
}
