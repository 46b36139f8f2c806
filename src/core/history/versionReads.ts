/**
 * Reading versions back for a caller (a revert, a diff, the export): a version that is not what its name says is
 * damage, set aside (`damaged/versions`) with a warning and forgotten as stored, so the next change with those
 * bytes stores them again; one that cannot be read just now is trouble, reported and left where it is.
 */
import type { ChangeRecord } from './changeRecord';
import type { RevertChange, RevertFile } from './revertTypes';
import type { StoreContext } from './storeContext';
import { blobName, loadVersion, troubleOf, type VersionRead } from './versionStore';

/** Why a version a record names could not be given back. */
export interface VersionProblem {
  version: string;
  /** The file of the record that names it. */
  path: string;
  /** 'missing' (not in the history folder), 'damaged: …' (set aside), or the trouble (EACCES: …). */
  reason: string;
  /** Trouble that may pass (a permission, too many open files): trying again may work. */
  transient: boolean;
}

export async function readVersion(ctx: StoreContext, versionId: string): Promise<VersionRead> {
  const read = await loadVersion(ctx.storage, versionId);
  if (!('damaged' in read)) return read;
  ctx.index.sizes.delete(versionId);
  try {
    if (!ctx.storage.setAside) throw new Error('this storage cannot set files aside');
    await ctx.storage.setAside('versions', blobName(versionId));
    ctx.logger.warn('[history] a damaged stored version was set aside', { version: versionId, reason: read.damaged, to: 'damaged/versions' });
  } catch (error) {
    ctx.logger.warn('[history] a stored version is damaged; it could not be set aside', { version: versionId, reason: read.damaged, error: troubleOf(error) });
  }
  return read;
}

export function problemOf(read: VersionRead, version: string, path: string): VersionProblem | undefined {
  if ('bytes' in read) return undefined;
  if ('missing' in read) return { version, path, reason: 'missing', transient: false };
  if ('damaged' in read) return { version, path, reason: `damaged: ${read.damaged}`, transient: false };
  return { version, path, reason: read.trouble, transient: true };
}

/** A record's files with their bytes before and after, or every version that could not be given back. */
export async function revertContents(ctx: StoreContext, record: ChangeRecord): Promise<{ change: RevertChange } | { problems: VersionProblem[] }> {
  const files: RevertFile[] = [];
  const problems: VersionProblem[] = [];
  const side = async (version: string | null, path: string): Promise<Uint8Array | null | undefined> => {
    if (version === null) return null;
    const read = await readVersion(ctx, version);
    const problem = problemOf(read, version, path);
    if (problem) problems.push(problem);
    return 'bytes' in read ? read.bytes : undefined;
  };
  for (const file of record.files) {
    const before = await side(file.before, file.path);
    const after = await side(file.after, file.path);
    if (before === undefined || after === undefined) continue;
    files.push({
      path: file.path,
      kind: file.kind,
      ...(file.from !== undefined ? { from: file.from } : {}),
      before,
      after,
      ...(file.mode !== undefined ? { mode: file.mode } : {}),
    });
  }
  return problems.length ? { problems } : { change: { id: record.id, files } };
}
