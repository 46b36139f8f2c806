/**
 * Entry point: wires the feature owners in small groups, each handing its own to `context.subscriptions`, and
 * returns the API. No logic lives here.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { createHistory, type Guard, type History, ToolResultStore } from '../core/index';
import { AgentHooksHost } from './agentHooks/agentHooksHost';
import { Api, type ReadGateApi } from './api';
import { CommandManager, registerCommands } from './commands';
import { registerAgentCommands } from './commands/agentCommands';
import type { HistoryDeps } from './commands/historyCommands';
import { Config } from './config';
import { ApprovalService } from './approval/approvalService';
import { ReadGateParticipant } from './chat/participant';
import { DetailsDocuments } from './details/detailsDocuments';
import { ChangeWatcher } from './documents/changeWatcher';
import { EditorFileSystem } from './documents/editorFileSystem';
import { GuardHost } from './guardHost';
import { AgentChangesView } from './history/agentChangesView';
import { GuardHistory } from './history/guardHistory';
import { HistoryDocuments } from './history/historyDocuments';
import { historyFolder } from './history/historyFolder';
import { ProblemMarkStore } from './history/problemMarkStore';
import { Log } from './log';
import { AgentProblems } from './problems/agentProblems';
import { McpHost } from './mcp/mcpHost';
import { Reports } from './reports/reports';
import { SessionLabels } from './sessions/sessionLabels';
import { EndedSessions } from './sessions/endedSessions';
import { withSessionOrigins } from './sessions/sessionOrigin';
import { registerTestHooks } from './testing/testHooks';
import { guardPathToUri } from './util/paths';
import { registerTools } from './tools/registerTools';
import { ToolSessions } from './tools/toolSessions';
import { SessionsView } from './views/sessionsView';

/** The history store, flushed when the extension deactivates (records still being written are kept). */
let historyStore: History | undefined;

/** The guard and what it is built from; every later group reads from these. */
interface GuardParts {
  log: Log;
  config: Config;
  files: EditorFileSystem;
  watcher: ChangeWatcher;
  labels: SessionLabels;
  approvals: ApprovalService;
  toolResults: ToolResultStore;
  problems: AgentProblems;
  guard: Guard;
  /** Where the change history is kept; undefined when VS Code gave no storage folder. */
  folder: string | undefined;
  store: History | undefined;
}

interface HistoryParts {
  history: GuardHistory | undefined;
  marks: ProblemMarkStore | undefined;
  agentChanges: AgentChangesView;
  /** What the history's commands need. */
  deps: HistoryDeps;
}

interface AgentParts {
  mcp: McpHost;
  participant: ReadGateParticipant;
  hooks: AgentHooksHost;
}

interface SessionParts {
  api: Api;
  toolSessions: ToolSessions;
  ended: EndedSessions;
  reports: Reports;
}

export function activate(context: vscode.ExtensionContext): ReadGateApi {
  const started = performance.now();
  const log = new Log();
  const config = new Config();
  context.subscriptions.push(log, config);
  // Disposal order does not matter: once the guard is disposed, every call through it is CANCELLED.
  const parts = registerGuard(context, log, config);
  const history = registerHistory(context, parts);
  // The approval gate, the guard's approve port, serves the guard now that it exists (see registerGuard).
  parts.approvals.serve(parts.guard);
  const sessions = registerSessions(context, parts, history);
  const commands = new CommandManager();
  context.subscriptions.push(commands);
  const agents = registerAgentsAndMcp(context, commands, parts, sessions);
  registerUserCommands(context, commands, parts, history, sessions);
  // Integration tests drive the approval panel through its message protocol and observe the participant's turns.
  if (process.env.READGATE_TEST_HOOKS === '1') {
    const { approvals, toolResults, guard, folder } = parts;
    const deps = { approvals, toolResults, guard, ...agents, agentChanges: history.agentChanges, historyFolder: folder };
    context.subscriptions.push(registerTestHooks(commands, deps));
  }
  // Its own time, read by `npm run bench:host`.
  log.info(`ReadGate ${String(context.extension.packageJSON.version)} activated in ${(performance.now() - started).toFixed(1)} ms (VS Code ${vscode.version})`);
  return sessions.api.toPublic();
}

export async function deactivate(): Promise<void> {
  // Everything is disposed through context.subscriptions; changes still being recorded are written first.
  await historyStore?.flush();
}

/** The guard and its ports: the editor's file system, the change watcher, the approval gate, the problems capture. */
function registerGuard(context: vscode.ExtensionContext, log: Log, config: Config): GuardParts {
  // Events point one way: the file system announces its writes, the watcher notes changes, the guard host tells
  // the guard. The approval gate is the guard's approve port, so it is built first and serves the guard once that
  // exists (in activate).
  const files = new EditorFileSystem((message) => log.warn(`[write] ${message}`));
  const watcher = new ChangeWatcher(log, files.onWillWrite);
  const labels = new SessionLabels();
  const approvals = new ApprovalService(context.extensionUri, config, labels, log, watcher.onDidObserveChange);
  context.subscriptions.push(files, watcher, approvals);
  const toolResults = registerToolResults(context, log, config, files);
  const { folder, store } = openHistoryStore(context, log, config);
  // An agent's change result says what problems it introduced: its files are captured as it is approved.
  const problems = new AgentProblems(config, log);
  const host = new GuardHost(config, log, files, problems.wrapApprove(approvals.approve), watcher.onDidNoteChange, [toolResults.dir], store);
  context.subscriptions.push(problems, host);
  // Every session says where its changes come from and who it is, for the change history.
  const guard = withSessionOrigins(host.guard, (id) => labels.labelOf(id));
  return { log, config, files, watcher, labels, approvals, toolResults, problems, guard, folder, store };
}

/** Tool results too big for the agent are saved in the extension's storage; the threshold follows the setting. */
function registerToolResults(context: vscode.ExtensionContext, log: Log, config: Config, files: EditorFileSystem): ToolResultStore {
  const dir = path.join(context.globalStorageUri.fsPath, 'tool-results');
  const toolResults = new ToolResultStore({ dir, fileSystem: files, threshold: config.current.toolResultThreshold });
  context.subscriptions.push(config.onDidChange((next) => toolResults.configure({ threshold: next.toolResultThreshold })));
  void toolResults.cleanup().then((removed) => removed && log.info('[results] removed expired tool results', { removed }));
  return toolResults;
}

function openHistoryStore(context: vscode.ExtensionContext, log: Log, config: Config): { folder: string | undefined; store: History | undefined } {
  const folder = historyFolder(context);
  const options = (dir: string) => ({ dir, maxBytes: config.current.historyMaxBytes, maxAgeDays: config.current.historyMaxAgeDays, logger: log });
  historyStore = folder ? createHistory(options(folder)) : undefined;
  return { folder, store: historyStore };
}

/** The change history: its recorder, the documents of past versions, the problem marks and the Agent Changes view. */
function registerHistory(context: vscode.ExtensionContext, { guard, store, files, problems, log }: GuardParts): HistoryParts {
  const history = store ? new GuardHistory(guard, store, files.onWillWrite, files) : undefined;
  const display = (file: string): string => vscode.workspace.asRelativePath(guardPathToUri(file));
  const documents = new HistoryDocuments(history, files);
  // Which changes introduced problems, joined from the problems section's reports, for the view and the statistics.
  const marks = history ? new ProblemMarkStore(context.workspaceState, problems.onDidReport, history) : undefined;
  const agentChanges = new AgentChangesView(history, display, marks);
  context.subscriptions.push(...(history ? [history] : []), ...(marks ? [marks] : []), documents, agentChanges);
  return { history, marks, agentChanges, deps: { history, documents, display, log } };
}

/** Sessions: the API's and the tools', the ended ones, their reports and the Sessions view. */
function registerSessions(context: vscode.ExtensionContext, parts: GuardParts, { history, marks }: HistoryParts): SessionParts {
  const { guard, labels, toolResults, problems, config, watcher, files } = parts;
  const api = new Api(guard, labels, toolResults, problems);
  const toolSessions = new ToolSessions(guard);
  toolSessions.configureChats(config.current.toolsMaxResultChars);
  const chatSettings = config.onDidChange((next) => toolSessions.configureChats(next.toolsMaxResultChars));
  const ended = new EndedSessions(guard, labels);
  const listChanges = async () => (history ? history.list() : []);
  const reports = new Reports(
    guard,
    labels,
    () => toolSessions.standaloneTotals(),
    () => ended.list(),
    listChanges,
    (id) => marks?.get(id),
  );
  const view = new SessionsView(guard, labels, watcher.onDidObserveChange, ended, files.onDidWrite);
  context.subscriptions.push(api, toolSessions, chatSettings, ended, reports, view);
  return { api, toolSessions, ended, reports };
}

/** Agents: the MCP server, the @readgate participant, the language model tools, and the commands that connect agents. */
function registerAgentsAndMcp(context: vscode.ExtensionContext, commands: CommandManager, parts: GuardParts, { toolSessions }: SessionParts): AgentParts {
  const { extensionUri } = context;
  const { config, guard, labels, approvals, log, problems, toolResults } = parts;
  const mcp = new McpHost({ extensionUri, config, guard, toolSessions, labels, reviews: approvals, log, problems });
  const participant = new ReadGateParticipant({ extensionUri, guard, toolSessions, toolResults, labels, config, log });
  // VS Code's agents' own tools, judged through their hooks while readgate.agentHooks.enabled is on.
  const hooks = new AgentHooksHost({ config, guard, toolSessions, labels, log, onDidChangeWaiting: approvals.onDidChangeWaiting });
  context.subscriptions.push(
    mcp,
    participant,
    hooks,
    registerTools({ sessions: toolSessions, problems }),
    registerAgentCommands(commands, { control: mcp, log, config }),
  );
  return { mcp, participant, hooks };
}

/** The palette's and the views' commands, and the read-only documents some of them show. */
function registerUserCommands(
  context: vscode.ExtensionContext,
  commands: CommandManager,
  { log, guard, files, labels, approvals, toolResults }: GuardParts,
  history: HistoryParts,
  { reports, ended }: SessionParts,
): void {
  context.subscriptions.push(new DetailsDocuments());
  registerCommands(commands, { log, guard, files, labels, reports, approvals, toolResults, ended, extensionUri: context.extensionUri, history: history.deps });
}
