/**
 * VS Code's agents keep their own tools, judged by ReadGate through their hooks, while `readgate.agentHooks.enabled`
 * is on. The hook itself ships with the extension as an agent plugin (`media/copilotHooks`, contributed with a
 * `when` clause on the setting, so VS Code runs it for its agents in every workspace only while the setting is on,
 * and nothing is written to the user's repository or hook files). While on, this owner listens on a private
 * socket (`serveHooks`) and names it in this extension host's environment, which the hooks the agents' hook runner
 * spawns from this host inherit: a hook reaches exactly its own window, without the MCP server.
 *
 * Each chat session is the ledger its tool calls through ReadGate's own tools use too (`chatKeyOfSessionId`); a
 * subagent's calls between its `SubagentStart` and `SubagentStop` have their own, as its own tool calls do.
 */
import * as vscode from 'vscode';
import type { Guard, GuardSession } from '../../core/index';
import { copilotAdapter, HOOK_ENV, HookJudge, type HookServer, type HookSessions, serveHooks } from '../../hooks/index';
import { readgateHome } from '../../mcp/index';
import { type Config, DEFAULT_CONFIG } from '../config';
import type { Log } from '../log';
import { chatKeyOfSessionId, subagentKey } from '../sessions/sessionKeys';
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

/** The ledger sessions of Copilot's chats (its hooks' `session_id`) and their subagents. */
class CopilotSessions implements HookSessions {
  constructor(private readonly deps: AgentHooksDeps) {}

  private chatKey(conversation: string): string {
    const key = chatKeyOfSessionId(conversation);
    if (!this.deps.labels.has(key)) this.deps.labels.set(key, `Copilot chat ${conversation.slice(0, 8)}`);
    return key;
  }

  session(_client: string, conversation: string, agent: string | undefined): GuardSession {
    const chat = this.chatKey(conversation);
    return this.deps.toolSessions.forChat(agent === undefined ? chat : subagentKey(chat, agent));
  }

  unplaced(_client: string, conversation: string): GuardSession {
    const key = `${this.chatKey(conversation)}#unplaced`;
    this.deps.labels.set(key, `${this.deps.labels.labelOf(this.chatKey(conversation))} › a call of one of several subagents`, this.chatKey(conversation));
    return this.deps.toolSessions.forChat(key);
  }

  started(_client: string, conversation: string, agent: string, agentType: string | undefined): void {
    const chat = this.chatKey(conversation);
    this.deps.labels.set(subagentKey(chat, agent), `${this.deps.labels.labelOf(chat)} › subagent ${agentType ?? agent.slice(0, 12)}`, chat);
  }

  forget(_client: string, conversation: string): void {
    const key = chatKeyOfSessionId(conversation);
    if (this.deps.guard.hasSession(key)) this.deps.guard.session(key).clear();
    this.deps.log.info('[hooks] the chat was summarized: its session forgot what it was shown', { session: key });
  }

  end(_client: string, conversation: string, agent: string): void {
    this.deps.guard.dropSession(subagentKey(chatKeyOfSessionId(conversation), agent), 'ended');
  }
}

export class AgentHooksHost extends Disposable {
  private server: HookServer | undefined;
  private starting: Promise<void> | undefined;
  readonly judge: HookJudge;

  constructor(private readonly deps: AgentHooksDeps) {
    super();
    // What counts of one read_file result: the budget ReadGate keeps Copilot's tool results within (never none:
    // Copilot leaves lines out of a result its prompt has no room for, and a hook is not told which).
    const adapters = { copilot: copilotAdapter(() => deps.config.current.toolsMaxResultChars || DEFAULT_CONFIG.toolsMaxResultChars) };
    this.judge = new HookJudge(adapters, new CopilotSessions(deps), (message, data, level) =>
      level === 'warn' ? deps.log.warn(message, data) : deps.log.debug(message, data),
    );
    this._register(deps.onDidChangeWaiting((sessionId) => this.judge.reviewStarted(sessionId)));
    this._register(deps.config.onDidChange(() => void this.apply()));
    this._register(new vscode.Disposable(() => void this.stop()));
    void this.apply();
  }

  /** The socket hooks reach this window at, while the setting is on (for tests and the log). */
  get endpoint(): string | undefined {
    return this.server?.socket;
  }

  /** Starts or stops serving to match the setting; resolves once it does. */
  async apply(): Promise<void> {
    await this.starting;
    const wanted = this.deps.config.current.agentHooksEnabled && !this.isDisposed;
    if (wanted === (this.server !== undefined)) return;
    if (!wanted) return this.stop();
    this.starting = this.start();
    await this.starting;
    this.starting = undefined;
  }

  private async start(): Promise<void> {
    try {
      const server = await serveHooks(
        readgateHome(),
        (request, wait, signal) => this.judge.handle(request, wait, signal),
        (error) => this.deps.log.warn('[hooks] a hook call failed; it was allowed', { error: String((error as Error)?.message ?? error) }),
      );
      if (this.isDisposed || !this.deps.config.current.agentHooksEnabled) return void server.close();
      this.server = server;
      // The hook runner spawns hooks from this extension host: they inherit where to reach this window.
      process.env[HOOK_ENV.socket] = server.socket;
      process.env[HOOK_ENV.token] = server.token;
      process.env[HOOK_ENV.node] = process.execPath;
      this.deps.log.info("[hooks] VS Code's agents keep their own tools, judged by ReadGate", { socket: server.socket });
    } catch (error) {
      this.deps.log.error('[hooks] could not listen for agent hooks; their calls are allowed unjudged', { error: String((error as Error)?.message ?? error) });
    }
  }

  private async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    if (process.env[HOOK_ENV.socket] === server.socket) {
      delete process.env[HOOK_ENV.socket];
      delete process.env[HOOK_ENV.token];
      delete process.env[HOOK_ENV.node];
    }
    await server.close();
    this.deps.log.info("[hooks] VS Code's agents' own tools are no longer judged");
  }
}
