/**
 * Runs a revert the user asked for and tells them how it ended. The revert is a change like any other: the
 * guard plans it (a three-way merge that keeps later changes) and asks the approval service, so it waits in the
 * review panel (with its conflicts, if any) while a cancellable notification says so. Every ending says what
 * happened and what to do next; nothing is written unless the user approved it in the panel.
 */
import * as vscode from 'vscode';
import type { MutationResult } from '../../core/index';
import { showDetails } from '../details/detailsDocuments';
import type { Log } from '../log';
import { showVirtualPaths } from '../util/virtualPaths';
import { revertFailureText } from './revertOutcome';

function filesText(n: number): string {
  return `${n} file${n === 1 ? '' : 's'}`;
}

/** `start` begins the revert (`HistorySource.revert` or `revertFile`) with the explanation and a cancel signal. */
export type StartRevert = (options: { explanation: string; signal: AbortSignal }) => Promise<MutationResult>;

export async function runRevertWithProgress(what: 'change' | 'session' | 'file', start: StartRevert, explanation: string, log: Log): Promise<MutationResult> {
  log.info('[history] revert requested', { what });
  const result = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: 'ReadGate: review the revert in the panel (nothing is written until you approve it)',
      cancellable: true,
    },
    (_, token) => {
      const controller = new AbortController();
      const cancel = token.onCancellationRequested(() => controller.abort());
      return start({ explanation, signal: controller.signal }).finally(() => cancel.dispose());
    },
  );
  if (result.ok) {
    void vscode.window.showInformationMessage(
      `ReadGate reverted ${filesText(result.files.length)}. The revert is on record too: Agent Changes can revert it in turn.`,
    );
  } else if (result.code === 'REJECTED_BY_USER' || result.code === 'CANCELLED') {
    void vscode.window.showInformationMessage(revertFailureText(result.code, result.message));
  } else {
    log.warn('[history] revert refused', { code: result.code });
    void vscode.window.showErrorMessage(revertFailureText(result.code, showVirtualPaths(result.message)), 'Show Details').then((choice) => {
      if (choice === 'Show Details') {
        void showDetails({
          name: 'ReadGate — revert not applied.md',
          content: `# The revert was not applied\n\n**${result.code}**\n\n\`\`\`\n${showVirtualPaths(result.message)}\n\`\`\`\n\nNo file was changed.\n`,
        });
      }
    });
  }
  return result;
}
