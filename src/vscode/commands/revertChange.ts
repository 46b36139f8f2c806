/**
 * `Revert This Change` (Agent Changes view, on a change or a file): undoes one recorded change by a three-way
 * merge that keeps every later change, reviewed in the panel like any change. Reverting a revert restores the
 * change it reverted, and says so.
 */
import { COMMAND_IDS } from '../commandIds';
import type { MutationResult } from '../../core/index';
import { changeOfNode } from '../history/historyNodes';
import { revertChangeText } from '../history/historyWords';
import { runRevertWithProgress } from '../history/revertRun';
import type { Command } from './commandManager';
import { type HistoryDeps, showNoHistory, showPickInView } from './historyCommands';

export class RevertChangeCommand implements Command {
  static readonly id = COMMAND_IDS.revertChange;
  readonly id = RevertChangeCommand.id;

  constructor(private readonly deps: HistoryDeps) {}

  async execute(node?: unknown): Promise<MutationResult | undefined> {
    const { history, log } = this.deps;
    if (!history) return showNoHistory();
    const record = changeOfNode(node);
    if (!record) return showPickInView('a change');
    // A revert of a revert is named by the change it brings back: the chain is looked up in the records.
    const records = record.revertOf === undefined ? [] : await history.list();
    const byId = new Map(records.map((r) => [r.id, r]));
    return runRevertWithProgress(
      'change',
      (options) => history.revert({ changeId: record.id }, options),
      revertChangeText(record, Date.now(), (id) => byId.get(id)),
      log,
    );
  }
}
