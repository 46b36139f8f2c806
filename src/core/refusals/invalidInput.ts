/** INVALID_INPUT: arguments that are not what a call takes, or changes that contradict themselves. Its wording lives here, with its code. */
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

/** A caller's value named for a message without running any of its code. */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}…` : JSON.stringify(value);
    case 'number':
    case 'boolean':
      return String(value);
    case 'bigint':
      return `${value}n (a BigInt)`;
    case 'undefined':
      return 'nothing';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      if (value === null) return 'null';
      try {
        return Array.isArray(value) ? 'a list' : 'an object';
      } catch {
        return 'an object'; // a revoked Proxy
      }
  }
}

export const invalidInput = {
  /** A change that creates a file and moves it in one step. */
  createThenMove(path: string, moveTo: string): Refusal {
    return refuse('INVALID_INPUT', `${displayPath(path)} does not exist yet: create it at ${displayPath(moveTo)} instead of creating and moving it.`);
  },
  /** New text with a character the file's encoding cannot hold. */
  unencodable(path: string, encoding: string, char: string): Refusal {
    const code = char.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0');
    return refuse('INVALID_INPUT', `${displayPath(path)} is ${encoding}, which cannot hold the character ${JSON.stringify(char)} (U+${code}) your change contains. Nothing was written; use characters that exist in this encoding.`);
  },
  moveToItself(path: string): Refusal {
    return refuse('INVALID_INPUT', `${displayPath(path)} would move to itself. Nothing was changed; name another path in moveTo, or leave moveTo out.`);
  },
  /** A file deleted or moved is named once, and no two changes of a call end at one path. */
  namedTwice(path: string, earlier: string): Refusal {
    const same = path === earlier ? `${displayPath(path)} is named twice` : `${displayPath(path)} and ${displayPath(earlier)} are the same file`;
    return refuse('INVALID_INPUT', `${same} in one change, where one of them deletes it, moves it or moves another file there. Nothing was changed; name each file once (edits of a file that moves go with its move).`);
  },
};
