/** `ReadGate: Show Log`: reveals the ReadGate log channel. */
import { COMMAND_IDS } from '../commandIds';
import type { Log } from '../log';
import type { Command } from './commandManager';

export class ShowLogCommand implements Command {
  static readonly id = COMMAND_IDS.showLog;
  readonly id = ShowLogCommand.id;

  constructor(private readonly log: Log) {}

  execute(): void {
    this.log.show();
  }
}
