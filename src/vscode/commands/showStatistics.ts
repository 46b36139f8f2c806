/**
 * `ReadGate: Show Statistics`: reads, placeholder hits and tokens saved, changes and refusals, per session, as a
 * rendered preview. Returns the report's Markdown (for tests and other callers).
 */
import { COMMAND_IDS } from '../commandIds';
import type { Reports } from '../reports/reports';
import type { Command } from './commandManager';

export class ShowStatisticsCommand implements Command {
  static readonly id = COMMAND_IDS.showStatistics;
  readonly id = ShowStatisticsCommand.id;

  constructor(private readonly reports: Reports) {}

  execute(): Promise<string> {
    return this.reports.preview('statistics');
  }
}
