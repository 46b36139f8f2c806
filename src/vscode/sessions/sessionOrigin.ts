/**
 * Where a session's changes come from, as the change history records it (`ChangeRecord.surface`): read from
 * the prefix its owner minted the id with (sessionKeys.ts), so every surface is named the same way in the
 * Agent Changes view, the statistics and the exported log. Pure.
 *
 * - `chat`: the `@readgate` participant;
 * - `tool`: a language model tool call of another chat agent (Copilot's agent mode), with or without a chat;
 * - `mcp`: an MCP client (the record's label is its name and version);
 * - `palette`: the user's own command (Apply Patch…, a revert);
 * - `hook`: an agent CLI's own tools, judged through its hooks (Copilot's chats keep `tool`: their sessions are
 *   the ones ReadGate's tools use, and a change through a hook says `hook` in its own record);
 * - `api`: everything else: the extension API (any id another extension chose), the walkthrough's sample agent.
 */
import { CHAT_PREFIX, HOOK_PREFIX, isStandaloneSession, isUsersOwnSession, MCP_PREFIX, PARTICIPANT_PREFIX } from './sessionKeys';

export type Surface = 'chat' | 'tool' | 'mcp' | 'hook' | 'api' | 'palette';

export function surfaceOf(sessionId: string): Surface {
  if (sessionId.startsWith(PARTICIPANT_PREFIX)) return 'chat';
  if (sessionId.startsWith(CHAT_PREFIX) || isStandaloneSession(sessionId)) return 'tool';
  if (sessionId.startsWith(MCP_PREFIX)) return 'mcp';
  if (sessionId.startsWith(HOOK_PREFIX)) return 'hook';
  if (isUsersOwnSession(sessionId)) return 'palette';
  return 'api';
}

/**
 * The guard as every owner of this window should use it: each session it opens or touches says where its changes
 * come from and who it is (`SessionOptions.surface` and `label`), so every change on record names them, without
 * each owner that opens sessions (tool calls, @readgate, MCP, the API, palette commands) having to pass them.
 * The label is looked up at each call, so a name given later (an MCP client's, after it says who it is) is on
 * the records of the changes made after it; options the caller passes win.
 */
export function withSessionOrigins<G extends { session(id: string, options?: O): S }, O extends object, S>(
  guard: G,
  labelOf: (sessionId: string) => string,
): G {
  const session = (id: string, options?: O): S => guard.session(id, { surface: surfaceOf(id), label: labelOf(id), ...options } as O);
  return new Proxy(guard, {
    get(target, property) {
      if (property === 'session') return session;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
