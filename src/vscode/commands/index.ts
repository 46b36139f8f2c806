/** Registers every command; the returned Disposable unregisters them all. */
import * as vscode from 'vscode';
import type { Guard, ToolResultStore } from '../../core/index';
import type { ApprovalService } from '../approval/approvalService';
import type { Log } from '../log';
import type { Reports } from '../reports/reports';
import type { SessionLabels } from '../sessionLabels';
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

export interface CommandDeps {
  approvals: ApprovalService;
  log: Log;
  guard: Guard;
  labels: SessionLabels;
  reports: Reports;
  toolResults: ToolResultStore;
  extensionUri: vscode.Uri;
}

export function registerCommands({ approvals, log, guard, labels, reports, toolResults, extensionUri }: CommandDeps): vscode.Disposable {
  return vscode.Disposable.from(
    registerReviewPending(approvals),
    registerShowLog(log),
    registerShowLedger(guard, labels, reports),
    registerForgetSession(guard, labels),
    registerToggleDedup(),
    registerShowStatistics(reports),
    registerFileActions(guard),
    registerOpenToolResults(toolResults),
    registerApplyPatch(guard, labels, extensionUri),
    registerWalkthrough(extensionUri),
  );
}
