/** `ReadGate: Show Session Ledger`: what one session has seen, file by file. */
import * as vscode from 'vscode';
import type { Guard } from '../../core/index';
import type { Reports } from '../reports/reports';
import type { SessionLabels } from '../sessions/sessionLabels';
import type { SessionsNode } from '../views/sessionsView';
import { CommandIds } from './commandIds';
import { pickSession } from './pickSession';

export function registerShowLedger(guard: Guard, labels: SessionLabels, reports: Reports): vscode.Disposable {
  return vscode.commands.registerCommand(CommandIds.showLedger, async (node?: SessionsNode) => {
    const id = await pickSession(guard, labels, node, 'Which session\u2019s ledger?');
    if (id) await reports.open('ledger', id);
  });
}
