/** A directory tree as comparable data: every entry's kind, mode and exact bytes (or link text), as a Map. */
import { snapshotTree } from './treeSnapshot';

export type Tree = Map<string, string>;

export function treeOf(root: string): Tree {
  const entries = Object.entries(snapshotTree(root, { bytes: true }));
  return new Map(entries.map(([name, entry]) => [name, entry.kind === 'file' ? `file:${entry.mode}:${entry.bytes}` : entry.kind === 'directory' ? 'dir' : entry.kind === 'symlink' ? `link:${entry.content}` : 'other']));
}

/** A temp file of ReadGate's write path (`.name.readgate-<pid>-<time>-<n>.tmp`). */
export function isTemp(name: string): boolean {
  return /\.readgate-[^/]*\.tmp$/.test(name);
}

export function withoutTemps(tree: Tree): Tree {
  return new Map([...tree].filter(([name]) => !isTemp(name)));
}

/** The bytes of a file entry of a tree (undefined when absent or not a file). */
export function bytesOf(tree: Tree, name: string): Buffer | undefined {
  const entry = tree.get(name);
  return entry?.startsWith('file:') ? Buffer.from(entry.slice(entry.indexOf(':', 5) + 1), 'base64') : undefined;
}
