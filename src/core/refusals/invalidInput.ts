/** INVALID_INPUT for changes that contradict themselves. Its wording lives here, with its code. */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const invalidInput = {
  moveToItself(path: string): Refusal {
    return refuse('INVALID_INPUT', `${displayPath(path)} would move to itself. Nothing was changed; name another path in moveTo, or leave moveTo out.`);
  },
  /** A file deleted or moved is named once, and no two changes of a call end at one path. */
  namedTwice(path: string, earlier: string): Refusal {
    const same = path === earlier ? `${displayPath(path)} is named twice` : `${displayPath(path)} and ${displayPath(earlier)} are the same file`;
    return refuse('INVALID_INPUT', `${same} in one change, where one of them deletes it, moves it or moves another file there. Nothing was changed; name each file once (edits of a file that moves go with its move).`);
  },
};
