/**
 * `Revert This File to Before the Session` (Agent Changes view, on a file): undoes what one session did to one
 * file, its changes to it newest first, leaving its other files and every later change by others as they are.
 */
import * as vscode from 'vscode';
import type { MutationResult } from '../../core/index';
import { fileOfNode } from '../history/historyNodes';
import { revertFileText } from '../history/historyWords';
import { runRevert } from '../history/revertRun';
import { CommandIds } from './commandIds';
import { type HistoryDeps, showNoHistory, showPickInView } from './historyCommands';

export function registerRevertFile({ history, display, log }: HistoryDeps): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.revertFileToSessionStart, async (node?: unknown): Promise<MutationResult | undefined> => {
    if (!history) return showNoHistory();
    const chosen = fileOfNode(node);
    if (!chosen) return showPickInView('a file of a change');
    const { record, file } = chosen;
    const changes = await history.list({ sessionId: record.sessionId, path: file.path });
    return runRevert('file', (options) => history.revertFile(record.sessionId, file.path, options), revertFileText(display(file.path), record.label, Math.max(changes.length, 1)), log);
  });
}
