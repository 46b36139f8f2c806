/**
 * EDIT_REQUIRES_PRIOR_READ: a change of a file this session has not seen at this path. The wording of each
 * situation lives here, with its code.
 */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const requiresPriorRead = {
  unread(path: string): Refusal {
    return refuse('EDIT_REQUIRES_PRIOR_READ', `${displayPath(path)} has not been read in this session, so it cannot be changed yet. Read it first (the lines you intend to change, or the whole file before a write), then retry.`);
  },
};
