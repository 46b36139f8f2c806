/**
 * Which guard session an id names, and whose it is: every prefix a session id of this window starts with is
 * here, so the labels, the view, the reports and the approval panel read ids the way their owners mint them.
 *
 * Tool calls: the stable tool API has no conversation id, but at run time the invocation token of a chat
 * request identifies its chat session (VS Code 1.139 passes `{ sessionResource }`; older builds a `sessionId`).
 * We use that where present, and fail safe otherwise: a call we cannot attribute shares nothing with any other
 * call. It runs in a standalone session of its own (`STANDALONE_PREFIX` + a random id), dropped after the call,
 * so one caller's read never unlocks another's edit. Pure: the token in, a key out.
 *
 * Also which sessions are the user's own: a palette action (Apply Patch) runs in a session named
 * `USER_PREFIX` + its kind + a random id, and only there. The approval panel words such a change as the user's
 * ("Your patch") and gives it focus, so no other caller may name a session so: the API prefixes such an id.
 */

/** Other agents' chat sessions (Copilot agent mode, other participants): `chat:` + the chat session. */
export const CHAT_PREFIX = 'chat:';

/** The `@readgate` participant's sessions (`chat-participant:<uuid>`, kept in its results' metadata). */
export const PARTICIPANT_PREFIX = 'chat-participant:';

/** MCP clients' sessions (`mcp:<MCP session id>`). */
export const MCP_PREFIX = 'mcp:';

/** Extension API sessions that named no id, or one that would pass for the user's own (`api:…`). */
export const API_PREFIX = 'api:';

/** The walkthrough's sample agent (Propose a Sample Change): one fixed session, an agent's like any other. */
export const SAMPLE_AGENT_SESSION = 'walkthrough:sample-agent';

/**
 * The conversations of agent CLIs whose own tools their hooks bring (Claude Code's own Read and Edit…):
 * `hook:<client>:<conversation>`, a subagent's inside it (`subagentKey`).
 */
export const HOOK_PREFIX = 'hook:';

export const hookConversationKey = (client: string, conversation: string): string => `${HOOK_PREFIX}${client}:${conversation}`;

/** Ids of the one-call sessions of tool calls without a chat session. */
export const STANDALONE_PREFIX = 'tool:call:';

export function isStandaloneSession(id: string): boolean {
  return id.startsWith(STANDALONE_PREFIX);
}

/** Ids of the sessions of the user's own palette actions (`palette:apply-patch:<uuid>`). */
export const USER_PREFIX = 'palette:';

/** Ids of the sessions the user's reverts of recorded changes run in (`palette:revert:<uuid>`). */
export const REVERT_PREFIX = `${USER_PREFIX}revert:`;

/** The change comes from the user's own action, not from an agent (see the header). */
export function isUsersOwnSession(id: string): boolean {
  return id.startsWith(USER_PREFIX);
}

/**
 * The session id for an API caller that asked for `requested` (or for none: `fresh` is used). An id that would
 * pass for the user's own gets `api:` in front, so another extension cannot present its change as the user's.
 */
export function apiSessionId(requested: unknown, fresh: () => string): string {
  if (typeof requested !== 'string' || requested === '') return `${API_PREFIX}${fresh()}`;
  return isUsersOwnSession(requested) ? `${API_PREFIX}${requested}` : requested;
}

function uriText(value: unknown): string | undefined {
  if (typeof value === 'string') return value || undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const uri = value as { scheme?: unknown; authority?: unknown; path?: unknown; query?: unknown; toString?: () => string };
  if (typeof uri.scheme === 'string' && typeof uri.path === 'string') {
    return `${uri.scheme}://${typeof uri.authority === 'string' ? uri.authority : ''}${uri.path}${typeof uri.query === 'string' && uri.query ? `?${uri.query}` : ''}`;
  }
  return undefined;
}

/**
 * A subagent's calls in a chat (Copilot's `runSubagent`) carry the chat's token and, since VS Code 1.139, their
 * own `subAgentInvocationId`: such a call runs in a session of its own, `<chat key>#subagent:<id>`, so the
 * subagent's reads never count for its parent nor the parent's for it.
 */
export const SUBAGENT_SEPARATOR = '#subagent:';

/** The subagent invocation a tool call belongs to (its invocation options), or undefined. */
export function subagentOf(options: unknown): string | undefined {
  try {
    const id = (options as { subAgentInvocationId?: unknown } | undefined)?.subAgentInvocationId;
    return typeof id === 'string' && id !== '' ? id.slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

/** The session a subagent's calls run in, inside its chat's session. */
export const subagentKey = (chatKey: string, subagent: string): string => `${chatKey}${SUBAGENT_SEPARATOR}${subagent}`;

/**
 * The chat session VS Code's agent hooks name by its id (`session_id`), as its tool calls' tokens name it: a local
 * chat's resource is `vscode-chat-session://local/` and the id in unpadded base64url. So a chat's own tools (through
 * its hooks) and ReadGate's tools (through its token) share one ledger.
 */
export function chatKeyOfSessionId(sessionId: string): string {
  return `${CHAT_PREFIX}vscode-chat-session://local/${Buffer.from(sessionId, 'utf8').toString('base64url')}`;
}

/** The chat session a tool invocation token belongs to, or undefined when it cannot be told. */
export function sessionKeyOf(token: unknown): string | undefined {
  try {
    if (typeof token !== 'object' || token === null) return undefined;
    const fields = token as { sessionResource?: unknown; sessionId?: unknown };
    const resource = uriText(fields.sessionResource);
    if (resource) return `${CHAT_PREFIX}${resource}`;
    if (typeof fields.sessionId === 'string' && fields.sessionId) return `${CHAT_PREFIX}${fields.sessionId}`;
  } catch {
    // An exotic token (a proxy, a getter that throws): fail safe.
  }
  return undefined;
}
