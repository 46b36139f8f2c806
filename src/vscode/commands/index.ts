/** Registers every command; the returned Disposable unregisters them all. */
import * as vscode from 'vscode';
import type { FileSystem, Guard, ToolResultStore } from '../../core/index';
import type { ApprovalService } from '../approval/approvalService';
import type { Log } from '../log';
import type { Reports } from '../reports/reports';
import type { SessionLabels } from '../sessions/sessionLabels';
import type { EndedSessions } from '../sessions/endedSessions';
import { CommandIds } from './commandIds';
import { registerApplyPatch } from './applyPatch';
import { registerFileActions } from './fileActions';
import { registerForgetSession } from './forgetSession';
import { registerOpenToolResults } from './openToolResults';
import { registerShowLedger } from './showLedger';
import { registerShowLog } from './showLog';
import { registerReviewPending } from './reviewPending';
import { registerShowStatistics } from './showStatistics';
import { registerToggleDedup } from './toggleDedup';
import { registerWalkthrough } from './walkthrough';
import { registerExportChangeLog } from './exportChangeLog';
import type { HistoryDeps } from './historyCommands';
import { registerOpenAgentChange } from './openAgentChange';
import { registerRevertChange } from './revertChange';
import { registerRevertFile } from './revertFile';
import { registerRevertSession } from './revertSession';
import { registerShowFileChanges } from './showFileChanges';

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

export function registerCommands({ approvals, log, guard, files, labels, reports, toolResults, ended, extensionUri, history }: CommandDeps): vscode.Disposable {
  return vscode.Disposable.from(
    registerReviewPending(approvals),
    registerShowLog(log),
    registerShowLedger(guard, labels, reports),
    registerForgetSession(guard, labels, ended),
    registerToggleDedup(),
    registerShowStatistics(reports),
    registerFileActions(guard),
    registerOpenToolResults(toolResults),
    registerApplyPatch(guard, files, labels, extensionUri),
    registerWalkthrough(extensionUri, guard, labels),
    vscode.commands.registerCommand(CommandIds.clearEndedSessions, () => ended.clear()),
    registerRevertChange(history),
    registerRevertSession(history),
    registerRevertFile(history),
    registerOpenAgentChange(history),
    registerShowFileChanges(history),
    registerExportChangeLog(history),
  );
}
