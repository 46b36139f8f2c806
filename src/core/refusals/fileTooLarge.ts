/** FILE_TOO_LARGE: files over the whole-file limit. The wording of each situation lives here, with its code. */
import { displayPath } from '../path/displayPath';
import { formatCount } from '../read/formatCount';
import { type Refusal, refuse } from './refusal';

export const fileTooLarge = {
  tooLarge(path: string, size: number, limit: number): Refusal {
    return refuse('FILE_TOO_LARGE', `${displayPath(path)} is ${formatCount(size)} bytes, above the ${formatCount(limit)}-byte limit for whole-file edits and writes. Read line ranges of it (offset/limit) instead; change it with another tool.`);
  },
};
