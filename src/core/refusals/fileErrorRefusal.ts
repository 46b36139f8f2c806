/**
 * Refusals for the file errors a port reports while reading (ports.ts): a FIFO, device or directory swapped in
 * after the guard's stat, or a "regular" file whose read would block (such as /proc/kmsg). Both are found on the
 * opened descriptor, which never blocks; neither is a reason to fail with "could not check". Nor is a file that
 * vanished between the check and the open.
 */
import { isNotRegularFile } from '../fileErrors';
import { type Refusal, messages, refuse } from './refusal';
import { specialKindName } from '../operations/fileKinds';

export function refusalForFileError(error: unknown, path: string): Refusal | undefined {
  if (isNotRegularFile(error)) {
    if (error.kind === 'directory') return refuse('TARGET_IS_DIRECTORY', messages.directory(path, []));
    return refuse('SPECIAL_FILE', messages.specialWhenOpened(path, specialKindName(error.kind)));
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return refuse('SPECIAL_FILE', messages.wouldBlock(path));
  if (code === 'ELOOP') return refuse('FILE_CHANGED_SINCE_READ', messages.becameLink(path));
  // Checked a moment ago, gone when opened: deleted, or a folder on the way was moved.
  if (code === 'ENOENT' || code === 'ENOTDIR') return refuse('FILE_NOT_FOUND', messages.vanished(path));
  return undefined;
}
