/**
 * Near-miss suggestions for a missing path, named the way the agent names paths and filtered through the
 * path policy, so a suggestion never points at a file the agent may not touch (a denied `.env`).
 */
import type { FileSystem } from '../ports';
import { suggestNearMisses } from './nearMiss';
import type { PathPolicy } from './pathPolicy';

export async function allowedSuggestions(fs: FileSystem, paths: PathPolicy, path: string): Promise<string[]> {
  const found = await suggestNearMisses(path, fs, 6);
  const allowed: string[] = [];
  for (const suggestion of found) {
    const checked = await paths.check(suggestion).catch(() => undefined);
    if (checked?.ok) allowed.push(suggestion);
    if (allowed.length === 3) break;
  }
  return allowed;
}
