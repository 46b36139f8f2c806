/** `ReadGate: Review Pending Changes`: reveals the approval panel with what is waiting. */
import type { ApprovalService } from '../approval/approvalService';
import type { Command } from './commandManager';

export class ReviewPendingCommand implements Command {
  static readonly id = 'readgate.reviewPending';
  readonly id = ReviewPendingCommand.id;

  constructor(private readonly approvals: ApprovalService) {}

  execute(): void {
    this.approvals.reveal();
  }
}
