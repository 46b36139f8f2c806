/**
 * Child program for the symlink-swap race: for <ms> milliseconds, as fast as it can, renames <root>/sub to
 * <root>/sub.old, puts a symlink <root>/sub -> <outside> in its place, then swaps back. Ends with <root>/sub
 * the real directory again and prints {"swaps":n,"repairs":n}.
 *
 * While sub is briefly missing, a guard creating sub/new-<i>.txt may make a fresh sub/ directory; the swap
 * back then moves that directory's entries into the real one (they are inside the roots, where the guard was
 * allowed to put them) instead of losing them. Usage: node dirSwapper.js <root> <outside> <ms>.
 */
import * as fs from 'fs';
import * as path from 'path';

const [root, outside, ms] = process.argv.slice(2);
const sub = path.join(root, 'sub');
const old = path.join(root, 'sub.old');
let repairs = 0;

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch {
    return undefined;
  }
}

/** Makes <root>/sub the real directory again and <root>/sub.old absent. */
function restore(): void {
  for (let attempt = 0; attempt < 100_000; attempt++) {
    const at = lstat(sub);
    if (at?.isSymbolicLink()) {
      fs.unlinkSync(sub);
      continue;
    }
    if (!lstat(old)) {
      if (at?.isDirectory()) return;
      throw new Error(`both ${sub} and ${old} are gone`);
    }
    if (!at) {
      try {
        fs.renameSync(old, sub);
        return;
      } catch {
        continue; // the guard made sub/ meanwhile
      }
    }
    // A directory the guard made while sub was missing: keep what it put there, in the real directory.
    repairs++;
    for (const name of fs.readdirSync(sub)) {
      try {
        fs.renameSync(path.join(sub, name), path.join(old, name));
      } catch {
        // gone meanwhile
      }
    }
    try {
      fs.rmdirSync(sub);
    } catch {
      // not empty again: next round
    }
  }
  throw new Error('could not restore sub/');
}

const end = Date.now() + Number(ms);
let swaps = 0;
while (Date.now() < end) {
  try {
    fs.renameSync(sub, old);
    fs.symlinkSync(outside, sub);
    swaps++;
  } catch {
    // sub/ was re-made by the guard between the two: restore() sorts it out
  }
  restore();
}
restore();
process.stdout.write(`${JSON.stringify({ swaps, repairs })}\n`);
