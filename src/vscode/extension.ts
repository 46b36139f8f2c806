/**
 * Entry point: wires the feature owners, hands them to `context.subscriptions`, returns the API.
 * No logic lives here.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { createHistory, type History, ToolResultStore } from '../core/index';
import { Api, type ReadGateApi } from './api';
import { registerCommands } from './commands';
import { registerAgentCommands } from './commands/agentCommands';
import { Config } from './config';
import { ApprovalService } from './approval/approvalService';
import { registerTestHooks } from './approval/testHooks';
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
import { guardPathToUri } from './util/paths';
import { registerTools } from './tools/registerTools';
import { ToolSessions } from './tools/toolSessions';
import { SessionsView } from './views/sessionsView';

/** The history store, flushed when the extension deactivates (records still being written are kept). */
let historyStore: History | undefined;

export function activate(context: vscode.ExtensionContext): ReadGateApi {
  const started = performance.now();
  const log = new Log();
  const config = new Config();
  // Events point one way: the file system announces its writes, the watcher notes changes, the guard host tells
  // the guard. The approval gate is the guard's approve port, so it is connected to the guard once that exists.
  const files = new EditorFileSystem((message) => log.warn(`[write] ${message}`));
  const watcher = new ChangeWatcher(log, files.onWillWrite);
  const labels = new SessionLabels();
  const approvals = new ApprovalService(context.extensionUri, config, labels, log, watcher.onDidObserveChange);
  const toolResults = new ToolResultStore({ dir: path.join(context.globalStorageUri.fsPath, 'tool-results'), fileSystem: files, threshold: config.current.toolResultThreshold });
  const toolResultSettings = config.onDidChange((next) => toolResults.configure({ threshold: next.toolResultThreshold }));
  void toolResults.cleanup().then((removed) => removed && log.info('[results] removed expired tool results', { removed }));
  const folder = historyFolder(context);
  const store = (historyStore = folder ? createHistory({ dir: folder, maxBytes: config.current.historyMaxBytes, maxAgeDays: config.current.historyMaxAgeDays, logger: log }) : undefined);
  // An agent's change result says what problems it introduced: its files are captured as it is approved.
  const problems = new AgentProblems(config, log);
  const host = new GuardHost(config, log, files, problems.wrapApprove(approvals.approve), watcher.onDidNoteChange, [toolResults.dir], store);
  // Every session says where its changes come from and who it is, for the change history.
  const guard = withSessionOrigins(host.guard, (id) => labels.labelOf(id));
  const history = store ? new GuardHistory(guard, store, files.onWillWrite, files) : undefined;
  const display = (path: string): string => vscode.workspace.asRelativePath(guardPathToUri(path));
  const historyDocuments = new HistoryDocuments(history, files);
  // Which changes introduced problems, joined from the problems section's reports, for the view and the statistics.
  const marks = history ? new ProblemMarkStore(context.workspaceState, problems.onDidReport, history) : undefined;
  const agentChanges = new AgentChangesView(history, display, marks);
  approvals.serve(guard);
  const api = new Api(guard, labels, toolResults, problems);
  const toolSessions = new ToolSessions(guard);
  toolSessions.configureChats(config.current.toolsMaxResultChars);
  const chatSettings = config.onDidChange((next) => toolSessions.configureChats(next.toolsMaxResultChars));
  const ended = new EndedSessions(guard, labels);
  const reports = new Reports(guard, labels, () => toolSessions.standaloneTotals(), () => ended.list(), async () => (history ? history.list() : []), (id) => marks?.get(id));
  const view = new SessionsView(guard, labels, watcher.onDidObserveChange, ended, files.onDidWrite);
  const mcp = new McpHost({ extensionUri: context.extensionUri, config, guard, toolSessions, labels, reviews: approvals, log, problems });
  const details = new DetailsDocuments();
  const participant = new ReadGateParticipant({ extensionUri: context.extensionUri, guard, toolSessions, toolResults, labels, config, log });
  // Disposal order does not matter: once the guard is disposed, every call through it is CANCELLED.
  const historyDeps = { history, documents: historyDocuments, display, log };
  context.subscriptions.push(log, config, files, toolResultSettings, chatSettings, host, watcher, approvals, api, toolSessions, ended, reports, view, mcp, details, participant, problems, registerTools({ sessions: toolSessions, problems }), registerCommands({ log, guard, files, labels, reports, approvals, toolResults, ended, extensionUri: context.extensionUri, history: historyDeps }), registerAgentCommands({ control: mcp, log }));
  context.subscriptions.push(...(history ? [history] : []), ...(marks ? [marks] : []), historyDocuments, agentChanges);
  // Integration tests drive the approval panel through its message protocol and observe the participant's turns.
  if (process.env.READGATE_TEST_HOOKS === '1') context.subscriptions.push(registerTestHooks(approvals, participant, toolResults, guard, mcp, { agentChanges, folder }));
  // Its own time, read by `npm run bench:host`.
  log.info(`ReadGate ${String(context.extension.packageJSON.version)} activated in ${(performance.now() - started).toFixed(1)} ms (VS Code ${vscode.version})`);
  return api.toPublic();
}

export async function deactivate(): Promise<void> {
  // Everything is disposed through context.subscriptions; changes still being recorded are written first.
  await historyStore?.flush();
}
