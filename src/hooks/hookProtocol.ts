/**
 * How an agent hook process (`dist/agent-hook.js`) and the ReadGate window that judges its call talk: over a
 * private local socket the window names in its extension host's environment (which the hook inherits, since the
 * client's hook runner spawns it from that host), the hook sends one line of JSON with the window's secret, the
 * client's name and its hook input, and the window answers with lines: `wait` while the user reviews the change
 * (the hook then waits up to the review limit), then `done` with the output the hook prints for its client (none:
 * allow, silently). Types and constants only: the hook process loads this and nothing of the guard.
 */

/** The environment names the window sets in its extension host for the hooks it spawns. */
export const HOOK_ENV = {
  /** The socket (or Windows pipe) the window listens on. */
  socket: 'READGATE_HOOK_SOCKET',
  /** The window's secret for it. */
  token: 'READGATE_HOOK_TOKEN',
  /** The Node runtime the hook file's command starts the hook with (the extension host's own). */
  node: 'READGATE_NODE',
} as const;

export interface HookRequest {
  v: 1;
  token: string;
  /** `--client` of the hook command ("copilot"). */
  client: string;
  /** The client's hook input as it came on the hook's stdin. */
  input: unknown;
}

export type HookReply =
  /** The user is reviewing the change: keep waiting, for at most `ms` more. */
  | { kind: 'wait'; ms: number }
  /** The window's answer: `output` is printed for the client as JSON (absent: allow, print nothing). */
  | { kind: 'done'; output?: object };

/** How long the hook waits for the window's answer to a call it does not review: beyond it, the call is allowed. */
export const HOOK_ANSWER_MS = 3000;

/**
 * How long the window waits, after a change's tool ran, for its write to land before it answers: Copilot applies
 * its edit tools' changes through the chat's editing session, a moment after the tool returned. One that lands
 * later is recorded before the chat's next call.
 */
export const HOOK_SETTLE_MS = 1500;

/**
 * The longest a change may wait for the user's review. The hook file gives the hook longer than this (its
 * timeout), so it is the hook, never the client, that ends the wait: with a refusal, as nothing was approved.
 */
export const HOOK_REVIEW_MS = 14 * 60 * 1000;

/** The hook file's timeout for a `PreToolUse` hook, in seconds (the client's unit): past HOOK_REVIEW_MS. */
export const HOOK_TIMEOUT_SECONDS = 15 * 60;

/** The most of a hook input read (a file's new content travels in it). */
export const MAX_HOOK_INPUT_BYTES = 16 * 1024 * 1024;
