/**
 * A file's document in an editor tab that is not shown: some language services check only files open in tabs
 * (VS Code 1.139's JSON pulls diagnostics for tabs only), so a changed file that is not open gets a tab in the
 * background for as long as its problems are needed, and the tab is closed again. The workbench's own open
 * command takes `inactive` (the tab opens without becoming the group's active editor); where it is missing or
 * fails, nothing is opened and the service may stay silent, which the result then says.
 */
import * as vscode from 'vscode';

function tabOf(uri: vscode.Uri): vscode.Tab | undefined {
  const key = uri.toString();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) if (tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === key) return tab;
  }
  return undefined;
}

export interface BackgroundTab extends vscode.Disposable {
  /** A tab showed the file already: its service has checked it. */
  readonly wasOpen: boolean;
}

/** Opens `uri` in a background tab unless a tab shows it already; disposing closes the tab this opened. */
export async function openInBackgroundTab(uri: vscode.Uri): Promise<BackgroundTab> {
  const nothing = (wasOpen: boolean): BackgroundTab => ({ wasOpen, dispose: () => undefined });
  if (tabOf(uri)) return nothing(true);
  try {
    await vscode.commands.executeCommand('_workbench.open', uri, [vscode.ViewColumn.Active, { inactive: true, preserveFocus: true, pinned: true }]);
  } catch {
    return nothing(false);
  }
  return {
    wasOpen: false,
    dispose: () => {
      const tab = tabOf(uri);
      if (tab) void Promise.resolve(vscode.window.tabGroups.close(tab, true)).then(undefined, () => undefined);
    },
  };
}
