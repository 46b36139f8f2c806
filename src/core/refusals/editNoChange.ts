/** EDIT_NO_CHANGE: a change that changes nothing. The wording of each situation lives here, with its code. */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const editNoChange = {
  noChange(path: string): Refusal {
    return refuse(
      'EDIT_NO_CHANGE',
      `The change would leave ${displayPath(path)} exactly as it is (oldString equals newString, or the content is identical). Nothing was written; check what you intended to change.`,
    );
  },
  /** A revert whose changes were already undone: the files are as it would leave them. `what`: "change <id>" or "session <id>". */
  revert(what: string): Refusal {
    return refuse('EDIT_NO_CHANGE', `Reverting ${what} would leave every file exactly as it is now (what it changed was already undone). Nothing was written.`);
  },
};
