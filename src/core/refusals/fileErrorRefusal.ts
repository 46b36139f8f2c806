/**
 * Refusals for the file errors a port reports while reading (ports.ts): a FIFO, device or directory swapped in
 * after the guard's stat, or a "regular" file whose read would block (such as /proc/kmsg). Both are found on the
 * opened descriptor, which never blocks; neither is a reason to fail with "could not check". Nor is a file that
 * vanished between the check and the open, nor a name longer than the file system takes.
 */
import { errnoOf, isMissing, isNotRegularFile } from '../fileErrors';
import type { Refusal } from './refusal';
import { specialKindName } from './specialFile';
import { fileChanged } from './fileChanged';
import { fileNotFound } from './fileNotFound';
import { pathInvalid } from '../path/pathInvalid';
import { specialFile } from './specialFile';
import { targetIsDirectory } from './targetIsDirectory';

export function refusalForFileError(error: unknown, path: string): Refusal | undefined {
  if (isNotRegularFile(error)) {
    if (error.kind === 'directory') return targetIsDirectory.directory(path, []);
    return specialFile.whenOpened(path, specialKindName(error.kind));
  }
  const code = errnoOf(error);
  if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return specialFile.wouldBlock(path);
  if (code === 'ELOOP') return fileChanged.becameLink(path);
  // Below the limits the path policy checks: a file system with a smaller one. No retry can help.
  if (code === 'ENAMETOOLONG') return pathInvalid.tooLongForFileSystem(path);
  // Checked a moment ago, gone when opened: deleted, or a folder on the way was moved.
  if (isMissing(error)) return fileNotFound.vanishedWhileOpened(path);
  return undefined;
}
