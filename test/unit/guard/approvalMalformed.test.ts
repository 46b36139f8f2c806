/**
 * An approver that answers malformed data fails closed: anything but a boolean `approved: true` (a string
 * 'false' or 'true', a 1, null, undefined, a bare string, an empty object) is REJECTED_BY_USER saying the
 * approver answered malformed data, never an applied change, and never a misleading "check the file's
 * permissions". The file is left as it was.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { ApprovalDecision } from '../../../src/core/index';
import { ok, put, refused } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';

const malformed: [string, unknown][] = [
  ["{ approved: 'false' }", { approved: 'false' }],
  ['{ approved: 1 }', { approved: 1 }],
  ["{ approved: 'true' }", { approved: 'true' }],
  ['null', null],
  ['undefined', undefined],
  ["'yes'", 'yes'],
  ['{}', {}],
];

suite('guard approval: malformed decisions fail closed', () => {
  for (const [label, answer] of malformed) {
    test(`an approver answering ${label} is REJECTED_BY_USER (malformed), file unchanged`, async () => {
      const root = makeTempDir('readgate-approval-');
      const file = put(path.join(root, 'a.txt'), 'one\ntwo\n');
      const session = createGuard({ roots: [root], approve: async () => answer as ApprovalDecision }).session('malformed');
      ok(await session.read('a.txt'));
      const message = refused(await session.edit('a.txt', [{ oldString: 'two', newString: 'TWO' }]), 'REJECTED_BY_USER', 'malformed');
      assert.ok(!message.includes('permissions'), `the message blames permissions:\n${message}`);
      assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\ntwo\n');
      assert.deepStrictEqual(fs.readdirSync(root), ['a.txt']);
    });
  }
});
