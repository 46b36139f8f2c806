/**
 * EDIT_REQUIRES_PRIOR_READ: a change of a file this session has not seen at this path. The wording of each
 * situation lives here, with its code.
 */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const requiresPriorRead = {
  /** `standalone`: the session's calls share nothing, so only an expectedVersion can authorize the change. */
  unread(path: string, standalone = false): Refusal {
    if (standalone) {
      return refuse(
        'EDIT_REQUIRES_PRIOR_READ',
        `${displayPath(path)} cannot be changed by this call: each call stands alone here, so a read in another call does not count. Pass expectedVersion: the version shown in the header of your read of the file (or reported by your last change of it). Read the file if you have no version yet, then retry with it.`,
      );
    }
    return refuse(
      'EDIT_REQUIRES_PRIOR_READ',
      `${displayPath(path)} has not been read in this session, so it cannot be changed yet. Read it first (the lines you intend to change, or the whole file before a write), then retry.`,
    );
  },
  /** A patch in a call that stands alone: no read of another call counts, and a patch names no version. */
  patchStandalone(path: string): Refusal {
    return refuse(
      'EDIT_REQUIRES_PRIOR_READ',
      `${displayPath(path)} cannot be patched by this call: each call stands alone here, so a read in another call does not count, and a patch cannot name the version it was made from. Change it with readgate_edit or readgate_write and the expectedVersion from your read, or use a session (the ReadGate extension API's openSession).`,
    );
  },
};
