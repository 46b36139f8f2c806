/**
 * File identity: which file a name refers to, independent of the name.
 *
 * Local files are `(dev, ino)` plus the birth time where the file system reports one: a freed inode is handed to
 * the next new file, and only the birth time tells that stranger from the file that lived there (a rename keeps
 * it). Where the platform reports no usable inode (0, as on some network or virtual file systems), the
 * normalized path is the key instead. The ledger is keyed by path either way; identity only recognizes
 * another name of the same file.
 */
export function identityOf(dev: number | bigint, ino: number | bigint, normalizedPath: string, birthtimeMs = 0): string {
  if (ino === 0 || ino === 0n) return `path:${normalizedPath}`;
  return birthtimeMs > 0 ? `ino:${dev}:${ino}:${birthtimeMs}` : `ino:${dev}:${ino}`;
}

/**
 * Whether two equal identities are surely one file even across time: true with a birth time (or where the
 * identity is a path or URI), false for a bare inode, which may have been handed to a stranger.
 */
export function survivesInodeReuse(identity: string): boolean {
  return !identity.startsWith('ino:') || identity.split(':').length > 3;
}
