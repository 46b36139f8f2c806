/** Asks the user to pick a guard session (or takes the one a view item passed). */
import * as vscode from 'vscode';
import type { Guard } from '../../core/index';
import { isStandaloneSession } from '../sessions/sessionKeys';
import { NO_SESSIONS_YET } from '../reports/emptyStates';
import type { SessionLabels } from '../sessions/sessionLabels';
import type { SessionsNode } from '../views/sessionsView';
import { ApplyPatchCommand } from './applyPatch';
import { GetStartedCommand } from './walkthrough';

export async function pickSession(guard: Guard, labels: SessionLabels, node: SessionsNode | undefined, placeHolder: string): Promise<string | undefined> {
  if (node?.kind === 'session' || node?.kind === 'endedSession') return node.id;
  if (node?.kind === 'file') return node.sessionId;
  const ids = guard.sessionIds().filter((id) => !isStandaloneSession(id));
  if (ids.length === 0) {
    void vscode.window.showInformationMessage(NO_SESSIONS_YET, 'Apply Patch…', 'Get Started').then((choice) => {
      if (choice === 'Apply Patch…') void vscode.commands.executeCommand(ApplyPatchCommand.id);
      else if (choice === 'Get Started') void vscode.commands.executeCommand(GetStartedCommand.id);
    });
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
