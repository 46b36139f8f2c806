/**
 * Every step of the write path against every competitor, deterministically: another writer appends to the file,
 * replaces it atomically, deletes it, makes it read-only, or swaps its folder for a link to outside the roots,
 * right before each system call of an edit, a create, a write or a multiEdit. Whatever the step, nothing the
 * competitor wrote is lost, nothing is written outside the roots, and a refused call changed nothing.
 *
 * The one step where a competitor still wins is documented in docs/guarantees.md and pinned here: a replacement or
 * deletion of the file by name landing between the final synchronous check and rename() itself (for a deletion
 * or a move, unlink() itself).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { MutationResult } from '../../../src/core/index';
import type { Call } from '../helpers/faultySyscalls';
import { makeTempDir } from '../helpers/tempDir';
import { type Tree, bytesOf, isTemp, treeOf, withoutTemps } from '../helpers/tree';
import { type Scenario, prepare, reference, scenarios } from '../helpers/writeScenarios';

interface Competitor {
  name: string;
  /** Acts on `file` (absolute) in `root`; false when it could not act at this moment (e.g. the folder is not there yet). */
  act(file: string): boolean;
  check(facts: Facts): void;
}

interface Facts {
  scenario: Scenario;
  call: Call;
  result: MutationResult;
  file: string;
  before: Tree;
  after: Tree;
  tree: Tree;
  where: string;
}

const EXTERNAL = 'external line\n';
const THEIRS = 'their own save\n';

function attempt(action: () => void): boolean {
  try {
    action();
    return true;
  } catch {
    return false;
  }
}

/**
 * The documented window: the file replaced or deleted by name after the last check, before rename() itself, or
 * (a deletion, a move's old name) before unlink() itself.
 */
function inWindow(call: Call, file: string): boolean {
  if (call.name === 'unlinkSync' && call.path !== undefined && path.basename(call.path) === path.basename(file)) return true;
  return call.name === 'renameSync' && call.path !== undefined && isTemp(call.path) && path.basename(call.path).startsWith(`.${path.basename(file)}.readgate-`);
}

/** Every other file of the scenario is consistently old (refused) or new (ok). */
function othersConsistent({ scenario, result, file, before, after, tree, where }: Facts): void {
  for (const other of scenario.files) {
    if (other === file) continue;
    assert.strictEqual(tree.get(other), (result.ok ? after : before).get(other), `${other}: ${where}`);
  }
}

const competitors: Competitor[] = [
  {
    name: 'an append',
    act: (file) => attempt(() => fs.appendFileSync(file, EXTERNAL, { flag: 'a' })),
    check(facts) {
      const { result, file, before, after, tree, where } = facts;
      const now = bytesOf(tree, file)?.toString('latin1') ?? '';
      assert.ok(now.endsWith(EXTERNAL), `the appended line was lost: ${where}`);
      const prefix = now.slice(0, -EXTERNAL.length);
      const expected = (result.ok ? bytesOf(after, file) : bytesOf(before, file))?.toString('latin1') ?? '';
      assert.strictEqual(prefix, expected, `${result.ok ? 'ok' : 'refused'}, but the rest is not the ${result.ok ? 'new' : 'old'} content: ${where}`);
      othersConsistent(facts);
    },
  },
  {
    name: 'an atomic replacement',
    act: (file) =>
      attempt(() => {
        const temp = `${file}.theirs`;
        fs.writeFileSync(temp, THEIRS);
        fs.renameSync(temp, file);
      }),
    check(facts) {
      const { call, result, file, after, tree, where } = facts;
      const now = bytesOf(tree, file)?.toString() ?? '';
      if (result.ok && inWindow(call, file)) {
        assert.strictEqual(tree.get(file), after.get(file), where);
        return;
      }
      assert.strictEqual(now, THEIRS, `their save was lost: ${where}`);
      if (!result.ok) othersConsistent(facts);
    },
  },
  {
    name: 'a deletion',
    act: (file) => attempt(() => fs.unlinkSync(file)),
    check(facts) {
      const { call, result, file, after, tree, where } = facts;
      if (result.ok && inWindow(call, file)) {
        assert.strictEqual(tree.get(file), after.get(file), where);
        return;
      }
      assert.ok(!tree.has(file), `a deleted file was re-created: ${where}`);
      if (!result.ok) othersConsistent(facts);
    },
  },
  {
    name: 'a chmod to read-only',
    act: (file) => attempt(() => fs.chmodSync(file, 0o444)),
    check(facts) {
      const { result, file, before, after, tree, where } = facts;
      const content = (t: Tree) => bytesOf(t, file)?.toString('base64');
      assert.strictEqual(content(tree), content(result.ok ? after : before), where);
      if (!result.ok) {
        assert.ok(['WRITE_FAILED', 'FILE_CHANGED_SINCE_READ'].includes(result.code), where);
        othersConsistent(facts);
      }
    },
  },
];

/** The tree with the swap undone, without temp files and empty folders a swapped-away folder kept. */
function unswapped(root: string): Tree {
  const sub = path.join(root, 'sub');
  if (fs.existsSync(`${sub}.old`)) {
    fs.unlinkSync(sub);
    fs.renameSync(`${sub}.old`, sub);
  }
  const tree = withoutTemps(treeOf(root));
  const nonEmpty = new Set([...tree.keys()].map((name) => path.dirname(name)));
  return new Map([...tree].filter(([name, kind]) => kind !== 'dir' || [...nonEmpty].some((d) => d === name || d.startsWith(`${name}/`))));
}

suite('write path: every step against a competing writer', () => {
  for (const scenario of scenarios) {
    const file = scenario.files[0];
    for (const competitor of competitors) {
      test(`${scenario.name}: ${competitor.name} of ${file} before any system call loses nothing`, async () => {
        const { calls, after } = await reference(scenario);
        let acted = 0;
        for (const call of calls) {
          const { root, session, control, before } = await prepare(scenario);
          let happened = false;
          control.arm((c) => (c.index === call.index ? { kind: 'race', run: () => (happened = competitor.act(path.join(root, file))) } : undefined));
          const result = await scenario.run(session);
          control.disarm();
          if (!happened) continue;
          acted++;
          const tree = treeOf(root);
          const where = `${scenario.name}, ${competitor.name} before ${call.name}#${call.index} ${call.path ? path.basename(call.path) : ''}: ${JSON.stringify(result).slice(0, 300)}`;
          competitor.check({ scenario, call, result, file, before, after, tree, where });
          assert.ok(![...tree.keys()].some((name) => isTemp(name)), `a temp file was left: ${where}`);
        }
        assert.ok(acted > 0, 'the competitor never acted');
      });
    }

    test(`${scenario.name}: a folder swapped for a link to outside the roots before any system call never writes outside`, async () => {
      const { calls, after } = await reference(scenario);
      for (const call of calls) {
        const { root, session, control, before } = await prepare(scenario);
        const outside = makeTempDir('readgate-outside-');
        fs.writeFileSync(path.join(outside, 'a.txt'), 'decoy\n');
        const outsideBefore = treeOf(outside);
        control.arm((c) =>
          c.index === call.index
            ? {
                kind: 'race',
                run: () => {
                  fs.renameSync(path.join(root, 'sub'), path.join(root, 'sub.old'));
                  fs.symlinkSync(outside, path.join(root, 'sub'));
                },
              }
            : undefined,
        );
        const result = await scenario.run(session);
        control.disarm();
        const where = `${scenario.name}, swap before ${call.name}#${call.index}: ${JSON.stringify(result).slice(0, 300)}`;
        assert.deepStrictEqual(withoutTemps(treeOf(outside)), outsideBefore, `written outside the roots: ${where}`);
        const strip = (t: Tree) => new Map([...withoutTemps(t)].filter(([, kind]) => kind !== 'dir'));
        const now = strip(unswapped(root));
        const expected = strip(result.ok ? after : before);
        // A file the call wrote in the swapped folder before it failed cannot be reached to undo it: the refusal
        // must name it as left with the call's change, and it must hold exactly that.
        if (!result.ok) {
          for (const name of scenario.files) {
            if (now.get(name) === expected.get(name)) continue;
            assert.ok(result.message.includes(path.join(root, name)) && /could not be reached safely because a folder on the way was replaced/.test(result.message), `${name} changed but the refusal does not say so: ${where}`);
            assert.strictEqual(now.get(name), strip(after).get(name), where);
            if (now.has(name)) expected.set(name, now.get(name)!);
            else expected.delete(name);
          }
        }
        assert.deepStrictEqual(now, expected, where);
      }
    });
  }
});
