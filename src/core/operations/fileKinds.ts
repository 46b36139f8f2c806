/** Words for file kinds in messages. */
import type { FileKind } from '../ports';

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
