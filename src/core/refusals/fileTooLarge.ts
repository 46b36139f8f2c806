/** FILE_TOO_LARGE: files, and new content, over the whole-file limit. The wording of each situation lives here, with its code. */
import { displayPath } from '../path/displayPath';
import { formatCount } from '../text/formatCount';
import { type Refusal, refuse } from './refusal';

export const fileTooLarge = {
  tooLarge(path: string, size: number, limit: number): Refusal {
    return refuse(
      'FILE_TOO_LARGE',
      `${displayPath(path)} is ${formatCount(size)} bytes, above the ${formatCount(limit)}-byte limit for whole-file edits and writes. Read line ranges of it (offset/limit) instead; change it with another tool.`,
    );
  },
  /** The change itself would make the file too large: a new file, or an existing one grown past the limit. */
  content(path: string, size: number, limit: number): Refusal {
    return refuse(
      'FILE_TOO_LARGE',
      `The new content of ${displayPath(path)} would be ${formatCount(size)} bytes, above the ${formatCount(limit)}-byte limit for files ReadGate writes. Nothing was written. Make the file smaller, or split its content over several files.`,
    );
  },
  /** A UTF-16 file too big to load: its lines cannot be found by streaming bytes. */
  utf16Stream(path: string, size: number, inMemoryLimit: number): Refusal {
    return refuse(
      'FILE_TOO_LARGE',
      `${displayPath(path)} is UTF-16 and ${formatCount(size)} bytes, above the ${formatCount(inMemoryLimit)} bytes ReadGate loads whole; larger files are read by streaming, which works for UTF-8 and Latin-1 only. Nothing was read. Tell the user; read it with another tool, or convert it to UTF-8.`,
    );
  },
};
