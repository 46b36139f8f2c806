/**
 * What ReadGate knows of each MCP client, by the name it gives in `initialize` (`clientInfo.name`): how much of
 * one tool result it shows its model (a surface never returns more than its client shows, so nothing is
 * counted as seen that the model did not get), and whether one connection always carries one agent context
 * (only then is the *unchanged* placeholder honest). The figures come from each client's source or documentation
 * (docs/agents.md: the client table); an unknown client gets the conservative default.
 *
 * Placeholders are off for every MCP client by default: each known client can run subagents (or several
 * tasks) over one connection, and a placeholder is only true for the context that received the lines. The
 * user turns them on (`--placeholders`, `readgate.mcp.placeholders`) for a client known to keep one context.
 */
import type { ResultBudget } from '../core/index';

export interface ClientProfile {
  /** The client's name as people know it. */
  label: string;
  /** Matches `clientInfo.name`, lower-cased: exactly, or as a prefix when it ends with `*`. */
  names: readonly string[];
  /** The most one result may hold for this client (UTF-8 bytes, so characters too), with a margin. */
  maxResultChars: number;
  /** Why, for the model and the documentation. */
  reason: string;
}

/**
 * For clients not in the table: under the smallest cut known (VS Code's agents write a result over 8,192
 * characters to a file and show the model only its path).
 */
export const DEFAULT_MAX_RESULT_CHARS = 8_000;

/**
 * Claude Code counts a result as tokens at four characters each and leaves it alone while that estimate is at
 * most half of MAX_MCP_OUTPUT_TOKENS; above that it may swap the result for a file path.
 */
const CLAUDE_CHARS_PER_LIMIT_TOKEN = 2;

/** Room below a client's cut for what a budget cannot see (JSON wrapping, a client's own prefix). */
const MARGIN = 0.9;

export const CLIENT_PROFILES: readonly ClientProfile[] = [
  {
    label: 'Claude Code',
    names: ['claude-code'],
    maxResultChars: 45_000,
    reason: 'Claude Code shows the model only a 2,000-character preview of a tool result over 50,000 characters',
  },
  {
    label: 'Codex',
    names: ['codex-mcp-client'],
    maxResultChars: 9_000,
    reason: 'Codex keeps only the first and last 5,982 bytes of a tool result over 11,964 bytes for models it has no data for (47,964 for its own models)',
  },
  {
    label: 'Gemini CLI',
    names: ['gemini-cli-mcp-client'],
    maxResultChars: 30_000,
    reason: 'Gemini CLI keeps only the start and end of a tool result over 40,000 characters, less when its context is nearly full',
  },
  {
    label: 'Qwen Code',
    names: ['qwen-cli-mcp-client-*'],
    maxResultChars: 24_000,
    reason: 'Qwen Code shows the model only the first 2,000 characters of a tool result over 28,000 characters',
  },
  {
    label: 'GitHub Copilot CLI',
    names: ['github-copilot-developer'],
    maxResultChars: 18_000,
    reason: 'Copilot CLI shows the model only the first 500 characters of a tool result over 20,480 bytes',
  },
  {
    label: 'VS Code (Copilot agent mode)',
    names: ['visual studio code*', 'code - oss*'],
    maxResultChars: 8_000,
    reason: "VS Code's agents write a tool result over 8,192 characters to a file and show the model only its path",
  },
  {
    label: 'Cline / Roo Code',
    names: ['cline', 'roo code'],
    maxResultChars: 40_000,
    reason: "no cut of MCP results was found in Cline's or Roo Code's source; kept near the other clients",
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
  if (!name) return undefined;
  return CLIENT_PROFILES.find((profile) => profile.names.some((known) => (known.endsWith('*') ? name.startsWith(known.slice(0, -1)) : name === known)));
}

/** The budget and placeholder rule for a client. Pure. */
export function clientPolicy(clientName: string | undefined, overrides: PolicyOverrides = {}): ClientPolicy {
  const profile = profileOf(clientName);
  const placeholders = overrides.placeholders === true;
  const howToRaise = overrides.howToRaise ? { howToRaise: overrides.howToRaise } : {};
  if (overrides.maxResultChars !== undefined && overrides.maxResultChars > 0) {
    return {
      budget: { maxChars: overrides.maxResultChars, reason: 'the limit the user set for this server', ...howToRaise },
      placeholders,
      ...(profile ? { profile } : {}),
    };
  }
  let maxChars = profile?.maxResultChars ?? DEFAULT_MAX_RESULT_CHARS;
  let reason =
    profile?.reason ?? `ReadGate does not know how much of a result ${clientName ? `"${clientName}"` : 'this client'} shows, so it keeps results short`;
  const tokens = Number(overrides.env?.MAX_MCP_OUTPUT_TOKENS);
  const byTokens = Math.floor(tokens * CLAUDE_CHARS_PER_LIMIT_TOKEN * MARGIN);
  if (profile?.label === 'Claude Code' && Number.isInteger(tokens) && tokens > 0 && byTokens < maxChars) {
    maxChars = byTokens;
    reason = `Claude Code's MAX_MCP_OUTPUT_TOKENS is ${tokens}`;
  }
  return { budget: { maxChars, reason, ...howToRaise }, placeholders, ...(profile ? { profile } : {}) };
}
