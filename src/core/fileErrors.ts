/**
 * File system errors, made and recognized in one place so every port and the guard agree: the port's own
 * (ports.ts: `WriteConflict`, `NotRegularFile`, `NotWritable`) and what a failed Node system call says.
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

/** The errno code of a failed system call ('ENOENT'), or undefined for an error without one. */
export function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** The path is not there: no such entry, or a component on the way is not a folder. */
export function isMissing(error: unknown): boolean {
  const code = errnoOf(error);
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** "ENOSPC on write", or the message of an error without a code. */
export function describeIoError(error: unknown): string {
  const e = error as NodeJS.ErrnoException | undefined;
  if (e?.code) return `${e.code}${e.syscall ? ` on ${e.syscall}` : ''}`;
  return String((error as Error)?.message ?? error);
}
