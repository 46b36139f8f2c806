/**
 * The sessions of hook clients' conversations in a guard of their own, as the headless hook guard keeps them
 * (`src/mcp/hookGuard.ts`): `hook:<client>:<conversation>`, a subagent's `…#subagent:<agent>`, the keys a VS Code
 * window gives them too (src/vscode/sessions/sessionKeys.ts), so their records read alike in the history.
 */
import type { Guard } from '../core/index';
import type { HookSessions } from './hookJudge';

const conversationKey = (client: string, conversation: string): string => `hook:${client}:${conversation}`;
const contextKey = (client: string, conversation: string, agent?: string): string =>
  agent === undefined ? conversationKey(client, conversation) : `${conversationKey(client, conversation)}#subagent:${agent}`;

export function guardHookSessions(guard: Guard): HookSessions {
  return {
    session: (client, conversation, agent) => guard.session(contextKey(client, conversation, agent)),
    unplaced: (client, conversation) => guard.session(`${conversationKey(client, conversation)}#unplaced`),
    forget: (client, conversation, agent) => {
      const key = contextKey(client, conversation, agent);
      if (guard.hasSession(key)) guard.session(key).clear();
    },
    end: (client, conversation, agent) => guard.dropSession(contextKey(client, conversation, agent), 'ended'),
  };
}
