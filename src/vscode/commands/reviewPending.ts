/** `ReadGate: Review Pending Changes`: reveals the approval panel with what is waiting. */
import * as vscode from 'vscode';
import type { ApprovalService } from '../approval/approvalService';
import { CommandIds } from './commandIds';

export function registerReviewPending(approvals: ApprovalService): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.reviewPending, () => approvals.reveal());
}
