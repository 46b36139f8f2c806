/**
 * Widens the review panel's new group to a usable width (`panelWidth.ts` decides) through VS Code's
 * `vscode.getEditorLayout` and `vscode.setEditorLayout` commands (sizes read in pixels, set as proportions).
 */
import * as vscode from 'vscode';
import { type EditorLayout, rowSizes, widenedRow } from './panelWidth';

/** The panel's column once VS Code has placed it (undefined if it is not shown within `timeoutMs`). */
function placedColumn(panel: vscode.WebviewPanel, timeoutMs: number): Promise<number | undefined> {
  const placed = (): number | undefined => {
    try {
      return panel.visible && panel.viewColumn !== undefined && panel.viewColumn > 0 ? panel.viewColumn : undefined;
    } catch {
      return undefined; // disposed meanwhile
    }
  };
  const now = placed();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve) => {
    const done = (column: number | undefined): void => {
      clearTimeout(timer);
      subscription.dispose();
      resolve(column);
    };
    const subscription = panel.onDidChangeViewState(() => placed() !== undefined && done(placed()));
    const timer = setTimeout(() => done(undefined), timeoutMs);
  });
}

/** Widens the group the panel just opened in, when it is a narrow part of a plain row of groups. */
export async function widenPanelGroup(panel: vscode.WebviewPanel): Promise<void> {
  try {
    const column = await placedColumn(panel, 3000);
    if (column === undefined) return;
    const layout = await vscode.commands.executeCommand<EditorLayout>('vscode.getEditorLayout');
    const sizes = rowSizes(layout);
    const widened = sizes && widenedRow(sizes, column - 1);
    if (widened) await vscode.commands.executeCommand('vscode.setEditorLayout', { orientation: 0, groups: widened.map((size) => ({ size })) });
  } catch {
    // A layout the commands cannot read or set: the panel stays where VS Code put it.
  }
}
