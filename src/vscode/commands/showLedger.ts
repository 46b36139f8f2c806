/** `ReadGate: Show Session Ledger`: what one session has seen, file by file. */
import { COMMAND_IDS } from '../commandIds';
import type { Guard } from '../../core/index';
import type { Reports } from '../reports/reports';
import type { SessionLabels } from '../sessions/sessionLabels';
import type { SessionsNode } from '../views/sessionsView';
import type { Command } from './commandManager';
import { pickSession } from './pickSession';

export class ShowLedgerCommand implements Command {
  static readonly id = COMMAND_IDS.showLedger;
  readonly id = ShowLedgerCommand.id;

  constructor(
    private readonly guard: Guard,
    private readonly labels: SessionLabels,
    private readonly reports: Reports,
  ) {}

  async execute(node?: SessionsNode): Promise<void> {
    const id = await pickSession(this.guard, this.labels, node, 'Which session\u2019s ledger?');
    if (id) await this.reports.open('ledger', id);
  }
}
