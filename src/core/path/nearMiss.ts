/**
 * Near-miss suggestions for a missing file, so FILE_NOT_FOUND can say "did you mean ..." and the agent can
 * continue without listing directories (a refusal never lists a folder).
 *
 * Looks only at the deepest existing ancestor directory and the first missing component below it (for
 * `src/utlis/x.ts` with no `utlis`, it suggests `src/utils`). A name is a near miss when it differs only in
 * case, has the same stem with another extension (`index.js` for `index.ts`), or is within a small edit
 * distance: none for names of up to 2 characters, 1 up to 5, 2 beyond. Best first, ties by name, so the same
 * directory always gives the same answer.
 *
 * It does not check the suggestions against the path policy: the caller filters them (a denied file must not
 * be named). It never throws: any failure means no suggestions.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../ports';

interface Candidate {
  name: string;
  rank: number;
}

export async function suggestNearMisses(path: string, fs: FileSystem, limit = 3): Promise<string[]> {
  try {
    const missing = await firstMissing(nodePath.resolve(path), fs);
    if (!missing) return [];
    const names = await fs.readdir(missing.parent);
    return names
      .map((name) => ({ name, rank: rankOf(name, missing.name) }))
      .filter((candidate): candidate is Candidate => candidate.rank !== undefined)
      .sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .slice(0, Math.max(0, limit))
      .map((candidate) => nodePath.join(missing.parent, candidate.name));
  } catch {
    return [];
  }
}

/** The deepest existing directory above `path`, and the name of its child on the way to `path`. */
async function firstMissing(path: string, fs: FileSystem): Promise<{ parent: string; name: string } | undefined> {
  let child = path;
  let parent = nodePath.dirname(path);
  while (parent !== child) {
    if ((await fs.stat(parent))?.kind === 'directory') return { parent, name: nodePath.basename(child) };
    child = parent;
    parent = nodePath.dirname(parent);
  }
  return undefined;
}

/** Lower is better; undefined when `name` is no near miss of `wanted`. */
function rankOf(name: string, wanted: string): number | undefined {
  if (name === wanted) return undefined;
  const a = name.toLowerCase();
  const b = wanted.toLowerCase();
  if (a === b) return 0;
  if (stemOf(a) === stemOf(b)) return 1;
  const limit = wanted.length <= 2 ? 0 : wanted.length <= 5 ? 1 : 2;
  if (Math.abs(a.length - b.length) > limit) return undefined;
  const distance = editDistance(a, b);
  return distance <= limit ? 1 + distance : undefined;
}

function stemOf(name: string): string {
  return nodePath.parse(name).name;
}

/** Levenshtein distance (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_value, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
