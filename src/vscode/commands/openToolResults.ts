/**
 * `ReadGate: Open Saved Tool Results`: tool results too big for the agent, saved for it, are plain files
 * in ReadGate's storage; this lists them newest first and opens the one picked (or reveals the folder where a
 * desktop file manager exists). A `Uri` argument opens that result directly.
 */
import { COMMAND_IDS } from '../commandIds';
import * as vscode from 'vscode';
import { formatCount, type ToolResultStore } from '../../core/index';
import type { Command } from './commandManager';

function age(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.round(minutes / 60)} h ago`;
}

export class OpenToolResultsCommand implements Command {
  static readonly id = COMMAND_IDS.openToolResults;
  readonly id = OpenToolResultsCommand.id;

  constructor(private readonly toolResults: ToolResultStore) {}

  async execute(target?: vscode.Uri): Promise<unknown> {
    if (target instanceof vscode.Uri) return vscode.window.showTextDocument(target, { preview: true });
    const saved = await this.toolResults.list();
    if (saved.length === 0) {
      void vscode.window.showInformationMessage(
        'No tool results are saved. When a tool gives @readgate more characters than readgate.toolResults.thresholdChars, the full output is kept here for 24 hours.',
      );
      return undefined;
    }
    const now = Date.now();
    type Item = vscode.QuickPickItem & { uri?: vscode.Uri };
    const items: Item[] = saved.map((result) => ({
      label: result.name,
      description: `${formatCount(result.bytes)} bytes · ${age(now - result.mtimeMs)}`,
      uri: vscode.Uri.file(result.path),
    }));
    if (vscode.env.uiKind === vscode.UIKind.Desktop && !vscode.env.remoteName) items.push({ label: '$(folder-opened) Reveal the folder', alwaysShow: true });
    const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Saved tool results (kept 24 hours), newest first' });
    if (!picked) return undefined;
    if (!picked.uri) return vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(this.toolResults.dir));
    return vscode.window.showTextDocument(picked.uri, { preview: true });
  }
}
