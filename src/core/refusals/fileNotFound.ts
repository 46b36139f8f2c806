/** FILE_NOT_FOUND: a path that names no file. The wording of each situation lives here, with its code. */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const fileNotFound = {
  missing(path: string, suggestions: readonly string[]): Refusal {
    const hint = suggestions.length
      ? ` Did you mean: ${suggestions.map(displayPath).join(', ')}?`
      : ' Check the path; to create the file, use write (or edit with an empty oldString).';
    return refuse('FILE_NOT_FOUND', `${displayPath(path)} does not exist.${hint}`);
  },
  vanishedWhileOpened(path: string): Refusal {
    return refuse(
      'FILE_NOT_FOUND',
      `${displayPath(path)} vanished while ReadGate opened it (it was deleted, or a folder on the way was moved). Nothing was read or changed. Check the path, then retry.`,
    );
  },
};
