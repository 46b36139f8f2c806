/**
 * Where a session's changes come from, as the change history records it (`ChangeRecord.surface`): read from
 * the prefix its owner minted the id with (sessionKeys.ts), so every surface is named the same way in the
 * Agent Changes view, the statistics and the exported log. Pure.
 *
 * - `chat`: the `@readgate` participant;
 * - `tool`: a language model tool call of another chat agent (Copilot's agent mode), with or without a chat;
 * - `mcp`: an MCP client (the record's label is its name and version);
 * - `palette`: the user's own command (Apply Patch…, a revert);
 * - `api`: everything else: the extension API (any id another extension chose), the walkthrough's sample agent.
 */
import { CHAT_PREFIX, isStandaloneSession, isUsersOwnSession, MCP_PREFIX, PARTICIPANT_PREFIX } from './sessionKeys';

export type Surface = 'chat' | 'tool' | 'mcp' | 'api' | 'palette';

export function surfaceOf(sessionId: string): Surface {
  if (sessionId.startsWith(PARTICIPANT_PREFIX)) return 'chat';
  if (sessionId.startsWith(CHAT_PREFIX) || isStandaloneSession(sessionId)) return 'tool';
  if (sessionId.startsWith(MCP_PREFIX)) return 'mcp';
  if (isUsersOwnSession(sessionId)) return 'palette';
  return 'api';
}
