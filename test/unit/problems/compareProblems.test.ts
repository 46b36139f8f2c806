/**
 * Problems a change introduced and resolved, mapped through the change's line changes: a problem that only
 * moved is not new, one that was there before is never new, one inside a changed range is matched by what it is
 * within that change's new lines. And the section that says so, within a budget.
 */
import * as assert from 'assert';
import { compareProblems, computeLineChanges, type Problem, problemsSection } from '../../../src/core/index';

const problem = (line: number, message: string, extra: Partial<Problem> = {}): Problem => ({ line, column: 1, severity: 'error', source: 'ts', code: '2322', message, ...extra });
const lines = (count: number, at: (n: number) => string = (n) => `line ${n}`): string => Array.from({ length: count }, (_, i) => at(i + 1)).join('\n') + '\n';
const changesOf = (before: string, after: string) => computeLineChanges(before, after);

suite('problems a change introduced (compareProblems)', () => {
  test('moved lines: an existing problem below inserted lines is found at its new line, not new', () => {
    const before = lines(20);
    const after = before.replace('line 5\n', 'line 5\nnew a\nnew b\n');
    const result = compareProblems([problem(12, 'old error')], [problem(14, 'old error')], changesOf(before, after));
    assert.deepStrictEqual(result, { introduced: [], resolved: [] });
  });

  test('deleted lines above: the problem moves up; the same problem left at its old number would be new and the moved one resolved', () => {
    const before = lines(20);
    const after = before.replace('line 3\nline 4\n', '');
    const changes = changesOf(before, after);
    assert.deepStrictEqual(compareProblems([problem(10, 'x')], [problem(8, 'x')], changes), { introduced: [], resolved: [] });
    assert.deepStrictEqual(compareProblems([problem(10, 'x')], [problem(10, 'x')], changes), { introduced: [problem(10, 'x')], resolved: [problem(10, 'x')] });
  });

  test('a changed line: the same problem anywhere in the change\'s new lines is the old one; a different one is new', () => {
    const before = lines(10);
    const after = before.replace('line 4\n', 'line four\nline four and a half\n');
    const changes = changesOf(before, after);
    assert.deepStrictEqual(compareProblems([problem(4, 'bad type')], [problem(5, 'bad type')], changes), { introduced: [], resolved: [] });
    const changed = compareProblems([problem(4, 'bad type')], [problem(4, 'other type')], changes);
    assert.deepStrictEqual(changed, { introduced: [problem(4, 'other type')], resolved: [problem(4, 'bad type')] });
    // Severity, source and code are part of what a problem is.
    assert.strictEqual(compareProblems([problem(4, 'm')], [problem(4, 'm', { severity: 'warning' })], changes).introduced.length, 1);
    assert.strictEqual(compareProblems([problem(4, 'm')], [problem(4, 'm', { code: '2345' })], changes).introduced.length, 1);
  });

  test('inserted lines: a problem on them is new; a deleted line\'s problem is resolved', () => {
    const before = lines(10);
    const inserted = before.replace('line 2\n', 'line 2\nconst x: number = "s";\n');
    assert.deepStrictEqual(compareProblems([], [problem(3, 'bad')], changesOf(before, inserted)).introduced, [problem(3, 'bad')]);
    const deleted = before.replace('line 7\n', '');
    assert.deepStrictEqual(compareProblems([problem(7, 'gone')], [], changesOf(before, deleted)), { introduced: [], resolved: [problem(7, 'gone')] });
  });

  test('hundreds of existing problems and one new: only the new one; duplicates count one for one', () => {
    const before = lines(400);
    const after = before.replace('line 200\n', 'line 200 changed\n');
    const changes = changesOf(before, after);
    const existing = Array.from({ length: 300 }, (_, i) => problem(i + 1 + (i >= 199 ? 1 : 0), `old ${i}`));
    const result = compareProblems(existing, [...existing, problem(200, 'the new one')], changes);
    assert.deepStrictEqual(result, { introduced: [problem(200, 'the new one')], resolved: [] });
    // Two identical problems on one line before, three after: one is new.
    const twice = compareProblems([problem(2, 'd'), problem(2, 'd')], [problem(2, 'd'), problem(2, 'd'), problem(2, 'd')], []);
    assert.strictEqual(twice.introduced.length, 1);
  });
});

suite('the problems section', () => {
  const changes = [{ oldFrom: 2, oldTo: 3, newFrom: 2, newTo: 3 }];

  test('a new problem with file, line, column, severity, code and message; resolved counted; nearest the change first', () => {
    const text = problemsSection([
      { path: 'src/pricing.ts', status: 'checked', service: 'TypeScript', introduced: [problem(40, 'far away', { column: 3 }), problem(2, "Type 'string' is not assignable to type 'number'.", { column: 7 })], resolved: 1, changes },
    ]);
    assert.strictEqual(
      text,
      [
        'Problems after this change:',
        'src/pricing.ts: 2 new problems (TypeScript checked it); it resolved 1:',
        "  src/pricing.ts:2:7 error TS2322: Type 'string' is not assignable to type 'number'.",
        '  src/pricing.ts:40:3 error TS2322: far away',
      ].join('\n'),
    );
  });

  test('no new problems, no service, a service still checking: said honestly, per file', () => {
    const text = problemsSection([
      { path: 'a.ts', status: 'checked', service: 'TypeScript', introduced: [], resolved: 0, changes },
      { path: 'notes.txt', status: 'unhandled' },
      { path: 'big.ts', status: 'pending', service: 'TypeScript', waitedMs: 2000 },
    ]);
    assert.deepStrictEqual(text.split('\n'), ['Problems after this change:', 'a.ts: no new problems (TypeScript checked it).', 'notes.txt: no language service reports on this file.', 'big.ts: TypeScript was still checking after 2 s; problems not known yet.']);
    assert.strictEqual(problemsSection([]), '');
  });

  test('at most ten listed with a count of the rest; within a budget, problems go before anything else; long messages are one short line', () => {
    const many = Array.from({ length: 14 }, (_, i) => problem(i + 1, `problem ${i + 1}\nsecond line ${'x'.repeat(400)}`, { source: 'json', code: '513' }));
    const text = problemsSection([{ path: 'c.json', status: 'checked', service: 'JSON', introduced: many, resolved: 0, changes }]);
    const listed = text.split('\n').filter((line) => line.startsWith('  c.json:'));
    assert.strictEqual(listed.length, 10);
    assert.match(text, /… and 4 more new problems/);
    assert.ok(listed.every((line) => line.length < 360 && line.includes('json(513): problem') && !line.includes('\n')));
    const small = problemsSection([{ path: 'c.json', status: 'checked', service: 'JSON', introduced: many, resolved: 0, changes }], 700);
    assert.ok(Buffer.byteLength(small) <= 700, `${Buffer.byteLength(small)}`);
    assert.match(small, /c\.json: 14 new problems \(JSON checked it\):/);
    assert.match(small, /… and \d+ more new problems/);
    assert.strictEqual(problemsSection([{ path: 'c.json', status: 'checked', service: 'JSON', introduced: many, resolved: 0, changes }], 20), '');
  });
});
