/**
 * Content-addressed versions: a file's exact bytes, stored gzip-compressed under the SHA-256 of the
 * uncompressed bytes (`<sha256>.gz` in the storage's `versions` area). The same bytes are stored once however
 * many changes name them, and reading back checks the hash, so a damaged or swapped blob is never handed out as
 * a version (it is damaged: the history sets it aside, and the next change with those bytes stores them again).
 *
 * Why gzip (level 6) and not brotli: on this repository's sources both take the same time at the levels that are
 * fast enough to run after every change (gzip 6 vs brotli 5: 30% vs 29% of the size; brotli's 26% at quality
 * 11 costs fifty times the time), and gzip's files carry a CRC and open with any `gzip -dc`, which an audit of
 * a history folder may want. Large contents are hashed (WebCrypto's digest) and compressed (zlib's callback API)
 * on the thread pool, so they do not hold the event loop; small ones here and now, as a turn of the event loop
 * costs a busy process more than the work.
 *
 * Not here: which versions are still referenced (the history's index knows which records name them).
 */
import { createHash, webcrypto } from 'node:crypto';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { errnoOf } from '../fileErrors';
import { isVersionId } from './changeRecord';
import type { HistoryStorage } from './historyStorage';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

export const VERSION_SUFFIX = '.gz';
/** Up to this size, hashing and compressing take well under a millisecond: done at once. */
const SMALL = 64 * 1024;

export async function versionIdOf(bytes: Uint8Array): Promise<string> {
  if (bytes.byteLength <= SMALL) return createHash('sha256').update(bytes).digest('hex');
  const digest = new Uint8Array(await webcrypto.subtle.digest('SHA-256', bytes));
  return Buffer.from(digest).toString('hex');
}

export function blobName(versionId: string): string {
  return versionId + VERSION_SUFFIX;
}

/** The version id a stored name stands for, or undefined for a name that is not a version's. */
export function versionIdOfName(name: string): string | undefined {
  const id = name.endsWith(VERSION_SUFFIX) ? name.slice(0, -VERSION_SUFFIX.length) : '';
  return isVersionId(id) ? id : undefined;
}

export async function compress(bytes: Uint8Array): Promise<Uint8Array> {
  if (bytes.byteLength <= SMALL) return new Uint8Array(zlib.gzipSync(bytes, { level: 6 }));
  return new Uint8Array(await gzip(bytes, { level: 6 }));
}

/** What reading a version gave: its bytes, nothing stored, something that is not it, or trouble reading. */
export type VersionRead = { bytes: Uint8Array } | { missing: true } | { damaged: string } | { trouble: string };

/** An error in words for logs and messages: its code first when it has one. */
export function troubleOf(error: unknown): string {
  const code = errnoOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.startsWith(code) ? `${code}: ${message}` : message;
}

/** Reads a version back and checks it decompresses to bytes with its hash. Never rejects. */
export async function loadVersion(storage: HistoryStorage, versionId: string): Promise<VersionRead> {
  let stored: Uint8Array | undefined;
  try {
    stored = await storage.read('versions', blobName(versionId));
  } catch (error) {
    return { trouble: troubleOf(error) };
  }
  if (!stored) return { missing: true };
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(stored.byteLength <= SMALL ? zlib.gunzipSync(stored) : await gunzip(stored));
  } catch (error) {
    return { damaged: `does not decompress (${(error as Error).message})` };
  }
  if ((await versionIdOf(bytes)) !== versionId) return { damaged: 'its content has another hash' };
  return { bytes };
}
