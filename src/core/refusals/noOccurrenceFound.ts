/** NO_OCCURRENCE_FOUND: an oldString that is not in the file. Its wording lives here, with its code. */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const noOccurrenceFound = {
  /** `which` names the edit when the call has several ("edit 2 of your 3 edits"), `numbering` how lines count. */
  notFound(path: string, closest: string, which?: string, numbering = ''): Refusal {
    const what = which ? `The oldString of ${which}` : 'oldString';
    const near = closest ? ` The closest lines you have seen${numbering ? ` (${numbering})` : ''}:\n${closest}` : '';
    return refuse(
      'NO_OCCURRENCE_FOUND',
      `${what} was not found in ${displayPath(path)}. It must match the file exactly, including whitespace and indentation.${near}\nRead the lines you want to change and copy them exactly.`,
    );
  },
};
