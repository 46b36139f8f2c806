/**
 * How the page names a request and its files, in one place for the header, the queue and the announcements:
 * what the change does ("Edit a file", "Delete a file", "Move a file", "Change 4 files" when it mixes kinds),
 * what happens to each file, and whose change it is ("by <agent>", or "Your patch" for the user's own).
 */
import type { FileView, RequestView } from '../../src/vscode/approval/protocol';

export type FileKind = 'edited' | 'created' | 'deleted' | 'moved';

export function fileKind(file: FileView): FileKind {
  if (file.deleted) return 'deleted';
  if (file.movedTo !== undefined) return 'moved';
  return file.created ? 'created' : 'edited';
}

/** Deleting and moving are approved or rejected with the whole request, never hunk by hunk. */
export function isWholeFileChange(file: FileView): boolean {
  const kind = fileKind(file);
  return kind === 'deleted' || kind === 'moved';
}

function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

const VERBS: Record<FileKind, string> = { edited: 'Edit', created: 'Create', deleted: 'Delete', moved: 'Move' };

/** "Edit a file", "Create 2 files", "Delete a file", "Move and edit a file", "Change 4 files" (kinds mixed). */
export function operationLabel(request: RequestView): string {
  const kinds = new Set(request.files.map(fileKind));
  const files = request.files.length === 1 ? 'a file' : count(request.files.length, 'file');
  const [kind] = kinds;
  if (kinds.size !== 1 || kind === undefined) return `Change ${files}`;
  if (kind === 'edited' && request.operation === 'write') return `Rewrite ${files}`;
  if (kind === 'moved' && request.files.some((file) => file.hunks.length > 0)) return `Move and edit ${files}`;
  return `${VERBS[kind]} ${files}`;
}

function fileCountLabel(request: RequestView): string {
  return count(request.files.length, 'file');
}

/** "3 files: 1 edited, 1 moved, 1 deleted" when the kinds are mixed, else just the count. */
export function fileKindsLabel(request: RequestView): string {
  const tally = new Map<FileKind, number>();
  for (const file of request.files) tally.set(fileKind(file), (tally.get(fileKind(file)) ?? 0) + 1);
  if (tally.size < 2) return fileCountLabel(request);
  const order: FileKind[] = ['edited', 'created', 'moved', 'deleted'];
  return `${fileCountLabel(request)}: ${order.filter((kind) => tally.has(kind)).map((kind) => `${tally.get(kind)} ${kind}`).join(', ')}`;
}

/** "the move", "the deletion", "the 2 moves and the deletion": what approving does when every hunk is rejected. */
export function wholeFileChangesLabel(request: RequestView): string {
  const moved = request.files.filter((file) => fileKind(file) === 'moved').length;
  const deleted = request.files.filter((file) => fileKind(file) === 'deleted').length;
  const name = (n: number, one: string): string => (n === 1 ? `the ${one}` : `the ${n} ${one}s`);
  return [moved && name(moved, 'move'), deleted && name(deleted, 'deletion')].filter(Boolean).join(' and ');
}

/**
 * Whose change it is, as the queue and the title show it: the agent's label, "Your patch", "Your revert", or
 * "Revert from <label>" when an extension asked for the revert through ReadGate's API (never worded as the user's).
 */
export function authorLabel(request: RequestView): string {
  if (request.revert) return request.own ? 'Your revert' : `Revert from ${request.sessionLabel}`;
  return request.own ? 'Your patch' : request.sessionLabel;
}

/**
 * The title as its emphasized part and the rest: "Edit a file" + " by Chat: docs", or "Your patch" + " · Edit a
 * file". A revert is just "Your revert": what it does to which files is what it reverts, said right below it.
 */
export function titleParts(request: RequestView): [string, string] {
  if (request.revert) return [authorLabel(request), ''];
  return request.own ? [authorLabel(request), ` · ${operationLabel(request)}`] : [operationLabel(request), ` by ${request.sessionLabel}`];
}

/** The request as announcements name it: "Edit a file by Chat: docs", "your patch, Edit a file" or "your revert, …". */
export function requestSummary(request: RequestView): string {
  return request.own || request.revert ? `${authorLabel(request).toLowerCase()}, ${operationLabel(request)}` : `${operationLabel(request)} by ${request.sessionLabel}`;
}
