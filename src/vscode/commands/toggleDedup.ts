/**
 * `ReadGate: Toggle Dedup`: flips `readgate.read.dedup`, which applies live. It writes where the effective
 * value comes from (the workspace, else user settings), so a workspace value cannot silently win over it.
 */
import { COMMAND_IDS } from '../commandIds';
import * as vscode from 'vscode';
import { SECTION } from '../config';
import type { Command } from './commandManager';

function targetOf(configuration: vscode.WorkspaceConfiguration): vscode.ConfigurationTarget {
  // A window-scoped setting: a folder's own value lives in the workspace settings of a single-folder window.
  const levels = configuration.inspect<boolean>('read.dedup');
  return levels?.workspaceValue !== undefined || levels?.workspaceFolderValue !== undefined
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
}

export class ToggleDedupCommand implements Command {
  static readonly id = COMMAND_IDS.toggleDedup;
  readonly id = ToggleDedupCommand.id;

  async execute(): Promise<boolean> {
    const configuration = vscode.workspace.getConfiguration(SECTION);
    const next = configuration.get<boolean>('read.dedup') === false;
    await configuration.update('read.dedup', next, targetOf(configuration));
    void vscode.window.showInformationMessage(
      next ? 'ReadGate dedup is on: repeated reads of unchanged lines get a short placeholder.' : 'ReadGate dedup is off: every read returns the content.',
    );
    return next;
  }
}
