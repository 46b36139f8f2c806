/** Asks the user to pick a guard session (or takes the one a view item passed). */
import * as vscode from 'vscode';
import type { Guard } from '../../core/index';
import { isStandaloneSession } from '../tools/sessionKeys';
import type { SessionLabels } from '../sessionLabels';
import type { SessionsNode } from '../views/sessionsView';

export async function pickSession(guard: Guard, labels: SessionLabels, node: SessionsNode | undefined, placeHolder: string): Promise<string | undefined> {
  if (node?.kind === 'session') return node.id;
  if (node?.kind === 'file') return node.sessionId;
  const ids = guard.sessionIds().filter((id) => !isStandaloneSession(id));
  if (ids.length === 0) {
    void vscode.window.showInformationMessage('No agent session has used ReadGate yet in this window.');
    return undefined;
  }
  if (ids.length === 1) return ids[0];
  const picked = await vscode.window.showQuickPick(
    ids.map((id) => {
      const stats = guard.session(id).stats();
      return { label: labels.labelOf(id), description: `${guard.session(id).entries().length} files · ${stats.reads} reads`, id };
    }),
    { placeHolder },
  );
  return picked?.id;
}
