/**
 * ReadGate's placement of unified diffs against real git: random files and random edits, a diff made by
 * `git diff --no-index -U<n>` (n = 0, 1 or 3), then the file drifts (unrelated lines added, removed or
 * changed elsewhere, blocks duplicated, or nothing), and the diff is applied to the drifted file by
 * `git apply` (with `--unidiff-zero` only where the option is tested) in a temporary repository and planned
 * by `planPatch`. They must agree: the same bytes when git applies, a refusal when git refuses.
 *
 * With `followOffsets: false` (git's own rule for where the search starts) they must agree on every run,
 * except for the deliberate differences of placeHunks.ts, each checked to be the reason:
 * - a hunk without any context line: ReadGate refuses it unless the file is provably the diff's base (its
 *   blob hash is the diff's `index` line), where git applies it if it happens to be anchored at the file's
 *   end or start;
 * - a line marked "\ No newline at end of file": git matches an old one as a prefix of a line that has a line
 *   break, or writes a new one where more lines follow, joining two lines; and lines added after a last line
 *   without a line break are joined to it. ReadGate refuses, or places the hunk at the line that does end
 *   the file.
 * With the default (the search starts at the named line moved by the previous hunk's offset) a run may pick
 * another of several equal places than git does (the files repeat lines, and the drift copies blocks); the
 * test allows that only when both apply, and counts it.
 *
 * Seeded (READGATE_SEED replays a run); READGATE_PROPERTY_RUNS raises the number of runs (default 600).
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parsePatch, planPatch, type PatchOperation, type PlanOptions } from '../../../src/core/index';
import { seeded, type Seeded } from '../helpers/seeded';
import { makeTempDir } from '../helpers/tempDir';
import { applyOperation } from './planResult';

const git = (cwd: string, args: string[], input?: string) => spawnSync('git', args, { cwd, input, encoding: 'utf8' });

function randomText(random: Seeded, words: string[], count: number): string[] {
  return Array.from({ length: count }, () => words[random.between(0, words.length - 1)]);
}

function edited(random: Seeded, lines: string[], run: number): string[] {
  const after = [...lines];
  for (let change = random.between(1, 4); change > 0; change--) {
    const at = random.between(0, after.length);
    const kind = random.between(0, 2);
    if (kind === 0) after.splice(at, 0, ...Array.from({ length: random.between(1, 2) }, (_, i) => `new ${run}.${change}.${i}`));
    else if (kind === 1 && after.length > 1) after.splice(Math.min(at, after.length - 1), random.between(1, 2));
    else after[Math.min(at, after.length - 1)] = `changed ${run}.${change}`;
  }
  return after;
}

/** Unrelated changes made to the file after the diff was made (lines added, removed, changed, a block copied), or none. */
function drifted(random: Seeded, lines: string[], run: number): string[] {
  const result = [...lines];
  if (random.between(0, 3) === 0) return result;
  for (let change = random.between(1, 3); change > 0; change--) {
    const kind = random.between(0, 3);
    const at = random.between(0, result.length);
    if (kind === 0) result.splice(at, 0, ...Array.from({ length: random.between(1, 3) }, (_, i) => `drift ${run}.${change}.${i}`));
    else if (kind === 1 && result.length > 2) result.splice(Math.min(at, result.length - 1), 1);
    else if (kind === 2 && result.length > 0) result[Math.min(at, result.length - 1)] = `drifted ${run}.${change}`;
    else if (result.length > 0) {
      const from = random.between(0, result.length - 1);
      const block = result.slice(from, from + random.between(1, 4));
      result.splice(random.between(0, result.length), 0, ...block);
    }
  }
  return result;
}

type Outcome = { applied: true; text: string } | { applied: false; reason: string };

function planned(patch: string, current: string, options: PlanOptions): Outcome {
  const parsed = parsePatch(patch);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
  const plan = planPatch(parsed.files, (file) => (file === 'f.txt' ? { exists: true, text: current, bytes: Buffer.from(current, 'utf8') } : { exists: false }), options);
  if (!plan.ok) return { applied: false, reason: `${plan.code}: ${plan.message}` };
  let text = current;
  for (const operation of plan.operations as PatchOperation[]) text = applyOperation(text, operation);
  return { applied: true, text };
}

/** A single hunk starting at old line 1 (or 0) whose old lines are exactly `current`: the whole file. */
function oneHunkIsWholeFile(patch: string, current: string): boolean {
  const parsed = parsePatch(patch);
  if (!parsed.ok || parsed.files.length !== 1) return false;
  const file = parsed.files[0];
  const hunks = file.kind === 'modify' && file.changes.format === 'unified' ? file.changes.hunks : [];
  if (hunks.length !== 1 || hunks[0].oldStart > 1) return false;
  const old = hunks[0].lines.filter((line) => line.kind !== 'add').map((line) => line.text.replace(/\n$/, ''));
  const lines = current.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return JSON.stringify(old) === JSON.stringify(lines);
}

function gitApplied(repo: string, patch: string, current: string, unidiffZero: boolean): Outcome {
  fs.writeFileSync(path.join(repo, 'f.txt'), current);
  fs.writeFileSync(path.join(repo, 'p.diff'), patch);
  const result = git(repo, ['apply', ...(unidiffZero ? ['--unidiff-zero'] : []), 'p.diff']);
  if (result.status !== 0) return { applied: false, reason: result.stderr };
  return { applied: true, text: fs.readFileSync(path.join(repo, 'f.txt'), 'utf8') };
}

/**
 * The diff marks a line "\ No newline at end of file": git may match an old such line as a prefix of a line
 * that has a line break (in a file that grew, or under --unidiff-zero even in the diff's own base), or write a new such line where more lines follow, joining two
 * lines into one (apply.c compares and copies the hunk's bytes, not its lines). ReadGate refuses or finds the
 * line that does end the file.
 */
function joinsLines(patch: string, ours: Outcome): boolean {
  if (!ours.applied && /without a line break in the middle/.test(ours.reason)) return true;
  return patch.includes('\n\\ No newline at end of file');
}

const same = (a: Outcome, b: Outcome): boolean => a.applied === b.applied && (!a.applied || a.text === (b as { text: string }).text);

suite('unified diffs against git apply: seeded property', () => {
  test('planPatch agrees with git apply on random diffs of random files applied to drifted versions', function () {
    this.timeout(600_000);
    const random = seeded();
    const runs = Number(process.env.READGATE_PROPERTY_RUNS ?? 600);
    console.log(`      git apply property ${random.note}, ${runs} runs`);
    const work = makeTempDir();
    const repo = path.join(work, 'repo');
    fs.mkdirSync(path.join(work, 'a'));
    fs.mkdirSync(path.join(work, 'b'));
    fs.mkdirSync(repo);
    git(repo, ['init', '-q']);
    const words = ['a', 'b', 'c', '{', '}', '', 'return x;', '  return x;'];
    const counts = { runs: 0, gitApplied: 0, gitRefused: 0, contextFree: 0, noNewlineJoin: 0, offsetChoice: 0, unidiffZeroRuns: 0 };
    for (let run = 0; run < runs; run++) {
      const before = randomText(random, words, random.between(1, 30));
      const after = edited(random, before, run);
      const finalBreak = random.between(0, 4) > 0;
      const oldText = before.join('\n') + (finalBreak ? '\n' : '');
      const newText = after.join('\n') + (finalBreak || random.between(0, 1) === 0 ? '\n' : '');
      if (oldText === newText) continue;
      fs.writeFileSync(path.join(work, 'a', 'f.txt'), oldText);
      fs.writeFileSync(path.join(work, 'b', 'f.txt'), newText);
      const context = [0, 1, 3][random.between(0, 2)];
      const patch = git(work, ['diff', '--no-index', '--no-prefix', `-U${context}`, 'a/f.txt', 'b/f.txt']).stdout;
      const drift = drifted(random, before, run);
      const current = drift.length === 0 ? '' : drift.join('\n') + (finalBreak ? '\n' : '');
      const where = `${random.note}, run ${run}, -U${context}\n--- the diff's base ---\n${JSON.stringify(oldText)}\n--- the file ---\n${JSON.stringify(current)}\n--- the patch ---\n${patch}`;
      counts.runs++;

      if (context === 0) {
        // With the option, git --unidiff-zero's rules exactly.
        counts.unidiffZeroRuns++;
        const theirs = gitApplied(repo, patch, current, true);
        const ours = planned(patch, current, { unidiffZero: true });
        if (!same(ours, theirs) && theirs.applied && joinsLines(patch, ours)) counts.noNewlineJoin++;
        else assert.ok(same(ours, theirs), `${where}\n--- git --unidiff-zero ---\n${JSON.stringify(theirs)}\n--- ReadGate ---\n${JSON.stringify(ours)}`);
        // Without it, only a file that is the diff's base (by its blob hash) is patched, as git --unidiff-zero does.
        const strict = planned(patch, current, {});
        if (current === oldText) assert.deepStrictEqual([ours, strict], [{ applied: true, text: newText }, { applied: true, text: newText }], `${where}\nthe diff does not turn its own base into its target`);
        if (current === oldText) assert.ok(same(strict, theirs) || (theirs.applied && joinsLines(patch, strict)), `${where}\nthe base itself: ${JSON.stringify(strict)} vs ${JSON.stringify(theirs)}`);
        else if (strict.applied) {
          // The one exception placeHunks.ts names: a hunk at line 1 without context whose old lines are the whole
          // file is placed by its content (anchored at both ends), exactly as git apply places it.
          assert.ok(oneHunkIsWholeFile(patch, current), `${where}\na drifted file was patched by line numbers: ${JSON.stringify(strict)}`);
          assert.ok(same(strict, gitApplied(repo, patch, current, false)), `${where}\nthe whole-file hunk placed unlike git apply: ${JSON.stringify(strict)}`);
        } else assert.match(strict.reason, /no context lines/, where);
        continue;
      }

      const theirs = gitApplied(repo, patch, current, false);
      if (theirs.applied) counts.gitApplied++;
      else counts.gitRefused++;
      const gitRule = planned(patch, current, { followOffsets: false });
      // Whatever git does, a diff applied to its own base gives its target.
      if (current === oldText) assert.deepStrictEqual([gitRule, planned(patch, current, {})], [{ applied: true, text: newText }, { applied: true, text: newText }], `${where}\nthe diff does not turn its own base into its target`);
      if (!same(gitRule, theirs)) {
        const reason = gitRule.applied ? '' : gitRule.reason;
        if (theirs.applied && /no context lines/.test(reason) && current !== oldText) counts.contextFree++;
        else if (theirs.applied && joinsLines(patch, gitRule)) counts.noNewlineJoin++;
        else assert.fail(`${where}\n--- git apply ---\n${JSON.stringify(theirs)}\n--- ReadGate (git's search start) ---\n${JSON.stringify(gitRule)}`);
        continue;
      }
      const offsets = planned(patch, current, {});
      if (!same(offsets, gitRule)) {
        assert.ok(offsets.applied && gitRule.applied, `${where}\nfollowing offsets changed whether the patch applies:\n${JSON.stringify(offsets)}\nvs git's rule\n${JSON.stringify(gitRule)}`);
        counts.offsetChoice++;
      }
    }
    console.log(`      ${JSON.stringify(counts)}`);
  });
});
