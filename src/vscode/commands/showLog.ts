/** `ReadGate: Show Log`: reveals the ReadGate log channel. */
import type { Log } from '../log';
import type { Command } from './commandManager';

export class ShowLogCommand implements Command {
  static readonly id = 'readgate.showLog';
  readonly id = ShowLogCommand.id;

  constructor(private readonly log: Log) {}

  execute(): void {
    this.log.show();
  }
}
