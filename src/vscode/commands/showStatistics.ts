/** `ReadGate: Show Statistics`: reads, placeholder hits and tokens saved, changes and refusals, per session. */
import * as vscode from 'vscode';
import type { Reports } from '../reports/reports';
import { CommandIds } from './commandIds';

export function registerShowStatistics(reports: Reports): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.showStatistics, () => reports.open('statistics'));
}
