/**
 * git's name for a file's content: the SHA-1 of "blob <byte length>\0" followed by the bytes. A diff's
 * `index <old>..<new>` line names the versions it was made between by abbreviations of these hashes, so a
 * file whose hash starts with `<old>` is byte for byte the version the patch was made from.
 */
import { createHash } from 'crypto';

export function blobHash(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.byteLength}\0`).update(bytes).digest('hex');
}

/** The bytes are the blob `abbreviated` names (at least 7 hex digits, as git abbreviates). */
export function isBlob(bytes: Uint8Array, abbreviated: string): boolean {
  return /^[0-9a-f]{7,40}$/.test(abbreviated) && blobHash(bytes).startsWith(abbreviated);
}
