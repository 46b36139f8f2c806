/**
 * Agents keep their own tools, judged by ReadGate through their hooks. This owner listens on a private socket
 * (`serveHooks`) for the hooks of this window's agents:
 * - VS Code's own (Copilot's agent mode), while `readgate.agentHooks.enabled` is on. Their hook ships with the
 *   extension as an agent plugin (`media/copilotHooks`, contributed with a `when` clause on the setting, so VS Code
 *   runs it in every workspace only while the setting is on; nothing is written to the user's repository or hook
 *   files). Their hooks are spawned from this extension host, so they inherit where to reach this window: the
 *   socket is named in its environment.
 * - Agent CLIs in a terminal (Claude Code set up with `--own-tools`): their hooks find this window by the folder
 *   they work in, from the entry it publishes in ReadGate's home (`hookWindows.ts`).
 *
 * Copilot's chat sessions are the ledgers its calls through ReadGate's own tools use too (`chatKeyOfSessionId`);
 * a CLI's conversation is `hook:<client>:<conversation>`; a subagent has its own inside either.
 */
import { randomBytes } from 'crypto';
import * as vscode from 'vscode';
import type { Guard, GuardSession } from '../../core/index';
import {
  claudeAdapter,
  codexAdapter,
  geminiAdapter,
  qwenAdapter,
  copilotAdapter,
  HOOK_ENV,
  HookJudge,
  type HookServer,
  type HookSessions,
  hookWindowsDir,
  publishHookWindow,
  serveHooks,
} from '../../hooks/index';
import { readgateHome } from '../../mcp/index';
import { type Config, DEFAULT_CONFIG } from '../config';
import type { Log } from '../log';
import { chatKeyOfSessionId, hookConversationKey, subagentKey } from '../sessions/sessionKeys';
import type { SessionLabels } from '../sessions/sessionLabels';
import type { ToolSessions } from '../tools/toolSessions';
import { Disposable } from '../util/dispose';

export interface AgentHooksDeps {
  config: Config;
  guard: Guard;
  toolSessions: ToolSessions;
  labels: SessionLabels;
  log: Log;
  /** Fires with a session id when a change of it starts (or stops) waiting for review. */
  onDidChangeWaiting: vscode.Event<string>;
}

/** Each client's name for people, for its conversations' labels. */
const CLIENT_NAMES: Record<string, string> = {
  copilot: 'Copilot chat',
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  'qwen-code': 'Qwen Code',
};

/** The ledger sessions of the clients' conversations and their subagents, as this window keeps them. */
class WindowHookSessions implements HookSessions {
  constructor(private readonly deps: AgentHooksDeps) {}

  private conversationKey(client: string, conversation: string): string {
    const key = client === 'copilot' ? chatKeyOfSessionId(conversation) : hookConversationKey(client, conversation);
    if (!this.deps.labels.has(key)) this.deps.labels.set(key, `${CLIENT_NAMES[client] ?? client} ${conversation.slice(0, 8)}`);
    return key;
  }

  session(client: string, conversation: string, agent: string | undefined): GuardSession {
    const parent = this.conversationKey(client, conversation);
    if (agent === undefined) return this.deps.toolSessions.forChat(parent);
    const key = subagentKey(parent, agent);
    if (!this.deps.labels.has(key)) this.deps.labels.set(key, `${this.deps.labels.labelOf(parent)} › subagent ${agent.slice(0, 12)}`, parent);
    return this.deps.toolSessions.forChat(key);
  }

  unplaced(client: string, conversation: string): GuardSession {
    const parent = this.conversationKey(client, conversation);
    const key = `${parent}#unplaced`;
    this.deps.labels.set(key, `${this.deps.labels.labelOf(parent)} › a call of one of several subagents`, parent);
    return this.deps.toolSessions.forChat(key);
  }

  started(client: string, conversation: string, agent: string, agentType: string | undefined): void {
    const parent = this.conversationKey(client, conversation);
    this.deps.labels.set(subagentKey(parent, agent), `${this.deps.labels.labelOf(parent)} › subagent ${agentType ?? agent.slice(0, 12)}`, parent);
  }

  forget(client: string, conversation: string, agent?: string): void {
    const parent = this.conversationKey(client, conversation);
    const key = agent === undefined ? parent : subagentKey(parent, agent);
    if (this.deps.guard.hasSession(key)) this.deps.guard.session(key).clear();
    this.deps.log.info('[hooks] a context was compacted or cleared: its session forgot what it was shown', { session: key });
  }

  end(client: string, conversation: string, agent: string): void {
    this.deps.guard.dropSession(subagentKey(this.conversationKey(client, conversation), agent), 'ended');
  }
}

const folders = (): string[] => (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);

export class AgentHooksHost extends Disposable {
  private server: HookServer | undefined;
  private entry: { update(folders: string[]): void; remove(): void } | undefined;
  readonly judge: HookJudge;
  readonly ready: Promise<void>;

  constructor(private readonly deps: AgentHooksDeps) {
    super();
    // What counts of one read_file result: the budget ReadGate keeps Copilot's tool results within (never none:
    // Copilot leaves lines out of a result its prompt has no room for, and a hook is not told which).
    const copilot = copilotAdapter(() => deps.config.current.toolsMaxResultChars || DEFAULT_CONFIG.toolsMaxResultChars);
    const adapters = { copilot, 'claude-code': claudeAdapter(), codex: codexAdapter(), 'gemini-cli': geminiAdapter(), 'qwen-code': qwenAdapter() };
    const log = (message: string, data: Record<string, unknown>, level?: 'debug' | 'warn'): void =>
      level === 'warn' ? deps.log.warn(message, data) : deps.log.debug(message, data);
    this.judge = new HookJudge(adapters, new WindowHookSessions(deps), log);
    this._register(deps.onDidChangeWaiting((sessionId) => this.judge.reviewStarted(sessionId)));
    this._register(deps.config.onDidChange(() => this.applyEnvironment()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.entry?.update(folders())));
    this._register(new vscode.Disposable(() => void this.stop()));
    this.ready = this.start();
  }

  /** The socket hooks reach this window at (for tests and the log). */
  get endpoint(): string | undefined {
    return this.server?.socket;
  }

  private async start(): Promise<void> {
    try {
      const server = await serveHooks(
        readgateHome(),
        (request, wait, signal) => this.judge.handle(request, wait, signal),
        (error) => this.deps.log.warn('[hooks] a hook call failed; it was allowed', { error: String((error as Error)?.message ?? error) }),
      );
      if (this.isDisposed) return void server.close();
      this.server = server;
      this.entry = publishHookWindow(hookWindowsDir(process.env), randomBytes(6).toString('hex'), {
        version: 1,
        pid: process.pid,
        socket: server.socket,
        token: server.token,
        folders: folders(),
        started: Date.now(),
      });
      this.applyEnvironment();
      this.deps.log.info("[hooks] agents' own tools are judged here, through their hooks", { socket: server.socket });
    } catch (error) {
      this.deps.log.error("[hooks] could not listen for agent hooks; agents' own tools are not judged", { error: String((error as Error)?.message ?? error) });
    }
  }

  /**
   * VS Code's agents' hooks, spawned from this extension host, inherit where to reach this window while the
   * setting is on (the plugin runs only then anyway).
   */
  private applyEnvironment(): void {
    const server = this.server;
    if (server && this.deps.config.current.agentHooksEnabled && !this.isDisposed) {
      process.env[HOOK_ENV.socket] = server.socket;
      process.env[HOOK_ENV.token] = server.token;
      process.env[HOOK_ENV.node] = process.execPath;
    } else if (!server || process.env[HOOK_ENV.socket] === server.socket) {
      delete process.env[HOOK_ENV.socket];
      delete process.env[HOOK_ENV.token];
      delete process.env[HOOK_ENV.node];
    }
  }

  private async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.entry?.remove();
    this.entry = undefined;
    if (!server) return;
    if (process.env[HOOK_ENV.socket] === server.socket) {
      delete process.env[HOOK_ENV.socket];
      delete process.env[HOOK_ENV.token];
      delete process.env[HOOK_ENV.node];
    }
    await server.close();
  }
}
