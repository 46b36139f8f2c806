/**
 * The approval port until the diff-preview panel exists: in a trusted workspace changes are applied as the
 * guard decided; in an untrusted one nothing is written unless the user allows it in a modal dialog that
 * names the files, the agent's reason and the start of the diff.
 */
import * as vscode from 'vscode';
import type { ApprovalDecision, ApprovalRequest } from '../../core/index';

const DIFF_PREVIEW_LINES = 40;

export async function trustGate(request: ApprovalRequest): Promise<ApprovalDecision> {
  if (vscode.workspace.isTrusted) return { approved: true };
  const files = request.files.map((file) => `${vscode.workspace.asRelativePath(file.path)}${file.created ? ' (new)' : ''}`);
  const diff = request.files
    .map((file) => file.diff)
    .join('\n')
    .split('\n')
    .slice(0, DIFF_PREVIEW_LINES)
    .join('\n');
  const detail = [request.explanation ? `The agent says: ${request.explanation}` : '', diff].filter(Boolean).join('\n\n');
  const allow = 'Apply Change';
  const choice = await vscode.window.showWarningMessage(`This workspace is not trusted. Let an agent change ${files.join(', ')}?`, { modal: true, detail }, allow);
  return choice === allow ? { approved: true } : { approved: false, reason: 'the workspace is not trusted and the user did not allow the change' };
}
