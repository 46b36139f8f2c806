/**
 * URIs of past versions of files (`readgate-history:`), which VS Code's diff editor opens through
 * `HistoryDocuments`. The URI's path ends with the file's own path, so the editor picks the file's language and
 * names the tab after the file; the query says which version (a version id, or `none` for the empty side of a
 * created or deleted file) and which change and side it is, so two changes of the same version stay two
 * documents. Building and reading the query is pure string work.
 */
export const HISTORY_SCHEME = 'readgate-history';

export interface VersionRef {
  /** A version id, or null for "no file" (before a create, after a delete): an empty document. */
  version: string | null;
  /** The change and the side it shows, so each diff's documents are its own. */
  changeId: string;
  side: 'before' | 'after';
}

export function versionQuery(ref: VersionRef): string {
  return new URLSearchParams({ version: ref.version ?? 'none', change: ref.changeId, side: ref.side }).toString();
}

export function parseVersionQuery(query: string): VersionRef | undefined {
  const params = new URLSearchParams(query);
  const version = params.get('version');
  const changeId = params.get('change');
  const side = params.get('side');
  if (!version || changeId === null || (side !== 'before' && side !== 'after')) return undefined;
  return { version: version === 'none' ? null : version, changeId, side };
}
