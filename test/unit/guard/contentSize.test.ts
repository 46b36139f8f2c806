/**
 * `limits.maxFileBytes` bounds what the guard writes, not only what it finds. It was checked against the file
 * on disk only, so a new file (write, or edit and multiEdit with an empty oldString) of any size was created,
 * and an existing small file could be written over with content far above the limit.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { fixture } from '../helpers/guardFixture';
import { ok, refused } from '../helpers/results';

const LIMIT = 1000;
const big = 'x'.repeat(LIMIT) + '\n';

suite('content above maxFileBytes', () => {
  test('a new file is refused with FILE_TOO_LARGE saying the size, the limit and that nothing was written: write, edit and multiEdit', async () => {
    const f = fixture({ limits: { maxFileBytes: LIMIT } });
    const calls = [
      f.session.write('w.txt', big),
      f.session.edit('e.txt', [{ oldString: '', newString: big }]),
      // The created text grows past the limit only through a later edit of the same call.
      f.session.edit('g.txt', [{ oldString: '', newString: 'x\n' }, { oldString: 'x', newString: big.trim() }]),
      f.session.multiEdit([{ path: 'small.txt', edits: [{ oldString: '', newString: 'fine\n' }] }, { path: 'm.txt', edits: [{ oldString: '', newString: big }] }]),
    ];
    for (const result of await Promise.all(calls)) refused(result, 'FILE_TOO_LARGE', '1,001 bytes', '1,000-byte limit', 'Nothing was written');
    assert.deepStrictEqual(fs.readdirSync(f.root), [], 'a file was created');
  });

  test('an existing file is not written over, or edited, to a size above the limit', async () => {
    const f = fixture({ limits: { maxFileBytes: LIMIT } });
    f.file('a.txt', 'short\n');
    ok(await f.session.read('a.txt'));
    refused(await f.session.write('a.txt', big), 'FILE_TOO_LARGE', '1,001 bytes');
    refused(await f.session.edit('a.txt', [{ oldString: 'short', newString: big.trim() }]), 'FILE_TOO_LARGE', '1,001 bytes');
    assert.strictEqual(f.text('a.txt'), 'short\n');
  });

  test('content of exactly the limit is written', async () => {
    const f = fixture({ limits: { maxFileBytes: LIMIT } });
    ok(await f.session.write('exact.txt', big.slice(1)));
    assert.strictEqual(fs.statSync(path.join(f.root, 'exact.txt')).size, LIMIT);
  });
});
