/**
 * `ReadGate: Forget Session` / `Forget All Sessions`: drop what sessions have seen, e.g. after a
 * conversation was summarized. Files are not touched; the agent simply has to read again.
 */
import * as vscode from 'vscode';
import type { Guard } from '../../core/index';
import { isStandaloneSession } from '../sessions/sessionKeys';
import type { SessionLabels } from '../sessions/sessionLabels';
import type { EndedSessions } from '../sessions/endedSessions';
import type { SessionsNode } from '../views/sessionsView';
import { CommandIds } from './commandIds';
import { pickSession } from './pickSession';

export function registerForgetSession(guard: Guard, labels: SessionLabels, ended: EndedSessions): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(CommandIds.forgetSession, async (node?: SessionsNode) => {
      const id = await pickSession(guard, labels, node, 'Which session should forget what it has seen?');
      if (!id) return;
      const label = labels.labelOf(id);
      guard.dropSession(id, 'forgotten');
      // Also an ended session: the user asked to forget it.
      ended.remove(id);
      void vscode.window.showInformationMessage(`ReadGate forgot what "${label}" had seen; it must read files again before changing them.`);
    }),
    vscode.commands.registerCommand(CommandIds.forgetAllSessions, () => {
      // One-call sessions of tool calls without a chat session end with their call; they hold nothing to forget.
      const ids = guard.sessionIds().filter((id) => !isStandaloneSession(id));
      for (const id of ids) guard.dropSession(id, 'forgotten');
      ended.clear();
      void vscode.window.showInformationMessage(ids.length ? `ReadGate forgot ${ids.length} session${ids.length === 1 ? '' : 's'}.` : 'There were no sessions to forget.');
    }),
  );
}
