/**
 * `Export Agent Change Log`: every change on record as JSON Lines (one record a line, oldest first), saved where
 * the user chooses; a quick pick first asks whether each line should carry the files' contents (base64, so a
 * line stands on its own for an audit) or only the records. The file is written mode 0600: it can hold source.
 */
import { COMMAND_IDS } from '../commandIds';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { Command } from './commandManager';
import { type HistoryDeps, showNoHistory } from './historyCommands';

/** How tests call it: where to write and whether to include contents, instead of asking. */
export interface ExportArgs {
  uri: vscode.Uri;
  contents: boolean;
}

async function ask(): Promise<ExportArgs | undefined> {
  const choice = await vscode.window.showQuickPick(
    [
      { label: 'Records only', detail: 'Who changed which file, when, why and who approved it, with version ids and hunks. Small.', contents: false },
      {
        label: 'Records with file contents',
        detail: 'Each line also carries the bytes of every version it names (base64): complete, and as large as the history.',
        contents: true,
      },
    ],
    { title: 'Export Agent Change Log', placeHolder: 'Include the files’ contents?' },
  );
  if (!choice) return undefined;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `readgate-changes-${new Date().toISOString().slice(0, 10)}.jsonl`;
  const uri = await vscode.window.showSaveDialog({
    title: 'Export Agent Change Log',
    saveLabel: 'Export',
    filters: { 'JSON Lines': ['jsonl'] },
    ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
  });
  return uri ? { uri, contents: choice.contents } : undefined;
}

async function writeLog(deps: HistoryDeps, target: ExportArgs): Promise<number> {
  const history = deps.history!;
  if (target.uri.scheme !== 'file') {
    const lines: string[] = [];
    const count = await history.exportJsonLines((line) => void lines.push(line), { contents: target.contents });
    await vscode.workspace.fs.writeFile(target.uri, new TextEncoder().encode(lines.join('')));
    return count;
  }
  const handle = await fs.promises.open(target.uri.fsPath, 'w', 0o600);
  try {
    await handle.chmod(0o600);
    return await history.exportJsonLines(async (line) => void (await handle.write(line)), { contents: target.contents });
  } finally {
    await handle.close();
  }
}

export class ExportChangeLogCommand implements Command {
  static readonly id = COMMAND_IDS.exportChangeLog;
  readonly id = ExportChangeLogCommand.id;

  constructor(private readonly deps: HistoryDeps) {}

  async execute(args?: ExportArgs): Promise<number | undefined> {
    const deps = this.deps;
    if (!deps.history) return showNoHistory();
    const target = args?.uri instanceof vscode.Uri ? args : await ask();
    if (!target) return undefined;
    let count: number;
    try {
      count = await writeLog(deps, target);
    } catch (error) {
      deps.log.warn('[history] export failed', { error: error instanceof Error ? error.message : String(error) });
      void vscode.window.showErrorMessage(
        `ReadGate could not write the change log to ${target.uri.fsPath || target.uri.toString()}: ${error instanceof Error ? error.message : String(error)}. Choose another place and export again.`,
      );
      return undefined;
    }
    deps.log.info('[history] change log exported', { changes: count, contents: target.contents });
    if (!args) {
      void vscode.window
        .showInformationMessage(`ReadGate exported ${count} change${count === 1 ? '' : 's'} to ${path.basename(target.uri.path)}.`, 'Open')
        .then((choice) => {
          if (choice === 'Open') void vscode.window.showTextDocument(target.uri);
        });
    }
    return count;
  }
}
