/** AMBIGUOUS_MATCH: an oldString that matches several places. Its wording lives here, with its code. */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const ambiguousMatch = {
  /** `places`: "lines 3, 9" (and, in a call of several edits, the text an earlier edit writes). */
  several(path: string, count: number, places: string, which?: string, numbering = ''): Refusal {
    const what = which ? `The oldString of ${which}` : 'oldString';
    return refuse(
      'AMBIGUOUS_MATCH',
      `${what} matches ${count} places in ${displayPath(path)} (${places}).${numbering ? ` ${numbering}.` : ''} Add surrounding lines to oldString so it matches exactly one place, or set replaceAll: true to change every occurrence.`,
    );
  },
};
