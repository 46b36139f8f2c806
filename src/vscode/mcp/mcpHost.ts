/**
 * Serves ReadGate's five tools over MCP (Streamable HTTP on 127.0.0.1, behind a per-window secret token) while
 * `readgate.mcp.enabled` is on, so agents outside VS Code's tool API (Claude Code, Codex, Cline…) use the
 * same guard: each MCP session is a ledger session labelled with the client's name, its edits wait in the same
 * review panel, and dirty editors are the truth as for the language model tools. While it runs, the window's
 * discovery file tells the stdio bridge where it is; both go when the window closes or the setting goes off.
 * Optionally the server is offered to VS Code's own MCP support (`readgate.mcp.registerWithVsCode`).
 *
 * A call whose change waits in the review panel tells its client so with MCP progress notifications (when the
 * client asked for progress), so a client that resets its timeout on progress keeps waiting for the user. An
 * MCP session idle (no request) for longer than a chat session lives (DEFAULT_TOOL_SESSION_LIMITS.ttlMs) is
 * closed, and its ledger session ends (it stays under Ended sessions).
 */
import { randomBytes, randomUUID } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { type Guard, type GuardSession, parseToolCall, type ToolOutcome, writeFileAtomic } from '../../core/index';
import {
  AgentContexts,
  clientLabel,
  clientPolicy,
  contextLabel,
  createToolServer,
  discoveryDir,
  ForgetWatch,
  type HttpMcpServer,
  mustForget,
  type ProgressReport,
  publishWindow,
  READGATE_VERSION,
  reviewWaitMessage,
  serveHttp,
  WAIT_PROGRESS_INTERVAL_MS,
  WaitProgress,
  windowFileId,
} from '../../mcp/index';
import type { ReviewWaits } from '../approval/approvalService';
import type { Config } from '../config';
import type { Log } from '../log';
import type { AgentProblems } from '../problems/agentProblems';
import { MCP_PREFIX } from '../sessions/sessionKeys';
import type { SessionLabels } from '../sessions/sessionLabels';
import { DEFAULT_TOOL_SESSION_LIMITS, type ToolSessions } from '../tools/toolSessions';
import { Disposable } from '../util/dispose';
import { toGuardPath } from '../util/paths';
import { showVirtualPaths } from '../util/virtualPaths';
import type { McpEndpoint, McpServerControl } from './mcpEndpoint';

const PROVIDER_ID = 'readgate';

/** How long an MCP session may stay idle, and how often a call waiting for review reports progress. */
export interface McpTimings {
  idleMs: number;
  progressMs: number;
}

export const DEFAULT_MCP_TIMINGS: McpTimings = { idleMs: DEFAULT_TOOL_SESSION_LIMITS.ttlMs, progressMs: WAIT_PROGRESS_INTERVAL_MS };

interface Running {
  server: HttpMcpServer;
  endpoint: McpEndpoint;
  unpublish(): void;
}

export class McpHost extends Disposable implements McpServerControl {
  private running: Running | undefined;
  private starting: Promise<void> | undefined;
  private readonly _onDidChangeEndpoint = this._register(new vscode.EventEmitter<McpEndpoint | undefined>());
  readonly onDidChangeEndpoint = this._onDidChangeEndpoint.event;
  private readonly _onDidChangeDefinitions = this._register(new vscode.EventEmitter<void>());
  readonly bridgePath: string;
  readonly discoveryDir = discoveryDir();
  /** What VS Code was given each time it asked for MCP servers (URIs), for the integration tests. */
  readonly offered: string[][] = [];
  readonly headlessPath: string;
  private readonly token = randomBytes(32).toString('base64url');
  /** The id in this window's discovery file name, the same for every publish while the window lives. */
  private readonly fileId = windowFileId(vscode.env.sessionId, randomUUID());
  /** Each open MCP session's client (from `initialize`) and when it opened, for its budget and for forgetting. */
  private readonly clients = new Map<string, { name?: string; opened: number }>();
  /** Forget requests from clients' hooks (`mcp-bridge.js hook`, or `--forget`) for this window's folders. */
  private readonly forget = new ForgetWatch(() => this.folders());
  /** The agent contexts clients' hooks named (`mcp-bridge.js hook`): a ledger session each. */
  private readonly contexts = new AgentContexts();

  constructor(
    private readonly deps: {
      extensionUri: vscode.Uri;
      config: Config;
      guard: Guard;
      toolSessions: ToolSessions;
      labels: SessionLabels;
      reviews: ReviewWaits;
      log: Log;
      problems?: AgentProblems;
    },
    private timings: McpTimings = DEFAULT_MCP_TIMINGS,
  ) {
    super();
    // Outside the extension's folder (which changes with every update), so agents' configurations keep working;
    // beside the discovery folder, which is the user's (not this process's HOME), so any terminal of the user finds both.
    this.bridgePath = path.join(path.dirname(this.discoveryDir), 'mcp-bridge.js');
    this.headlessPath = vscode.Uri.joinPath(deps.extensionUri, 'dist', 'mcp.js').fsPath;
    this._register(deps.config.onDidChange(() => this.reconcile()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.republish()));
    this._register(
      vscode.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, {
        onDidChangeMcpServerDefinitions: this._onDidChangeDefinitions.event,
        provideMcpServerDefinitions: () => {
          const endpoint = this.running?.endpoint;
          const definitions =
            endpoint && this.deps.config.current.mcpRegisterWithVsCode
              ? [
                  new vscode.McpHttpServerDefinition(
                    'ReadGate',
                    vscode.Uri.parse(endpoint.url),
                    { Authorization: `Bearer ${endpoint.token}` },
                    READGATE_VERSION,
                  ),
                ]
              : [];
          this.offered.push(definitions.map((definition) => definition.uri.toString()));
          return definitions;
        },
      }),
    );
    this._register(new vscode.Disposable(() => void this.stop()));
    // Lazily: activation does not wait for the server.
    setTimeout(() => this.reconcile(), 0);
  }

  get endpoint(): McpEndpoint | undefined {
    return this.running?.endpoint;
  }

  async enable(): Promise<McpEndpoint | undefined> {
    if (this.running) return this.running.endpoint;
    const started = new Promise<McpEndpoint | undefined>((resolve) => {
      const timer = setTimeout(() => done(this.running?.endpoint), 10_000);
      const subscription = this.onDidChangeEndpoint((endpoint) => endpoint && done(endpoint));
      const done = (endpoint: McpEndpoint | undefined): void => {
        clearTimeout(timer);
        subscription.dispose();
        resolve(endpoint);
      };
    });
    await vscode.workspace.getConfiguration('readgate').update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
    this.reconcile();
    return started;
  }

  /**
   * New timings (integration tests shorten them). A running server restarts with them, on a new port, and its
   * sessions end; resolves once it runs again.
   */
  async setTimings(timings: McpTimings): Promise<McpEndpoint | undefined> {
    this.timings = timings;
    if (!this.running) return undefined;
    await this.stop();
    return this.enable();
  }

  private reconcile(): void {
    if (this.isDisposed) return;
    const wanted = this.deps.config.current.mcpEnabled;
    if (wanted && !this.running && !this.starting) {
      this.starting = this.start().finally(() => {
        this.starting = undefined;
        // The setting may have changed while starting.
        if (!this.deps.config.current.mcpEnabled || this.isDisposed) void this.stop();
      });
    } else if (!wanted && this.running) {
      void this.stop();
    }
    this._onDidChangeDefinitions.fire();
  }

  private async start(): Promise<void> {
    try {
      this.installBridge();
      const server = await serveHttp({
        token: this.token,
        openSession: (id) => this.openSession(id),
        idleMs: this.timings.idleMs,
        log: (message) => this.deps.log.info(`[mcp] ${message}`),
      });
      const published = this.publish(server.url);
      this.running = { server, endpoint: { url: server.url, token: this.token, discoveryFile: published.file }, unpublish: published.remove };
      this.deps.log.info(`[mcp] serving MCP at ${server.url} (discovery file ${published.file})`);
      this._onDidChangeEndpoint.fire(this.running.endpoint);
      this._onDidChangeDefinitions.fire();
    } catch (error) {
      this.deps.log.error(`[mcp] could not start the MCP server: ${(error as Error).message}`);
      void vscode.window.showErrorMessage(
        `ReadGate could not start its MCP server: ${(error as Error).message}. External agents cannot connect to this window; see "ReadGate: Show Log".`,
      );
    }
  }

  private async stop(): Promise<void> {
    const running = this.running;
    if (!running) return;
    this.running = undefined;
    running.unpublish();
    await running.server.close();
    this.deps.log.info('[mcp] stopped the MCP server');
    if (!this.isDisposed) {
      this._onDidChangeEndpoint.fire(undefined);
      this._onDidChangeDefinitions.fire();
    }
  }

  private folders(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath);
  }

  private publish(url: string): { file: string; remove(): void } {
    return publishWindow(
      { version: 1, pid: process.pid, url, token: this.token, folders: this.folders(), name: vscode.workspace.name ?? 'VS Code', started: Date.now() },
      this.fileId,
      this.discoveryDir,
    );
  }

  private republish(): void {
    if (!this.running) return;
    const published = this.publish(this.running.server.url);
    this.running.endpoint = { ...this.running.endpoint, discoveryFile: published.file };
    this.running.unpublish = published.remove;
  }

  /**
   * Copies the bridge next to the discovery folder when it differs (atomically, so a starting agent never runs half
   * a file), and the agent hook beside it, which an own-tools set-up through the bridge runs before each tool call.
   */
  private installBridge(): void {
    for (const name of ['mcp-bridge.js', 'agent-hook.js']) {
      const content = fs.readFileSync(vscode.Uri.joinPath(this.deps.extensionUri, 'dist', name).fsPath);
      const target = path.join(path.dirname(this.bridgePath), name);
      try {
        if (fs.readFileSync(target).equals(content)) continue;
      } catch {
        // not installed yet
      }
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      writeFileAtomic(target, content, 0o644);
    }
  }

  /** One MCP session = one ledger session, named after the client once it says who it is. */
  private openSession(mcpSessionId: string): { server: ReturnType<typeof createToolServer>; close(): void } {
    const id = `${MCP_PREFIX}${mcpSessionId}`;
    this.clients.set(id, { opened: Date.now() });
    const server = createToolServer({
      call: (name, input, signal, progress, meta) => this.call(id, name, input, signal, progress, meta),
      onClient: (client) => {
        this.clients.set(id, { name: client.name, opened: this.clients.get(id)?.opened ?? Date.now() });
        this.deps.labels.set(id, clientLabel(client));
        this.deps.log.info(`[mcp] session ${mcpSessionId.slice(0, 8)} opened by ${clientLabel(client) ?? 'an unnamed client'}`);
      },
    });
    return {
      server,
      close: () => {
        for (const context of this.contexts.end(id)) this.endContext(context.id);
        this.endContext(id);
        this.clients.delete(id);
      },
    };
  }

  private endContext(id: string): void {
    this.deps.guard.dropSession(id);
    this.deps.labels.delete(id);
  }

  /**
   * The session a call runs in: its agent context's when the client's hook named one (placeholders on where its
   * compaction is hooked too), else the MCP session's own; created at its first call with the client's budget.
   */
  private sessionFor(id: string, meta: unknown): GuardSession {
    const config = this.deps.config.current;
    const client = this.clients.get(id);
    const policy = clientPolicy(client?.name, {
      maxResultChars: config.mcpMaxReadChars,
      placeholders: config.mcpPlaceholders,
      howToRaise: 'the readgate.mcp.maxReadChars setting',
    });
    const context = this.contexts.route(id, meta);
    if (!context) return this.deps.toolSessions.forKey(id, { dedup: policy.placeholders && config.dedup, resultBudget: policy.budget });
    if (!this.deps.labels.has(context.id)) this.deps.labels.set(context.id, contextLabel(this.deps.labels.labelOf(id), context), id);
    return this.deps.toolSessions.forKey(context.id, { dedup: (policy.placeholders || context.compactionHooked) && config.dedup, resultBudget: policy.budget });
  }

  /**
   * A client's hook asked to forget (a context was compacted or cleared) or said a subagent stopped: the MCP
   * sessions of that client forget what the conversation's context (or, for older hooks, any context) had read,
   * and a stopped subagent's context ends.
   */
  private forgetAsked(): void {
    for (const marker of this.forget.newMarkers()) {
      const bases = new Set<string>();
      for (const [id, client] of this.clients) {
        if (marker.time >= client.opened && (marker.client === undefined || marker.client.toLowerCase() === client.name?.toLowerCase())) bases.add(id);
        if (!mustForget(marker, client.name, client.opened) || !this.deps.guard.hasSession(id)) continue;
        this.deps.guard.session(id).clear();
        this.deps.log.info(
          `[mcp] session ${id.slice(MCP_PREFIX.length, MCP_PREFIX.length + 8)} forgot what it had read: ${client.name ?? 'its client'} asked (compaction or clear)`,
        );
      }
      const effects = this.contexts.apply(marker, bases);
      for (const context of effects.cleared) {
        if (!this.deps.guard.hasSession(context.id)) continue;
        this.deps.guard.session(context.id).clear();
        this.deps.log.info(`[mcp] ${this.deps.labels.labelOf(context.id)} forgot what it had read (compaction or clear)`);
      }
      for (const context of effects.ended) this.endContext(context.id);
    }
  }

  private async call(id: string, name: string, input: unknown, signal: AbortSignal, progress: ProgressReport | undefined, meta: unknown): Promise<ToolOutcome> {
    this.forgetAsked();
    const call = parseToolCall(name, input, (filePath) => toGuardPath(filePath));
    const waiting = progress && this.reportReviewWaits(id, progress);
    try {
      const outcome = call.ok ? await this.run(this.sessionFor(id, meta), (session) => call.run(session, signal)) : call;
      return outcome.ok ? { ok: true, text: showVirtualPaths(outcome.text) } : { ...outcome, message: showVirtualPaths(outcome.message) };
    } finally {
      waiting?.dispose();
    }
  }

  /** Runs a call in its session; a change's result ends with the problems it introduced. */
  private run(session: GuardSession, work: (session: GuardSession) => Promise<ToolOutcome>): Promise<ToolOutcome> {
    const problems = this.deps.problems;
    return problems ? problems.run(session.id, session.maxResultChars(), () => work(session)) : work(session);
  }

  /**
   * While the session has a change waiting for review (this call's, or one this call waits behind), reports
   * progress to the call's client. Per session, not per call: the guard's approval request does not say which
   * call made it, and a call queued behind another's review waits for the user just the same.
   */
  private reportReviewWaits(id: string, progress: ProgressReport): vscode.Disposable {
    const wait = new WaitProgress(progress, this.timings.progressMs);
    const update = (): void => {
      const files = this.deps.reviews.waitingFiles(id);
      wait.set(files.length > 0 ? reviewWaitMessage(files) : undefined);
    };
    const subscription = this.deps.reviews.onDidChangeWaiting((sessionId) => sessionId === id && update());
    update();
    return new vscode.Disposable(() => {
      subscription.dispose();
      wait.dispose();
    });
  }
}
