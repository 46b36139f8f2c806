/** FILE_EXISTS: a create of a file that exists. The wording of each situation lives here, with its code. */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const fileExists = {
  exists(path: string): Refusal {
    return refuse(
      'FILE_EXISTS',
      `${displayPath(path)} already exists, so an empty oldString (create) is refused. To change it, read it and edit the lines you mean; to replace it entirely, read it fully and use write.`,
    );
  },
  /** A move never replaces a file. */
  moveDestination(path: string, destination: string): Refusal {
    return refuse(
      'FILE_EXISTS',
      `${displayPath(path)} cannot move to ${displayPath(destination)}: a file (or folder) is already there, and a move never replaces one. Nothing was changed. Choose another path, or delete that file first (it must be read fully).`,
    );
  },
};
