/** View item actions on a file a session has seen: open it, or reveal exactly the lines the session saw. */
import * as vscode from 'vscode';
import type { SessionsNode } from '../views/sessionsView';
import { CommandIds } from './commandIds';
import { guardPathToUri } from '../util/paths';

async function open(node: SessionsNode | undefined): Promise<{ editor: vscode.TextEditor; seen: readonly number[] } | undefined> {
  if (node?.kind !== 'file') return undefined;
  const document = await vscode.workspace.openTextDocument(guardPathToUri(node.entry.path));
  const editor = await vscode.window.showTextDocument(document, { preview: true });
  return { editor, seen: node.entry.seen };
}

export function registerFileActions(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(CommandIds.openFile, async (node?: SessionsNode) => {
      await open(node);
    }),
    vscode.commands.registerCommand(CommandIds.revealSeenRange, async (node?: SessionsNode) => {
      const opened = await open(node);
      if (!opened || opened.seen.length === 0) return;
      const { editor, seen } = opened;
      const last = editor.document.lineCount - 1;
      const selections: vscode.Selection[] = [];
      for (let i = 0; i < seen.length; i += 2) {
        const from = Math.min(seen[i] - 1, last);
        const to = Math.min(seen[i + 1] - 1, last);
        selections.push(new vscode.Selection(from, 0, to, editor.document.lineAt(to).text.length));
      }
      editor.selections = selections;
      editor.revealRange(selections[0], vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }),
  );
}
