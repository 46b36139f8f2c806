/**
 * What every history command needs: the history (undefined when the extension has nowhere to keep it), the
 * documents of past versions, how paths are named, the log. And the one message for "no history here".
 */
import * as vscode from 'vscode';
import type { HistoryDocuments } from '../history/historyDocuments';
import type { HistorySource } from '../history/historySource';
import type { Log } from '../log';

export interface HistoryDeps {
  history: HistorySource | undefined;
  documents: HistoryDocuments;
  display: (path: string) => string;
  log: Log;
}

export const NO_HISTORY =
  'ReadGate keeps no change history in this window: VS Code gave it no storage folder on this machine. Open a folder or workspace on a local or remote machine to keep one.';

export function showNoHistory(): undefined {
  void vscode.window.showWarningMessage(NO_HISTORY);
  return undefined;
}

/** Said when a command that needs a tree item runs without one. */
export function showPickInView(what: string): undefined {
  void vscode.window.showInformationMessage(`Choose ${what} in the Agent Changes view (ReadGate's side bar), then run this command from its context menu.`);
  return undefined;
}
