/**
 * Refusals for the file errors a port reports while reading (ports.ts): a FIFO, device or directory swapped in
 * after the guard's stat, or a "regular" file whose read would block (such as /proc/kmsg). Both are found on the
 * opened descriptor, which never blocks; neither is a reason to fail with "could not check".
 */
import { isNotRegularFile } from '../fileErrors';
import { type Refusal, messages, refuse } from '../refusal';
import { specialKindName } from './fileKinds';

export function refusalForFileError(error: unknown, path: string): Refusal | undefined {
  if (isNotRegularFile(error)) {
    if (error.kind === 'directory') return refuse('TARGET_IS_DIRECTORY', messages.directory(path, []));
    return refuse('SPECIAL_FILE', messages.specialWhenOpened(path, specialKindName(error.kind)));
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return refuse('SPECIAL_FILE', messages.wouldBlock(path));
  if (code === 'ELOOP') return refuse('FILE_CHANGED_SINCE_READ', messages.becameLink(path));
  return undefined;
}
