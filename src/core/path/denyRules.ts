/**
 * Deny rules: picomatch globs that refuse a path even inside the roots (`.git`, `secrets/*.pem`, `.env*`
 * anywhere below a root).
 *
 * A rule is either relative to a root (matched against the path below a root that contains the candidate)
 * or absolute (starts with `/`, matched against the whole path). A rule that names a folder covers
 * everything below it, as in `.gitignore`: every ancestor of the candidate is matched too, so `.git` refuses
 * `.git/config`. Dot files match like any other name. Matching ignores case: on macOS and Windows
 * `.GIT/config` opens `.git/config`, and refusing a rare case variant on Linux is the safe side. Rules and
 * candidates are compared in NFC: a name spelled in another Unicode form (NFD on disk) matches the same rules.
 *
 * It does not resolve paths or know the roots: the policy passes every form of a path it wants checked (the
 * lexical path, each symlink hop, the final target) with the candidate's paths below each containing root.
 */
import * as nodePath from 'node:path';
import picomatch from 'picomatch';

interface Rule {
  pattern: string;
  absolute: boolean;
  matches: (candidate: string) => boolean;
}

const globOptions: picomatch.PicomatchOptions = { dot: true, nocase: true };

function compile(pattern: string): Rule | undefined {
  const absolute = pattern.startsWith('/');
  const glob = absolute ? pattern.replace(/\/+$/, '') || '/' : pattern.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (glob === '') return undefined;
  return { pattern, absolute, matches: picomatch(glob.normalize('NFC'), globOptions) };
}

/** `a/b/c` -> `a/b/c`, `a/b`, `a` (separators as `/`, the form globs are written in). */
function selfAndAncestors(relative: string): string[] {
  const parts = relative.split(nodePath.sep).filter((part) => part !== '');
  return parts.map((_part, index) => parts.slice(0, parts.length - index).join('/'));
}

export class DenyRules {
  private readonly rules: Rule[];

  constructor(patterns: readonly string[]) {
    this.rules = patterns.map((pattern) => compile(pattern.trim())).filter((rule): rule is Rule => rule !== undefined);
  }

  get isEmpty(): boolean {
    return this.rules.length === 0;
  }

  /**
   * The first rule that refuses `absolute`, or undefined. `belowRoots` are the candidate's paths relative
   * to each root (given and real form) that contains it.
   */
  match(absolute: string, belowRoots: readonly string[]): string | undefined {
    if (this.rules.length === 0) return undefined;
    const absoluteForms = ['/', ...selfAndAncestors(absolute.normalize('NFC')).map((form) => '/' + form)];
    const relativeForms = belowRoots.flatMap((form) => selfAndAncestors(form.normalize('NFC')));
    for (const rule of this.rules) {
      const forms = rule.absolute ? absoluteForms : relativeForms;
      if (forms.some((form) => rule.matches(form))) return rule.pattern;
    }
    return undefined;
  }
}
