/**
 * Every step of the write path against every fault, deterministically: each system call an edit, a create, a
 * write or a multiEdit makes is replayed with an errno (ENOSPC, EIO, EACCES), a short or empty write, or a crash
 * at that call (nothing after it runs, not even cleanup). Afterwards the whole tree is compared byte for byte:
 * a successful call left exactly the new tree, a refused one exactly the old tree (no temp file, no folder), and
 * a crash left each file old or new, never a mix.
 */
import * as assert from 'assert';
import * as path from 'path';
import type { Call, Fault } from '../helpers/faultySyscalls';
import { isTemp, treeOf, withoutTemps } from '../helpers/tree';
import { prepare, reference, scenarios } from '../helpers/writeScenarios';

const describeCall = (call: Call): string => `${call.name}#${call.index}${call.path ? ` ${path.basename(call.path)}` : ''}`;

/** Calls whose failure must fail the call: the new content would not be complete, synced and in place otherwise. */
function mustFail(call: Call): boolean {
  if (['writeSync', 'fsyncSync', 'fchmodSync', 'renameSync', 'linkSync'].includes(call.name)) return true;
  return call.name === 'openSync' && call.path !== undefined && isTemp(call.path);
}

const FAULTS: { label: string; fault: Fault; only?: Call['name'] }[] = [
  { label: 'ENOSPC', fault: { kind: 'errno', code: 'ENOSPC' } },
  { label: 'EIO', fault: { kind: 'errno', code: 'EIO' } },
  { label: 'EACCES', fault: { kind: 'errno', code: 'EACCES' } },
  { label: 'short write', fault: { kind: 'short' }, only: 'writeSync' },
  { label: 'empty write', fault: { kind: 'zero' }, only: 'writeSync' },
];

suite('write path: every step against every fault (fault-injecting FileSystem port)', () => {
  for (const scenario of scenarios) {
    test(`${scenario.name}: an errno or short write at any call leaves the old tree (refused) or the new one (ok), never anything else`, async () => {
      const { calls, after } = await reference(scenario);
      if (scenario.name !== 'delete') assert.ok(calls.some((c) => c.name === 'fsyncSync'), 'the write path syncs the new content');
      let tried = 0;
      for (const call of calls) {
        for (const { label, fault, only } of FAULTS) {
          if (only && call.name !== only) continue;
          const { root, session, control, before } = await prepare(scenario);
          control.arm((c) => (c.index === call.index ? fault : undefined));
          const result = await scenario.run(session);
          control.disarm();
          tried++;
          const where = `${scenario.name}, ${label} at ${describeCall(call)}: ${JSON.stringify(result).slice(0, 400)}`;
          const tree = treeOf(root);
          // The one tolerated leftover: the temp name of a created file whose removal after link() failed.
          const tolerated = call.name === 'unlinkSync' && call.path !== undefined && isTemp(call.path) ? withoutTemps(tree) : tree;
          if (result.ok) {
            assert.ok(!mustFail(call), `reported success although ${describeCall(call)} failed: ${where}`);
            assert.deepStrictEqual(tolerated, after, `ok but not the new tree: ${where}`);
          } else {
            assert.deepStrictEqual(tree, before, `refused but the tree changed: ${where}`);
            if (result.code === 'WRITE_FAILED') assert.ok(result.message.includes('Nothing was changed'), where);
            if (mustFail(call) && fault.kind === 'errno') assert.strictEqual(result.code, 'WRITE_FAILED', where);
          }
        }
      }
      assert.ok(tried > 20, `only ${tried} faults tried`);
    });

    test(`${scenario.name}: a crash at any call leaves every file old or new, never torn`, async () => {
      const { calls, after } = await reference(scenario);
      for (const call of calls) {
        const { root, session, control, before } = await prepare(scenario);
        control.arm((c) => (c.index === call.index ? { kind: 'crash' } : undefined));
        await scenario.run(session);
        control.disarm();
        assert.ok(control.crashed(), `no crash at ${describeCall(call)}`);
        const tree = treeOf(root);
        for (const file of scenario.files) {
          const now = tree.get(file);
          const allowed = [before.get(file), after.get(file)];
          assert.ok(allowed.some((a) => a === now), `${scenario.name}, crash at ${describeCall(call)}: ${file} is ${JSON.stringify(now)}, neither old nor new`);
        }
        // Apart from leftover temp files (whose name says what they are), nothing else changed.
        for (const [name, content] of withoutTemps(tree)) {
          if (scenario.files.includes(name)) continue;
          if (before.has(name)) assert.strictEqual(content, before.get(name), `${name} changed by a crash at ${describeCall(call)}`);
          else assert.ok(after.has(name), `${name} appeared after a crash at ${describeCall(call)}`);
        }
      }
    });
  }
});
