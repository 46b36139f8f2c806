/**
 * TARGET_IS_DIRECTORY: a directory where a file was expected. The wording of each situation lives here, with its
 * code.
 */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const targetIsDirectory = {
  directory(path: string, entries: readonly string[]): Refusal {
    const sample = entries.length
      ? ` It contains: ${entries.slice(0, 12).map(displayPath).join(', ')}${entries.length > 12 ? `, … (${entries.length} entries)` : ''}.`
      : '';
    return refuse('TARGET_IS_DIRECTORY', `${displayPath(path)} is a directory, not a file. Read one of the files inside it instead.${sample}`);
  },
};
