/**
 * File identity: which file a name refers to, independent of the name.
 *
 * Local files are keyed by `(dev, ino)`, so symlinks, hard links and case variants of one path collapse to
 * one ledger entry, while rm + recreate (a new inode) is a stranger the session has never seen. Where the
 * platform reports no usable inode (0, as on some network or virtual file systems), the normalized path is
 * the key instead.
 */
export function identityOf(dev: number | bigint, ino: number | bigint, normalizedPath: string): string {
  if (ino === 0 || ino === 0n) return `path:${normalizedPath}`;
  return `ino:${dev}:${ino}`;
}
