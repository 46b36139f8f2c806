/**
 * What ReadGate knows of each MCP client, by the name it gives in `initialize` (`clientInfo.name`): how much of
 * one tool result it shows its model (SPEC section 3: a surface never returns more than its client shows, so
 * nothing is counted as seen that the model did not get), and whether one connection always carries one agent
 * context (only then is the *unchanged* placeholder honest). The figures come from each client's source or
 * documentation (README: the client table); an unknown client gets the conservative default.
 *
 * Placeholders are off for every MCP client by default: each known client can run subagents (or several
 * tasks) over one connection, and a placeholder is only true for the context that received the lines. The
 * user turns them on (`--placeholders`, `readgate.mcp.placeholders`) for a client known to keep one context.
 */
import type { ResultBudget } from '../core/index';

export interface ClientProfile {
  /** The client's name as people know it. */
  label: string;
  /** Matches `clientInfo.name` (lower-cased). */
  names: readonly string[];
  /** Characters of one tool result the client passes to its model whole, with a margin. */
  maxResultChars: number;
  /** Why, for the model and the README. */
  reason: string;
}

/** For clients not in the table: Codex, the strictest known client, cuts MCP output near 10 KB. */
export const DEFAULT_MAX_RESULT_CHARS = 9_000;

/** Characters per token where a client measures results in tokens and the user set the limit that way. */
const CHARS_PER_TOKEN = 4;

export const CLIENT_PROFILES: readonly ClientProfile[] = [
  {
    label: 'Claude Code',
    names: ['claude-code'],
    maxResultChars: 45_000,
    reason: 'Claude Code replaces a tool result over 50,000 characters with a 2,000-character preview',
  },
  {
    label: 'Codex',
    names: ['codex-mcp-client', 'codex'],
    maxResultChars: 9_000,
    reason: 'Codex cuts MCP tool output at about 10 KB',
  },
];

export interface ClientPolicy {
  budget: ResultBudget;
  placeholders: boolean;
  /** The profile that applied, if the client is known. */
  profile?: ClientProfile;
}

export interface PolicyOverrides {
  /** `--max-read-chars` / `readgate.mcp.maxReadChars`: the user's budget for every client (0: by client). */
  maxResultChars?: number;
  /** `--placeholders` / `readgate.mcp.placeholders`. */
  placeholders?: boolean;
  /** The server's environment: Claude Code's `MAX_MCP_OUTPUT_TOKENS`, when it passes it on. */
  env?: NodeJS.ProcessEnv;
  /** How the user raises the budget on this surface, for refusals. */
  howToRaise?: string;
}

export function profileOf(clientName: string | undefined): ClientProfile | undefined {
  const name = (clientName ?? '').trim().toLowerCase();
  return name ? CLIENT_PROFILES.find((profile) => profile.names.includes(name)) : undefined;
}

/** The budget and placeholder rule for a client. Pure. */
export function clientPolicy(clientName: string | undefined, overrides: PolicyOverrides = {}): ClientPolicy {
  const profile = profileOf(clientName);
  const placeholders = overrides.placeholders === true;
  const howToRaise = overrides.howToRaise ? { howToRaise: overrides.howToRaise } : {};
  if (overrides.maxResultChars !== undefined && overrides.maxResultChars > 0) {
    return { budget: { maxChars: overrides.maxResultChars, reason: 'the limit the user set for this server', ...howToRaise }, placeholders, ...(profile ? { profile } : {}) };
  }
  let maxChars = profile?.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  let reason = profile?.reason ?? `ReadGate does not know how much of a result ${clientName ? `"${clientName}"` : 'this client'} shows, so it keeps results short`;
  const tokens = Number(overrides.env?.MAX_MCP_OUTPUT_TOKENS);
  if (profile?.label === 'Claude Code' && Number.isInteger(tokens) && tokens > 0 && tokens * CHARS_PER_TOKEN < maxChars) {
    maxChars = tokens * CHARS_PER_TOKEN;
    reason = `MAX_MCP_OUTPUT_TOKENS is ${tokens}`;
  }
  return { budget: { maxChars, reason, ...howToRaise }, placeholders, ...(profile ? { profile } : {}) };
}
