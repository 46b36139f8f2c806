/** Opens the diff editor on what a change did to a file (the Agent Changes view's file items; not in the palette). */
import { COMMAND_IDS } from '../commandIds';
import { fileOfNode } from '../history/historyNodes';
import type { Command } from './commandManager';
import type { HistoryDeps } from './historyCommands';

export class OpenAgentChangeCommand implements Command {
  static readonly id = COMMAND_IDS.openAgentChange;
  readonly id = OpenAgentChangeCommand.id;

  constructor(private readonly deps: HistoryDeps) {}

  async execute(node?: unknown): Promise<void> {
    const chosen = fileOfNode(node);
    if (chosen) await this.deps.documents.showDiff(chosen.record, chosen.file);
  }
}
