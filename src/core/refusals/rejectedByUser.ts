/**
 * REJECTED_BY_USER: what the approver decided, or failed to decide. The wording of each situation lives here, with
 * its code.
 */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const rejectedByUser = {
  rejected(path: string, reason: string | undefined): Refusal {
    return refuse(
      'REJECTED_BY_USER',
      `The user rejected the change: ${displayPath(path)} was NOT modified.${reason ? ` The user said: "${reason}".` : ' No reason was given.'} Ask the user or adjust the change before trying again.`,
    );
  },
  approvalFailed(paths: string, detail: string): Refusal {
    return refuse('REJECTED_BY_USER', `The approval could not be completed (${detail}): ${paths} NOT modified. Try again, or ask the user.`);
  },
  malformed(paths: string, detail: string): Refusal {
    return refuse(
      'REJECTED_BY_USER',
      `The approver answered malformed data (${detail}), which ReadGate treats as a rejection: ${paths} NOT modified. Try again; if it keeps happening, the extension or tool asking for approval is broken: tell the user.`,
    );
  },
};
