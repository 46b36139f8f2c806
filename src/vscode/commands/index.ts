/** Registers every command of the palette and the views with the one CommandManager, which owns them. */
import type * as vscode from 'vscode';
import type { FileSystem, Guard, ToolResultStore } from '../../core/index';
import type { ApprovalService } from '../approval/approvalService';
import type { Log } from '../log';
import type { Reports } from '../reports/reports';
import type { SessionLabels } from '../sessions/sessionLabels';
import type { EndedSessions } from '../sessions/endedSessions';
import { ApplyPatchCommand } from './applyPatch';
import type { CommandManager } from './commandManager';
import { ExportChangeLogCommand } from './exportChangeLog';
import { OpenFileCommand, RevealSeenRangeCommand } from './fileActions';
import { ClearEndedSessionsCommand, ForgetAllSessionsCommand, ForgetSessionCommand } from './forgetSession';
import type { HistoryDeps } from './historyCommands';
import { OpenAgentChangeCommand } from './openAgentChange';
import { OpenToolResultsCommand } from './openToolResults';
import { RevertChangeCommand } from './revertChange';
import { RevertFileToSessionStartCommand } from './revertFile';
import { RevertSessionCommand } from './revertSession';
import { ReviewPendingCommand } from './reviewPending';
import { ShowFileChangesCommand } from './showFileChanges';
import { ShowLedgerCommand } from './showLedger';
import { ShowLogCommand } from './showLog';
import { ShowStatisticsCommand } from './showStatistics';
import { ToggleDedupCommand } from './toggleDedup';
import { GetStartedCommand, OpenSamplePatchCommand, OpenSettingsCommand, ProposeSampleChangeCommand } from './walkthrough';

export { type Command, CommandManager } from './commandManager';

export interface CommandDeps {
  approvals: ApprovalService;
  log: Log;
  guard: Guard;
  /** The file system the guard reads through (editor buffers, virtual workspaces). */
  files: FileSystem;
  labels: SessionLabels;
  reports: Reports;
  toolResults: ToolResultStore;
  ended: EndedSessions;
  extensionUri: vscode.Uri;
  /** The change history's commands (Agent Changes view, reverts, export). */
  history: HistoryDeps;
}

export function registerCommands(commands: CommandManager, deps: CommandDeps): void {
  const { approvals, log, guard, files, labels, reports, toolResults, ended, extensionUri, history } = deps;
  commands.register(new ReviewPendingCommand(approvals));
  commands.register(new ShowLogCommand(log));
  commands.register(new ShowLedgerCommand(guard, labels, reports));
  commands.register(new ForgetSessionCommand(guard, labels, ended));
  commands.register(new ForgetAllSessionsCommand(guard, ended));
  commands.register(new ToggleDedupCommand());
  commands.register(new ShowStatisticsCommand(reports));
  commands.register(new OpenFileCommand(guard));
  commands.register(new RevealSeenRangeCommand(guard));
  commands.register(new OpenToolResultsCommand(toolResults));
  commands.register(new ApplyPatchCommand(guard, files, labels, extensionUri));
  commands.register(new ProposeSampleChangeCommand(guard, labels));
  commands.register(new OpenSettingsCommand());
  commands.register(new GetStartedCommand());
  commands.register(new OpenSamplePatchCommand(extensionUri));
  commands.register(new ClearEndedSessionsCommand(ended));
  registerHistoryCommands(commands, history);
}

/** The change history's commands: the Agent Changes view's reverts and diffs, and the export. */
function registerHistoryCommands(commands: CommandManager, history: HistoryDeps): void {
  commands.register(new RevertChangeCommand(history));
  commands.register(new RevertSessionCommand(history));
  commands.register(new RevertFileToSessionStartCommand(history));
  commands.register(new OpenAgentChangeCommand(history));
  commands.register(new ShowFileChangesCommand(history));
  commands.register(new ExportChangeLogCommand(history));
}
