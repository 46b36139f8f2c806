/**
 * `Revert This File to Before the Session` (Agent Changes view, on a file): undoes what one session did to one
 * file, its changes to it newest first, leaving its other files and every later change by others as they are.
 */
import { COMMAND_IDS } from '../commandIds';
import type { MutationResult } from '../../core/index';
import { fileOfNode } from '../history/historyNodes';
import { revertFileText } from '../history/historyWords';
import { runRevertWithProgress } from '../history/revertRun';
import type { Command } from './commandManager';
import { type HistoryDeps, showNoHistory, showPickInView } from './historyCommands';

export class RevertFileToSessionStartCommand implements Command {
  static readonly id = COMMAND_IDS.revertFileToSessionStart;
  readonly id = RevertFileToSessionStartCommand.id;

  constructor(private readonly deps: HistoryDeps) {}

  async execute(node?: unknown): Promise<MutationResult | undefined> {
    const { history, display, log } = this.deps;
    if (!history) return showNoHistory();
    const chosen = fileOfNode(node);
    if (!chosen) return showPickInView('a file of a change');
    const { record, file } = chosen;
    const changes = await history.list({ sessionId: record.sessionId, path: file.path });
    const explanation = revertFileText(display(file.path), record.label, Math.max(changes.length, 1));
    return runRevertWithProgress('file', (options) => history.revertFile(record.sessionId, file.path, options), explanation, log);
  }
}
