/**
 * `Show Agent Changes of This File` (the explorer's and the editor's context menus, a file of the Agent Changes
 * view, and the palette for the active editor): a quick pick of the changes on record that touched the file, newest first; the one picked
 * opens in the diff editor.
 */
import { COMMAND_IDS } from '../commandIds';
import * as vscode from 'vscode';
import type { ChangeRecord } from '../../core/index';
import { countsText, fileCounts } from '../history/changeCounts';
import { approvedByText, changeTitle, timeText } from '../history/historyWords';
import { guardPathToUri, uriToGuardPath } from '../util/paths';
import type { Command } from './commandManager';
import { type HistoryDeps, showNoHistory } from './historyCommands';

interface ChangeItem extends vscode.QuickPickItem {
  record: ChangeRecord;
  index: number;
}

/** The file of an Agent Changes view item (a file of a change), as its URI. */
function fileOfNode(node: unknown): vscode.Uri | undefined {
  const { kind, file } = (node ?? {}) as { kind?: unknown; file?: { path?: unknown } };
  return kind === 'file' && typeof file?.path === 'string' ? guardPathToUri(file.path) : undefined;
}

export class ShowFileChangesCommand implements Command {
  static readonly id = COMMAND_IDS.showFileChanges;
  readonly id = ShowFileChangesCommand.id;

  constructor(private readonly deps: HistoryDeps) {}

  async execute(resource?: unknown): Promise<string | undefined> {
    const { history, documents, display } = this.deps;
    if (!history) return showNoHistory();
    const uri = resource instanceof vscode.Uri ? resource : (fileOfNode(resource) ?? vscode.window.activeTextEditor?.document.uri);
    if (!uri) {
      void vscode.window.showInformationMessage('Open a file (or right-click one in the Explorer) to see the agent changes of it.');
      return undefined;
    }
    const guardPath = uriToGuardPath(uri);
    const records = await history.list({ path: guardPath });
    const now = Date.now();
    const items: ChangeItem[] = records.flatMap((record) => {
      const index = record.files.findIndex((file) => file.path === guardPath || file.from === guardPath);
      if (index < 0) return [];
      return [
        {
          record,
          index,
          label: changeTitle(record),
          description: `${record.label} · ${countsText(fileCounts(record.files[index]))} · ${timeText(record.time, now)}`,
          detail: approvedByText(record.approvedBy),
        },
      ];
    });
    if (items.length === 0) {
      void vscode.window.showInformationMessage(`No agent change of ${display(guardPath)} is on record.`);
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(items, {
      title: `Agent changes of ${display(guardPath)}`,
      placeHolder: 'Pick a change to compare the file before and after it',
      matchOnDescription: true,
    });
    if (picked) await documents.showDiff(picked.record, picked.record.files[picked.index]);
    return picked?.record.id;
  }
}
