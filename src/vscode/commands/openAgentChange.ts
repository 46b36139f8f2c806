/** Opens the diff editor on what a change did to a file (the Agent Changes view's file items; not in the palette). */
import * as vscode from 'vscode';
import { fileOfNode } from '../history/historyNodes';
import { CommandIds } from './commandIds';
import type { HistoryDeps } from './historyCommands';

export function registerOpenAgentChange({ documents }: HistoryDeps): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.openAgentChange, async (node?: unknown) => {
    const chosen = fileOfNode(node);
    if (chosen) await documents.showDiff(chosen.record, chosen.file);
  });
}
