/**
 * How long a name and a path may be, checked on the text before any system call: past these the kernel
 * answers ENAMETOOLONG, which no retry changes. Linux's file systems (ext4, xfs, btrfs, tmpfs) take 255 bytes
 * per name, and a path of 4,095 bytes (PATH_MAX less the final NUL). Other systems count a name's limit in
 * characters (UTF-16 units on Windows and HFS+, more on APFS), so there it is counted in UTF-16 units, which
 * refuses no name they take. A smaller limit (eCryptfs: 143 bytes) still gives ENAMETOOLONG, refused the same
 * way where the guard meets it.
 */
import * as nodePath from 'node:path';

export const NAME_MAX_BYTES = 255;
export const PATH_MAX_BYTES = 4095;

export type NameTooLong = { kind: 'name'; name: string; bytes: number } | { kind: 'path'; bytes: number };

const nameLength = process.platform === 'linux' ? (name: string): number => Buffer.byteLength(name, 'utf8') : (name: string): number => name.length;

/** The first name of `absolute` (or the whole path) over its limit, if any. */
export function findTooLong(absolute: string): NameTooLong | undefined {
  for (const name of absolute.split(nodePath.sep)) {
    if (name.length * 3 <= NAME_MAX_BYTES) continue; // short enough in any encoding: no need to count
    const bytes = nameLength(name);
    if (bytes > NAME_MAX_BYTES) return { kind: 'name', name, bytes };
  }
  const bytes = Buffer.byteLength(absolute, 'utf8');
  return bytes > PATH_MAX_BYTES ? { kind: 'path', bytes } : undefined;
}
