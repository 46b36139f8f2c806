/**
 * A stand-in for a VS Code window with ReadGate, for agent CLIs whose own tools their hooks bring to it: a guard
 * on the folder (with a change history), behind the window's hook socket and judge, published where an agent's
 * hook in a terminal finds a window (`<READGATE_HOME>/hooks`). Built as the extension's host builds it
 * (src/vscode/agentHooks/agentHooksHost.ts), with the session keys a window uses.
 */
import * as path from 'path';
import { createGuard, type ChangeRecord, type Guard } from '../../src/core/index';
import { claudeAdapter, guardHookSessions, HookJudge, hookWindowsDir, publishHookWindow, serveHooks } from '../../src/hooks/index';

export interface HookWindow {
  guard: Guard;
  /** Each hook input the window was asked to judge, in order. */
  asked: { client: string; input: Record<string, unknown> }[];
  history(): Promise<ChangeRecord[]>;
  close(): Promise<void>;
}

export async function openHookWindow(root: string, home: string): Promise<HookWindow> {
  const guard = createGuard({ roots: [root], history: { dir: path.join(home, 'history') } });
  const judge = new HookJudge({ 'claude-code': claudeAdapter() }, guardHookSessions(guard));
  const asked: HookWindow['asked'] = [];
  const server = await serveHooks(
    home,
    (request, wait, signal) => {
      asked.push({ client: request.client, input: request.input as Record<string, unknown> });
      return judge.handle(request, wait, signal);
    },
    () => undefined,
  );
  const entry = publishHookWindow(hookWindowsDir({ READGATE_HOME: home }), 'stand-in', {
    version: 1,
    pid: process.pid,
    socket: server.socket,
    token: server.token,
    folders: [root],
    started: Date.now(),
  });
  return {
    guard,
    asked,
    history: () => guard.history(),
    close: async () => {
      entry.remove();
      await server.close();
      await guard.dispose();
    },
  };
}
