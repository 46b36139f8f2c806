/**
 * A stand-in for a VS Code window with ReadGate, for agent CLIs whose own tools their hooks bring to it: a guard
 * on the folder (with a change history), behind the window's hook socket and judge, published where an agent's
 * hook in a terminal finds a window (`<READGATE_HOME>/hooks`). Built as the extension's host builds it
 * (src/vscode/agentHooks/agentHooksHost.ts), with the session keys a window uses.
 */
import * as fs from 'fs';
import * as path from 'path';
import { createGuard, type ChangeRecord, type Guard } from '../../src/core/index';
import { claudeAdapter, codexAdapter, geminiAdapter, qwenAdapter, guardHookSessions, HookJudge, hookWindowsDir, publishHookWindow, serveHooks } from '../../src/hooks/index';

export interface HookWindow {
  guard: Guard;
  /** Each hook input the window was asked to judge, in order. */
  asked: { client: string; input: Record<string, unknown> }[];
  history(): Promise<ChangeRecord[]>;
  close(): Promise<void>;
}

export async function openHookWindow(root: string, home: string): Promise<HookWindow> {
  const guard = createGuard({ roots: [root], history: { dir: path.join(home, 'history') } });
  const judge = new HookJudge({ 'claude-code': claudeAdapter(), codex: codexAdapter(), 'gemini-cli': geminiAdapter(), 'qwen-code': qwenAdapter() }, guardHookSessions(guard));
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

/** Where the hooks' calls go: a ReadGate window on the folder, or none (the headless hook guard they start). */
export interface Judge {
  title: string;
  /** Opens what judges (if anything) and returns the set-up line, as the README gives it. */
  open(root: string, home: string): Promise<string>;
  history(): Promise<ChangeRecord[]>;
  close(): Promise<void>;
}

export function windowJudge(setupLine: (root: string) => string): Judge {
  let window: HookWindow | undefined;
  return {
    title: 'a ReadGate window on the folder',
    open: async (root, home) => ((window = await openHookWindow(root, home)), setupLine(root)),
    history: () => window!.history(),
    close: async () => void (await window?.close()),
  };
}

/** No window: `dist/mcp.js setup … --own-tools --root` makes the hooks start the headless hook guard, which keeps the history in --history. */
export function headlessJudge(setupLine: (root: string, history: string) => string): Judge {
  let root = '';
  let home = '';
  return {
    title: 'no window (the headless hook guard)',
    open: async (folder, readgateHome) => {
      root = folder;
      home = readgateHome;
      return setupLine(root, path.join(home, 'history'));
    },
    history: async () => {
      const reader = createGuard({ roots: [root], history: { dir: path.join(home, 'history') } });
      try {
        return await reader.history();
      } finally {
        await reader.dispose();
      }
    },
    close: async () => {
      // The guard ends on SIGTERM: its entry and lock go with it.
      for (const entry of fs.existsSync(path.join(home, 'hooks')) ? fs.readdirSync(path.join(home, 'hooks')) : []) {
        if (!entry.endsWith('.json')) continue;
        const { pid, headless } = JSON.parse(fs.readFileSync(path.join(home, 'hooks', entry), 'utf8')) as { pid: number; headless?: boolean };
        if (headless) process.kill(pid, 'SIGTERM');
      }
    },
  };
}

