/**
 * `Revert Everything This Session Did` (Agent Changes view, on a session or any of its items): undoes the
 * session's changes newest first, each merged against what the later ones left, as one reviewed change.
 */
import { COMMAND_IDS } from '../commandIds';
import * as vscode from 'vscode';
import type { MutationResult } from '../../core/index';
import { sessionOfNode } from '../history/historyNodes';
import { revertSessionText } from '../history/historyWords';
import { runRevertWithProgress } from '../history/revertRun';
import type { Command } from './commandManager';
import { type HistoryDeps, showNoHistory, showPickInView } from './historyCommands';

export class RevertSessionCommand implements Command {
  static readonly id = COMMAND_IDS.revertSession;
  readonly id = RevertSessionCommand.id;

  constructor(private readonly deps: HistoryDeps) {}

  async execute(node?: unknown): Promise<MutationResult | undefined> {
    const { history, log } = this.deps;
    if (!history) return showNoHistory();
    const session = sessionOfNode(node);
    if (!session) return showPickInView('a session');
    const changes = await history.list({ sessionId: session.sessionId });
    if (changes.length === 0) {
      void vscode.window.showInformationMessage(
        `ReadGate has no change of ${session.label} on record any more (the history's budget dropped them): nothing to revert.`,
      );
      return undefined;
    }
    return runRevertWithProgress(
      'session',
      (options) => history.revert({ sessionId: session.sessionId }, options),
      revertSessionText(session.label, changes),
      log,
    );
  }
}
