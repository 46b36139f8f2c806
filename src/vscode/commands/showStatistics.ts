/**
 * `ReadGate: Show Statistics`: reads, placeholder hits and tokens saved, changes and refusals, per session, as a
 * rendered preview. Returns the report's Markdown (for tests and other callers).
 */
import * as vscode from 'vscode';
import type { Reports } from '../reports/reports';
import { CommandIds } from './commandIds';

export function registerShowStatistics(reports: Reports): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.showStatistics, () => reports.preview('statistics'));
}
