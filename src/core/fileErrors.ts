/**
 * The errors a FileSystem port rejects with when a write or read must not happen (ports.ts: `WriteConflict`,
 * `NotRegularFile`, `NotWritable`), made and recognized in one place so every port and the guard agree.
 */
import type { ConflictReason, FileKind, NotRegularFile, NotWritable, WriteConflict } from './ports';

function hasCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}

export function writeConflict(reason: ConflictReason, message: string): WriteConflict {
  return Object.assign(new Error(message), { code: 'READGATE_CONFLICT' as const, reason });
}

export function isWriteConflict(error: unknown): error is WriteConflict {
  return hasCode(error, 'READGATE_CONFLICT');
}

export function notRegularFile(kind: FileKind, path: string): NotRegularFile {
  return Object.assign(new Error(`${path} is not a regular file when opened (${kind})`), { code: 'READGATE_NOT_REGULAR' as const, kind });
}

export function isNotRegularFile(error: unknown): error is NotRegularFile {
  return hasCode(error, 'READGATE_NOT_REGULAR');
}

export function notWritable(reason: NotWritable['reason'], message: string): NotWritable {
  return Object.assign(new Error(message), { code: 'READGATE_NOT_WRITABLE' as const, reason });
}

export function isNotWritable(error: unknown): error is NotWritable {
  return hasCode(error, 'READGATE_NOT_WRITABLE');
}

/** "ENOSPC on write", or the message of an error without a code. */
export function describeIoError(error: unknown): string {
  const e = error as NodeJS.ErrnoException | undefined;
  if (e?.code) return `${e.code}${e.syscall ? ` on ${e.syscall}` : ''}`;
  return String((error as Error)?.message ?? error);
}
