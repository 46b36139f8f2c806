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
  /** An agent's own tool applies a change whole: a review that kept only part of it cannot be carried out. */
  partOnly(path: string, tool: string, diff: string): Refusal {
    return refuse(
      'REJECTED_BY_USER',
      `The user accepted only part of this change in review, but ${tool} applies a change whole, so ${displayPath(path)} was NOT modified. This is how the user's version differs from yours; make exactly the change the user accepted:\n${diff}`,
    );
  },
  /** A change whose result its own tool decides (a loose edit) cannot be shown for review first. */
  noPreview(path: string, tool: string): Refusal {
    return refuse(
      'REJECTED_BY_USER',
      `Changes to ${displayPath(path)} are reviewed before they are written, and ${tool} decides its result only as it writes, so there is nothing to review: NOT modified. Make the change as an exact replacement of the lines you read (replace_string_in_file, or your exact-edit tool).`,
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
