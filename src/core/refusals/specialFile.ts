/**
 * SPECIAL_FILE: FIFOs, sockets and devices: refused without blocking. The wording of each situation lives here,
 * with its code.
 */
import type { FileKind } from '../ports';
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

export const specialFile = {
  special(path: string, kind: string): Refusal {
    return refuse(
      'SPECIAL_FILE',
      `${displayPath(path)} is a ${kind}, not a regular file; ReadGate refuses it without opening it (reading could block or never end). Do not retry; use another tool if you really need it.`,
    );
  },
  whenOpened(path: string, kind: string): Refusal {
    return refuse(
      'SPECIAL_FILE',
      `${displayPath(path)} turned out to be a ${kind}, not a regular file, when ReadGate opened it (it was replaced after it was checked). It was opened without blocking and refused; nothing was read or changed. Do not retry; check what replaced the file.`,
    );
  },
  wouldBlock(path: string): Refusal {
    return refuse(
      'SPECIAL_FILE',
      `Reading ${displayPath(path)} would block (it behaves like a device or pipe, not a file). ReadGate refuses it; nothing was read or changed. Do not retry; use another tool if you really need it.`,
    );
  },
};

/** Words for file kinds in messages. */
export function specialKindName(kind: FileKind): string {
  switch (kind) {
    case 'fifo':
      return 'FIFO (named pipe)';
    case 'socket':
      return 'socket';
    case 'characterDevice':
      return 'character device';
    case 'blockDevice':
      return 'block device';
    case 'symlink':
      return 'dangling symbolic link';
    default:
      return 'special file';
  }
}
