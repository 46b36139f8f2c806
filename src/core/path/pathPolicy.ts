/**
 * Path policy: turns the path an agent names into the file it would really touch, and refuses what it may
 * not touch (the guard's first step: every symlink hop and the final target must be inside the
 * roots and match no deny rule).
 *
 * A check yields `path`, the caller's name for the file (absolute, `..` resolved lexically, each component
 * spelled as found on disk: what results and the ledger show), and `target`, where the kernel lands after every
 * link (what is read and written), and whether that exists. Names are bytes on Linux, so a name is never
 * normalized away: the exact name is used when it exists, else the one entry with the same NFC text (a name
 * written in NFD by macOS or git), and several such entries are refused (symlinkChain.ts); a new file gets the
 * name as given. Roots and deny rules compare NFC forms, so no spelling escapes a rule.
 *
 * A name or a path longer than file systems take (nameLimits.ts) is refused before any system call.
 *
 * Relative paths are relative to the first root; `~` and `~/` expand to the home directory. The named path
 * must be inside a root, as given or as its real path; every symlink hop and the final target must be inside
 * a root's real path; none of them may match a deny rule. "Inside" means equal or below by whole components:
 * `/a/bc` is not inside `/a/b`.
 *
 * It does not decide what may be done with the file (kind, size, prior reads): callers do, with `target` and
 * `exists`. It holds nothing against races: a link swapped after the check is for the caller's re-check
 * before applying. Roots' real paths are computed on the first check and kept for the policy's life (a root
 * that does not exist stays lexical); build a new policy when the roots change.
 */
import * as nodePath from 'node:path';
import type { FileSystem } from '../ports';
import { DenyRules } from './denyRules';
import { type PathRefusal, pathInvalid } from './pathInvalid';
import { displayPath } from './displayPath';
import { NAME_MAX_BYTES, PATH_MAX_BYTES, findTooLong } from './nameLimits';
import { ambiguousMessage } from './spellings';
import { CHANGED_DURING_WALK, followSymlinkChain, type SymlinkHop } from './symlinkChain';

export interface PathPolicyOptions {
  /** Absolute folders the agent may touch; relative paths resolve against the first. */
  roots: string[];
  /** Globs always refused, relative to a root or absolute (see denyRules.ts). */
  deny?: string[];
}

export type { PathRefusal };

/** `identity`: the target's, as the walk found it (an existing target that is no link). */
export type PathCheck = { ok: true; path: string; target: string; exists: boolean; identity?: string } | PathRefusal;

interface Root {
  /** As configured: absolute, normalized (compared in NFC, spelled as given). */
  given: string;
  /** Its real path, or `given` while it does not exist. */
  real: string;
}

function isInside(candidate: string, folder: string): boolean {
  if (candidate === folder) return true;
  return candidate.startsWith(folder.endsWith(nodePath.sep) ? folder : folder + nodePath.sep);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

function invalid(message: string): PathRefusal {
  return { ok: false, code: 'PATH_INVALID', message };
}

function denied(message: string): PathRefusal {
  return { ok: false, code: 'PATH_DENIED', message };
}

const protectedNote = 'it is protected and cannot be read or changed by any path. Choose another file or ask the user.';

export class PathPolicy {
  private readonly configured: { given: string }[];
  private readonly deny: DenyRules;
  private realRoots: Promise<Root[]> | undefined;

  constructor(
    options: PathPolicyOptions,
    private readonly fs: FileSystem,
  ) {
    this.configured = options.roots.map((root) => ({ given: nodePath.resolve(root) }));
    this.deny = new DenyRules(options.deny ?? []);
  }

  /**
   * Resolves and checks an agent-supplied path. Never throws for bad input; rejects only if the FileSystem
   * port throws an unexpected error (caller fails closed).
   */
  async check(input: unknown): Promise<PathCheck> {
    const named = this.resolveInput(input);
    if (typeof named !== 'string') return named;
    const roots = await this.loadRoots();
    const start = startOf(named, roots);
    if (!start) return denied(`${displayPath(named)} is outside the allowed roots (${this.rootList()}). Use a path inside one of them.`);
    const namedRule = this.denyRuleFor(named, roots);
    if (namedRule) return denied(`${displayPath(named)} matches the deny rule "${namedRule}": ${protectedNote}`);
    const rest = below(named, start.from);
    // A path that changed under the walk (a link swapped as it was read) is walked again, a few times at most.
    let end = await followSymlinkChain(this.fs, start.real, rest, (hop) => this.checkHop(hop, roots));
    for (let again = 0; again < 3 && !end.ok && end.message.includes(CHANGED_DURING_WALK); again++) {
      end = await followSymlinkChain(this.fs, start.real, rest, (hop) => this.checkHop(hop, roots));
    }
    if (!end.ok) return end;
    if (!roots.some((root) => isInside(end.target, root.real))) {
      return denied(`${displayPath(named)} resolves to ${displayPath(end.target)}, outside the allowed roots (${this.rootList()}). Use a path inside them.`);
    }
    const targetRule = this.denyRuleFor(end.target, roots);
    if (targetRule) {
      return denied(`${displayPath(named)} resolves to ${displayPath(end.target)}, which matches the deny rule "${targetRule}": ${protectedNote}`);
    }
    // After the deny rules: every match has the target's NFC text, so a listed one is never a protected file.
    if (end.ambiguous) return invalid(ambiguousMessage(end.ambiguous.folder, end.ambiguous.name, end.ambiguous.matches, displayPath));
    return {
      ok: true,
      path: nodePath.join(start.from, ...end.steps),
      target: end.target,
      exists: end.exists,
      ...(end.identity ? { identity: end.identity } : {}),
    };
  }

  /**
   * The path an agent names, resolved without touching the disk (relative to the first root, `~` expanded), or
   * undefined when it is not a usable path: a key for ordering calls, never a check.
   */
  lexical(input: unknown): string | undefined {
    const named = this.resolveInput(input);
    return typeof named === 'string' ? named.normalize('NFC') : undefined;
  }

  /** The real path of the root a checked target lies in (the deepest, when roots nest). */
  async rootOf(target: string): Promise<string | undefined> {
    const roots = await this.loadRoots();
    let best: string | undefined;
    for (const root of roots) if (isInside(target, root.real) && (!best || root.real.length > best.length)) best = root.real;
    return best;
  }

  private resolveInput(input: unknown): string | PathRefusal {
    if (typeof input !== 'string') return invalid(`The path must be a string, but got ${describe(input)}. Pass the file's path as text.`);
    if (input.trim() === '') return invalid('The path is empty. Pass the path of a file, absolute or relative to the first root.');
    if (input.includes('\0')) return invalid('The path contains a NUL byte (\\0), which no file name can contain. Pass it without.');
    if (this.configured.length === 0) return denied('No roots are configured, so no file can be read or changed. Ask the user to open a folder.');
    // Not normalized: the exact bytes name the file when it exists (see the file comment).
    const text = input;
    let expanded = text;
    if (text.startsWith('~')) {
      if (text !== '~' && !text.startsWith('~/') && !text.startsWith('~' + nodePath.sep)) {
        return invalid(
          `${displayPath(text)} cannot be expanded: only ~ and ~/ are expanded (to the home directory), not ~user. ` +
            `Pass an absolute path; for a file whose name starts with ~, write ./${displayPath(text)}.`,
        );
      }
      expanded = nodePath.join(this.fs.homedir(), text.slice(1));
    }
    const resolved = nodePath.resolve(this.configured[0].given, expanded);
    const tooLong = findTooLong(resolved);
    if (tooLong?.kind === 'name') return pathInvalid.nameTooLong(text, tooLong.name, tooLong.bytes, NAME_MAX_BYTES);
    if (tooLong) return pathInvalid.pathTooLong(text, tooLong.bytes, PATH_MAX_BYTES);
    return resolved;
  }

  private loadRoots(): Promise<Root[]> {
    if (!this.realRoots) {
      const pending = Promise.all(
        this.configured.map(async ({ given }) => {
          const exists = (await this.fs.stat(given)) !== undefined;
          return { given, real: exists ? await this.fs.realpath(given) : given };
        }),
      );
      this.realRoots = pending;
      pending.catch(() => {
        if (this.realRoots === pending) this.realRoots = undefined;
      });
    }
    return this.realRoots;
  }

  private checkHop(hop: SymlinkHop, roots: Root[]): PathRefusal | undefined {
    if (!roots.some((root) => isInside(hop.target, root.real))) {
      return denied(
        `${displayPath(hop.link)} points to ${displayPath(hop.target)}, outside the allowed roots (${this.rootList()}). Links out of the ` +
          'roots are not followed, even when they lead back inside; use a path that does not go through this link.',
      );
    }
    const rule = this.denyRuleFor(hop.target, roots);
    if (rule) return denied(`${displayPath(hop.link)} points to ${displayPath(hop.target)}, which matches the deny rule "${rule}": ${protectedNote}`);
    return undefined;
  }

  private denyRuleFor(candidate: string, roots: Root[]): string | undefined {
    if (this.deny.isEmpty) return undefined;
    // In NFC, as the rules are: an on-disk or agent spelling in another form must match the same rules.
    const nfc = candidate.normalize('NFC');
    const forms = new Set(roots.flatMap((root) => [root.given.normalize('NFC'), root.real.normalize('NFC')]));
    const belowRoots = [...forms].filter((form) => isInside(nfc, form)).map((form) => nodePath.relative(form, nfc));
    return this.deny.match(nfc, belowRoots);
  }

  private rootList(): string {
    return this.configured.map((root) => root.given).join(', ');
  }
}

function componentsOf(path: string): string[] {
  return path.split(nodePath.sep).filter((part) => part !== '');
}

/**
 * The deepest root form containing `named` (compared in NFC, so any spelling of a root's folders is inside it),
 * and the real directory the walk starts from.
 */
function startOf(named: string, roots: Root[]): { from: string; real: string } | undefined {
  const nfc = named.normalize('NFC');
  let best: { from: string; real: string; depth: number } | undefined;
  for (const root of roots) {
    for (const from of [root.given, root.real]) {
      const depth = componentsOf(from).length;
      if (isInside(nfc, from.normalize('NFC')) && (!best || depth > best.depth)) best = { from, real: root.real, depth };
    }
  }
  return best;
}

/** The components of `named` below the root form `from` that contains it, as `named` spells them. */
function below(named: string, from: string): string {
  // Normalization never crosses a separator, so `named` has as many components above the root as `from`.
  return componentsOf(named).slice(componentsOf(from).length).join(nodePath.sep);
}
