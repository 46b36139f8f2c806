/**
 * View item actions on a file a session has seen: open it, or reveal exactly the lines the session saw (looked
 * up in the guard when the action runs, so a view item drawn before a later read still shows the truth).
 */
import { COMMAND_IDS } from '../commandIds';
import * as vscode from 'vscode';
import type { Guard } from '../../core/index';
import type { SessionsNode } from '../views/sessionsView';
import { guardPathToUri } from '../util/paths';
import type { Command } from './commandManager';

async function open(guard: Guard, node: SessionsNode | undefined): Promise<{ editor: vscode.TextEditor; seen: readonly number[] } | undefined> {
  if (node?.kind !== 'file') return undefined;
  const document = await vscode.workspace.openTextDocument(guardPathToUri(node.entry.path));
  const editor = await vscode.window.showTextDocument(document, { preview: true });
  const current = guard.hasSession(node.sessionId)
    ? guard
        .session(node.sessionId)
        .entries()
        .find((entry) => entry.path === node.entry.path)
    : undefined;
  return { editor, seen: current?.seen ?? [] };
}

export class OpenFileCommand implements Command {
  static readonly id = COMMAND_IDS.openFile;
  readonly id = OpenFileCommand.id;

  constructor(private readonly guard: Guard) {}

  async execute(node?: SessionsNode): Promise<void> {
    await open(this.guard, node);
  }
}

export class RevealSeenRangeCommand implements Command {
  static readonly id = COMMAND_IDS.revealSeenRange;
  readonly id = RevealSeenRangeCommand.id;

  constructor(private readonly guard: Guard) {}

  async execute(node?: SessionsNode): Promise<void> {
    const opened = await open(this.guard, node);
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
  }
}
