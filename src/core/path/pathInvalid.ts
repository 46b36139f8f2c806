/**
 * The path policy's refusals: their type, and the words of PATH_INVALID for a path no file system takes (a name or
 * the whole path too long; other malformed paths are worded where the policy finds them).
 */
import { formatCount } from '../text/formatCount';
import { displayPath } from './displayPath';

/** A path the policy refuses: malformed (PATH_INVALID) or outside what the agent may touch (PATH_DENIED). */
export type PathRefusal = { ok: false; code: 'PATH_INVALID' | 'PATH_DENIED'; message: string };

export type PathInvalid = { ok: false; code: 'PATH_INVALID'; message: string };

const invalid = (message: string): PathInvalid => ({ ok: false, code: 'PATH_INVALID', message });

export const pathInvalid = {
  nameTooLong(path: string, name: string, bytes: number, limit: number): PathInvalid {
    const where = name === path ? '' : ` in ${displayPath(path)}`;
    return invalid(
      `The name ${displayPath(name)}${where} is too long: ${formatCount(bytes)} bytes, and a file or folder name may have at most ${formatCount(limit)} bytes (UTF-8). No such file can exist; nothing was read or changed. Use a shorter name.`,
    );
  },
  pathTooLong(path: string, bytes: number, limit: number): PathInvalid {
    return invalid(
      `The path ${displayPath(path)} is too long: ${formatCount(bytes)} bytes as an absolute path, and a path may have at most ${formatCount(limit)} bytes. No such file can exist; nothing was read or changed. Use a shorter name, or a file in a folder nearer the root.`,
    );
  },
  /** The file system itself refused a name (ENAMETOOLONG): its own limit is below the usual ones. */
  tooLongForFileSystem(path: string): PathInvalid {
    return invalid(
      `The path ${displayPath(path)} is too long for its file system (ENAMETOOLONG): one of its names, or the whole path, is longer than that file system takes. Nothing was read or changed. Use a shorter name.`,
    );
  },
};
