import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { type ApprovalDecision, type ApprovalRequest, type ChangedFile, type ChangeRecord, createGuard, createHistory, createNodeFileSystem } from '../../../src/core/index';
import type { ConflictInput } from '../../../src/vscode/approval/conflictModel';
import { fileChain, revertFileOfSession } from '../../../src/vscode/history/fileRevert';
import { makeTempDir } from '../helpers/tempDir';

const lines = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

function changed(path: string, kind: ChangedFile['kind'], from?: string): ChangedFile {
  return { path, kind, before: 'b'.repeat(64), after: 'a'.repeat(64), hunks: [], ...(from ? { from } : {}) };
}
const record = (id: string, files: ChangedFile[]): ChangeRecord => ({ id, time: 0, sessionId: 's', label: 'L', surface: 'api', tool: 'edit', approvedBy: 'policy', files });

suite('revert a file to before a session (the adapter’s plan through the guard)', () => {
  test('the chain holds the session’s changes to the file, oldest first, each with only that file, through its moves', () => {
    const newestFirst = [
      record('r4', [changed('/w/b.ts', 'edit'), changed('/w/other.ts', 'edit')]),
      record('r3', [changed('/w/b.ts', 'rename', '/w/a.ts')]),
      record('r2', [changed('/w/other.ts', 'edit')]),
      record('r1', [changed('/w/a.ts', 'edit'), changed('/w/c.ts', 'edit')]),
    ];
    assert.deepStrictEqual(fileChain(newestFirst, '/w/b.ts').map(({ record: r, files }) => [r.id, files.map((f) => f.path)]), [
      ['r1', ['/w/a.ts']],
      ['r3', ['/w/b.ts']],
      ['r4', ['/w/b.ts']],
    ]);
    assert.deepStrictEqual(fileChain(newestFirst, '/w/none.ts'), []);
  });

  /** A guard with its history in a temp folder, an approver that records requests, and the reviews side channel. */
  function setUp(approve: (request: ApprovalRequest) => ApprovalDecision = () => ({ approved: true })) {
    const root = makeTempDir('readgate-file-revert-');
    const store = createHistory({ dir: path.join(makeTempDir('readgate-file-revert-history-'), 'history') });
    const requests: ApprovalRequest[] = [];
    const guard = createGuard({ roots: [root], historyStore: store, approve: async (request) => (requests.push(request), approve(request)) });
    const expected: { sessionId: string; conflicts: ConflictInput[] }[] = [];
    const reviews = { expectRevert: (sessionId: string, conflicts: ConflictInput[]) => (expected.push({ sessionId, conflicts }), { dispose() {} }) };
    const deps = { guard, store, files: createNodeFileSystem(), reviews, sessionPrefix: 'palette:revert:' };
    const file = (name: string, content: string): string => {
      const full = path.join(root, name);
      fs.writeFileSync(full, content);
      return full;
    };
    return { guard, deps, requests, expected, file };
  }

  test('undoes the session’s changes to that file only; its other file and other sessions’ changes stay', async () => {
    const { guard, deps, requests, expected, file } = setUp();
    const a = file('a.txt', lines(6));
    const b = file('b.txt', lines(4));
    const agent = guard.session('agent');
    await agent.read(a);
    await agent.read(b);
    assert.strictEqual((await agent.edit(a, [{ oldString: 'line 1\n', newString: 'one\n' }])).ok, true);
    assert.strictEqual((await agent.multiEdit([{ path: a, edits: [{ oldString: 'line 5\n', newString: 'five\n' }] }, { path: b, edits: [{ oldString: 'line 2\n', newString: 'two\n' }] }])).ok, true);
    const other = guard.session('other');
    await other.read(a);
    assert.strictEqual((await other.edit(a, [{ oldString: 'line 3\n', newString: 'THREE\n' }])).ok, true);
    const result = await revertFileOfSession(deps, 'agent', a, { explanation: 'Revert a.txt' });
    assert.strictEqual(result.ok, true, result.ok ? '' : result.message);
    assert.strictEqual(fs.readFileSync(a, 'utf8'), lines(6).replace('line 3\n', 'THREE\n'));
    assert.strictEqual(fs.readFileSync(b, 'utf8'), lines(4).replace('line 2\n', 'two\n'));
    const review = requests.at(-1)!;
    assert.ok(review.sessionId.startsWith('palette:revert:'), 'a session of the user’s own');
    assert.deepStrictEqual(review.files.map((f) => f.path), [a]);
    assert.deepStrictEqual(expected.map((e) => [e.sessionId, e.conflicts]), [[review.sessionId, []]]);
    assert.strictEqual(guard.hasSession(review.sessionId), false, 'the revert session is dropped');
    const [newest] = await guard.history();
    assert.deepStrictEqual([newest.surface, newest.label, newest.explanation], ['palette', 'Revert', 'Revert a.txt']);
  });

  test('lines changed since are a conflict shown to the review with both sides; the merged parts are written on approval', async () => {
    const { guard, deps, expected, file } = setUp();
    const a = file('a.txt', lines(10));
    const agent = guard.session('agent');
    await agent.read(a);
    assert.strictEqual((await agent.edit(a, [{ oldString: 'line 2\n', newString: 'agent two\n' }, { oldString: 'line 9\n', newString: 'agent nine\n' }])).ok, true);
    const other = guard.session('other');
    await other.read(a);
    assert.strictEqual((await other.edit(a, [{ oldString: 'agent two\n', newString: 'other two\n' }])).ok, true);
    const result = await revertFileOfSession(deps, 'agent', a, { explanation: 'Revert a.txt' });
    assert.strictEqual(result.ok, true, result.ok ? '' : result.message);
    assert.deepStrictEqual(expected[0].conflicts, [{ reason: 'lines', path: a, ranges: [{ start: 2, end: 2, current: 'other two\n', wanted: 'line 2\n' }] }]);
    assert.strictEqual(fs.readFileSync(a, 'utf8'), lines(10).replace('line 2\n', 'other two\n'));
  });

  test('a file changed between the plan and the write is refused as stale, and nothing is written', async () => {
    let a = '';
    const { guard, deps, file } = setUp((request) => {
      if (request.sessionId.startsWith('palette:revert:')) fs.writeFileSync(a, 'changed during review\n');
      return { approved: true };
    });
    a = file('a.txt', lines(3));
    const agent = guard.session('agent');
    await agent.read(a);
    assert.strictEqual((await agent.edit(a, [{ oldString: 'line 1\n', newString: 'one\n' }], {})).ok, true);
    const result = await revertFileOfSession(deps, 'agent', a, { explanation: 'Revert a.txt' });
    assert.strictEqual(result.ok, false);
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'changed during review\n');
  });

  test('a file the session created is deleted again; a file with no change on record writes nothing and says why', async () => {
    const { guard, deps, file } = setUp();
    const created = path.join(path.dirname(file('seed.txt', '')), 'new.txt');
    const agent = guard.session('agent');
    assert.strictEqual((await agent.write(created, 'fresh\n')).ok, true);
    const result = await revertFileOfSession(deps, 'agent', created, { explanation: 'Revert new.txt' });
    assert.strictEqual(result.ok, true, result.ok ? '' : result.message);
    assert.strictEqual(fs.existsSync(created), false);
    const none = await revertFileOfSession(deps, 'agent', path.join(path.dirname(created), 'seed.txt'), { explanation: 'x' });
    assert.strictEqual(none.ok, false);
    assert.match(none.ok ? '' : none.message, /No change of .*seed\.txt by session agent is on record/);
  });
});
