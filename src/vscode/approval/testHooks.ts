/**
 * A command for integration tests only (registered when READGATE_TEST_HOOKS=1): read the pending review
 * requests and send the approval panel's protocol messages, exactly as the webview would.
 */
import * as vscode from 'vscode';
import type { ApprovalService } from './approvalService';

export const TEST_HOOK_COMMAND = 'readgate._test.approval';

export function registerTestHooks(approvals: ApprovalService): vscode.Disposable {
  return vscode.commands.registerCommand(TEST_HOOK_COMMAND, (action: 'pending' | 'message', message?: unknown) => {
    if (action === 'pending') return approvals.views();
    approvals.handle(message);
    return undefined;
  });
}
