/** The trust gate wired to VS Code: workspace trust, and a modal warning with an "Apply Change" button. */
import * as vscode from 'vscode';
import { createTrustGate } from './trustGate';

const ALLOW = 'Apply Change';

export const vscodeTrustGate = createTrustGate({
  isTrusted: () => vscode.workspace.isTrusted,
  confirm: async (message, detail) => (await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW)) === ALLOW,
  describePath: (path) => vscode.workspace.asRelativePath(path),
});
