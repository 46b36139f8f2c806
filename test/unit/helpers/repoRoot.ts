/** The repository root, found from the compiled test's location (tests run from out/test/...). */
import * as fs from 'fs';
import * as path from 'path';

function findRoot(start: string): string {
  let dir = start;
  while (!fs.existsSync(path.join(dir, 'package.json')) || path.basename(dir) === 'out') {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
  return dir;
}

export const repoRoot = findRoot(__dirname);
