/** `ReadGate: Review Pending Changes`: reveals the approval panel with what is waiting. */
import { COMMAND_IDS } from '../commandIds';
import type { ApprovalService } from '../approval/approvalService';
import type { Command } from './commandManager';

export class ReviewPendingCommand implements Command {
  static readonly id = COMMAND_IDS.reviewPending;
  readonly id = ReviewPendingCommand.id;

  constructor(private readonly approvals: ApprovalService) {}

  execute(): void {
    this.approvals.reveal();
  }
}
