/** `ReadGate: Show Log`: reveals the ReadGate log channel. */
import * as vscode from 'vscode';
import type { Log } from '../log';
import { CommandIds } from './commandIds';

export function registerShowLog(log: Log): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.showLog, () => log.show());
}
