/**
 * The status bar's reminder of agents' changes waiting for review: shown while one waits, gone with the last
 * decision. A notification would outlive the decision (VS Code cannot take one back) and repeat what the panel,
 * opened beside the editor with the change, already shows. The user's own changes are not counted: their review
 * is what the user is doing.
 */
import * as vscode from 'vscode';
import { Disposable } from '../util/dispose';
import { reviewReminder, type WaitingChange } from './reviewReminder';

export type { WaitingChange } from './reviewReminder';

export class ReviewStatus extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(command: string) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('readgate.review', vscode.StatusBarAlignment.Left, 100));
    this.item.name = 'ReadGate: Changes to Review';
    this.item.command = command;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
  }

  show(waiting: readonly WaitingChange[]): void {
    const reminder = reviewReminder(waiting);
    if (!reminder) return this.item.hide();
    this.item.text = reminder.text;
    this.item.tooltip = reminder.tooltip;
    this.item.accessibilityInformation = { label: `ReadGate: ${reminder.text.replace(/^\$\([^)]*\) /, '')}` };
    this.item.show();
  }
}
