/**
 * `Revert Everything This Session Did` (Agent Changes view, on a session or any of its items): undoes the
 * session's changes newest first, each merged against what the later ones left, as one reviewed change.
 */
import * as vscode from 'vscode';
import type { MutationResult } from '../../core/index';
import { sessionOfNode } from '../history/historyNodes';
import { revertSessionText } from '../history/historyWords';
import { runRevert } from '../history/revertRun';
import { CommandIds } from './commandIds';
import { type HistoryDeps, showNoHistory, showPickInView } from './historyCommands';

export function registerRevertSession({ history, log }: HistoryDeps): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.revertSession, async (node?: unknown): Promise<MutationResult | undefined> => {
    if (!history) return showNoHistory();
    const session = sessionOfNode(node);
    if (!session) return showPickInView('a session');
    const changes = await history.list({ sessionId: session.sessionId });
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(`ReadGate has no change of ${session.label} on record any more (the history's budget dropped them): nothing to revert.`);
      return undefined;
    }
    return runRevert('session', (options) => history.revert({ sessionId: session.sessionId }, options), revertSessionText(session.label, changes), log);
  });
}
