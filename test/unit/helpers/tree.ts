/** A directory tree as comparable data: every entry's kind, mode and exact bytes (or link text). */
import * as fs from 'fs';
import * as path from 'path';

export type Tree = Map<string, string>;

export function treeOf(root: string): Tree {
  const tree: Tree = new Map();
  const walk = (dir: string): void => {
    for (const name of fs.readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full);
      const stats = fs.lstatSync(full);
      if (stats.isSymbolicLink()) tree.set(rel, `link:${fs.readlinkSync(full)}`);
      else if (stats.isDirectory()) {
        tree.set(rel, 'dir');
        walk(full);
      } else tree.set(rel, `file:${(stats.mode & 0o7777).toString(8)}:${fs.readFileSync(full).toString('base64')}`);
    }
  };
  walk(root);
  return tree;
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
