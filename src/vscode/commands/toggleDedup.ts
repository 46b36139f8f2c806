/** `ReadGate: Toggle Dedup`: flips `readgate.read.dedup` (user settings), which applies live. */
import * as vscode from 'vscode';
import { SECTION } from '../config';
import { CommandIds } from './commandIds';

export function registerToggleDedup(): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.toggleDedup, async () => {
    const configuration = vscode.workspace.getConfiguration(SECTION);
    const next = configuration.get<boolean>('read.dedup') === false;
    await configuration.update('read.dedup', next, vscode.ConfigurationTarget.Global);
    void vscode.window.showInformationMessage(
      next ? 'ReadGate dedup is on: repeated reads of unchanged lines get a short placeholder.' : 'ReadGate dedup is off: every read returns the content.',
    );
    return next;
  });
}
