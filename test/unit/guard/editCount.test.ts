/**
 * How many edits one call may carry. Each edit applies to the result of the previous one, so a call's cost
 * grows with its edit count; a call with tens of thousands of edits took minutes before the cap. The cap is
 * checked with the arguments, before any file is touched, and a refusal names it so the agent can split.
 */
import * as assert from 'assert';
import type { Edit } from '../../../src/core/index';
import { MAX_EDITS_PER_CALL } from '../../../src/core/index';
import { fixture } from '../helpers/guardFixture';
import { ok, refused } from '../helpers/results';

/** A file with `count` lines, each holding a distinct token, and the edits that replace tokens from..to-1. */
function tokens(count: number): string {
  return Array.from({ length: count }, (_, i) => `token_${i}_end;`).join('\n') + '\n';
}
function renames(from: number, to: number): Edit[] {
  return Array.from({ length: to - from }, (_, k) => ({ oldString: `token_${from + k}_end`, newString: `TOKEN_${from + k}_END` }));
}

suite('guard: edits per call', () => {
  test('an edit call with more edits than the cap is INVALID_INPUT naming the cap, and reads no file', async () => {
    const f = fixture({ approve: async () => assert.fail('asked for approval') });
    const file = f.file('a.txt', tokens(1500));
    ok(await f.session.read(file));
    const message = refused(await f.session.edit(file, renames(0, 1500)), 'INVALID_INPUT', '1,500 edits', 'at most 1,000 edits', 'Split');
    assert.ok(message.startsWith('edits '), message);
    // Checked with the arguments: a path that does not exist is not even looked at.
    refused(await f.session.edit('missing.txt', renames(0, 1001)), 'INVALID_INPUT', '1,001 edits');
    assert.strictEqual(f.text('a.txt'), tokens(1500));
  });

  test('an edit call with exactly the cap applies every edit', async () => {
    const f = fixture();
    const file = f.file('a.txt', tokens(MAX_EDITS_PER_CALL));
    ok(await f.session.read(file));
    ok(await f.session.edit(file, renames(0, MAX_EDITS_PER_CALL)));
    assert.strictEqual(f.text('a.txt'), tokens(MAX_EDITS_PER_CALL).replace(/token_(\d+)_end/g, 'TOKEN_$1_END'));
  });

  test('a multiEdit over the cap in total, though each file is under it, is INVALID_INPUT naming the total', async () => {
    const f = fixture({ approve: async () => assert.fail('asked for approval') });
    const a = f.file('a.txt', tokens(600));
    const b = f.file('b.txt', tokens(600));
    ok(await f.session.read(a));
    ok(await f.session.read(b));
    refused(await f.session.multiEdit([{ path: a, edits: renames(0, 600) }, { path: b, edits: renames(0, 600) }]), 'INVALID_INPUT', '1,200 edits', 'at most 1,000 edits');
    assert.strictEqual(f.text('a.txt'), tokens(600));
    assert.strictEqual(f.text('b.txt'), tokens(600));
  });

  test('a multiEdit naming one file twice applies both lists in order', async () => {
    const f = fixture();
    const file = f.file('a.txt', tokens(1000));
    ok(await f.session.read(file));
    ok(await f.session.multiEdit([{ path: file, edits: renames(0, 500) }, { path: 'a.txt', edits: [...renames(500, 999), { oldString: 'TOKEN_0_END', newString: 'first' }] }]));
    assert.strictEqual(f.text('a.txt'), tokens(1000).replace(/token_(\d+)_end/g, (all, n) => (n === '999' ? all : n === '0' ? 'first' : `TOKEN_${n}_END`)));
  });

  // One file named twice used to merge its lists with push(...edits): with enough edits the spread overflowed
  // the stack, a RangeError that came back as PRIOR_READ_VERIFICATION_FAILED ("could not check the file").
  test('a multiEdit naming one file twice with more edits than a spread can take is the cap refusal, as a value', async () => {
    const f = fixture({ approve: async () => assert.fail('asked for approval') });
    const file = f.file('a.txt', 'token_0_end;\n');
    ok(await f.session.read(file));
    const many: Edit[] = new Array(300_000).fill({ oldString: 'token_0_end', newString: 'x' });
    refused(await f.session.multiEdit([{ path: file, edits: many }, { path: file, edits: many }]), 'INVALID_INPUT', '600,000 edits', 'at most 1,000 edits');
    assert.strictEqual(f.text('a.txt'), 'token_0_end;\n');
  });
});
