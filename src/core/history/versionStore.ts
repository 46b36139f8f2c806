/**
 * Content-addressed versions: a file's exact bytes, stored gzip-compressed under the SHA-256 of the
 * uncompressed bytes (`<sha256>.gz` in the storage's `versions` area). The same bytes are stored once however
 * many changes name them, and reading back checks the hash, so a damaged or swapped blob is never handed out as
 * a version (it reads as missing and is removed, so the next change with those bytes stores them again).
 *
 * Why gzip (level 6) and not brotli: on this repository's sources both take the same time at the levels that are
 * fast enough to run after every change (gzip 6 vs brotli 5: 30% vs 29% of the size; brotli's 26% at quality
 * 11 costs fifty times the time), and gzip's files carry a CRC and open with any `gzip -dc`, which an audit of
 * a history folder may want. Hashing (WebCrypto's digest) and compression (zlib's callback API) run on the
 * thread pool, so a large version does not hold the event loop.
 *
 * Not here: which versions are still referenced (the history counts references and removes the rest).
 */
import { webcrypto } from 'node:crypto';
import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { isVersionId } from './changeRecord';
import type { HistoryStorage } from './historyStorage';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

export const VERSION_SUFFIX = '.gz';

export async function versionIdOf(bytes: Uint8Array): Promise<string> {
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
  return new Uint8Array(await gzip(bytes, { level: 6 }));
}

/**
 * The version's bytes, or undefined when the storage has none, or has something that does not decompress to
 * bytes with that hash (`damaged` says which).
 */
export async function readVersion(storage: HistoryStorage, versionId: string): Promise<{ bytes?: Uint8Array; damaged?: string }> {
  const stored = await storage.read('versions', blobName(versionId));
  if (!stored) return {};
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await gunzip(stored));
  } catch (error) {
    return { damaged: `does not decompress (${(error as Error).message})` };
  }
  if ((await versionIdOf(bytes)) !== versionId) return { damaged: 'its content has another hash' };
  return { bytes };
}
