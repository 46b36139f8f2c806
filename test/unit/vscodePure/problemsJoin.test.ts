import * as assert from 'assert';
import type { ChangedFile, ChangeRecord } from '../../../src/core/index';
import { agentLinesMarkdown, linesPerAgent } from '../../../src/vscode/history/agentLines';
import { changeText } from '../../../src/vscode/history/historyTree';
import { type ChangeProblems, hasProblems, newestMarks, parseMarks, problemsMarkText, problemsTooltip } from '../../../src/vscode/history/problemMarks';
import { type CallProblems, JOIN_SLACK_MS, joinReports } from '../../../src/vscode/history/problemsJoin';

const T = 1_800_000_000_000;
const VERSION = 'a'.repeat(64);

function changed(path: string, kind: ChangedFile['kind'] = 'edit'): ChangedFile {
  return { path, kind, before: kind === 'create' ? null : VERSION, after: kind === 'delete' ? null : VERSION, hunks: [] };
}

let next = 0;
function record(sessionId: string, time: number, files: ChangedFile[], extra: Partial<ChangeRecord> = {}): ChangeRecord {
  return { id: `r${String(next++).padStart(4, '0')}`, time, sessionId, label: 'Agent', surface: 'api', tool: 'readgate_edit', approvedBy: 'policy', files, ...extra };
}

const counts = (path: string, errors: number, warnings = 0, resolved = 0) => ({ path, errors, warnings, resolved });

function report(sessionId: string, started: number, ended: number, files: CallProblems['files']): CallProblems {
  return { sessionId, started, ended, files };
}

suite('problems marks: joining a call’s report to its change record', () => {
  test('a record of the same session, inside the call, with its file reported: the report’s counts', () => {
    const r = record('api:a', T + 50, [changed('/w/app.ts')]);
    const call = report('api:a', T, T + 100, [counts('/w/app.ts', 2, 1, 3)]);
    const { marks, settled } = joinReports([r], [call]);
    assert.deepStrictEqual(marks.get(r.id), { errors: 2, warnings: 1, resolved: 3, files: [counts('/w/app.ts', 2, 1, 3)] });
    assert.ok(settled.has(call));
  });

  test('another session, a time outside the call beyond the slack, or a file the report does not name: no join', () => {
    const call = report('api:a', T, T + 100, [counts('/w/app.ts', 1)]);
    const other = record('api:b', T + 50, [changed('/w/app.ts')]);
    const late = record('api:a', T + 100 + JOIN_SLACK_MS + 1, [changed('/w/app.ts')]);
    const elsewhere = record('api:a', T + 50, [changed('/w/other.ts')]);
    const partly = record('api:a', T + 50, [changed('/w/app.ts'), changed('/w/other.ts')]);
    const { marks, settled } = joinReports([other, late, elsewhere, partly], [call]);
    assert.strictEqual(marks.size, 0);
    assert.strictEqual(settled.size, 0, 'the report still waits for its record');
  });

  test('a record just outside the call’s span joins within the slack', () => {
    const r = record('api:a', T - JOIN_SLACK_MS, [changed('/w/app.ts')]);
    assert.strictEqual(joinReports([r], [report('api:a', T, T + 10, [counts('/w/app.ts', 1)])]).marks.get(r.id)?.errors, 1);
  });

  test('calls milliseconds apart on one file: each record goes to its own call, not the neighbour within the slack', () => {
    const first = record('api:a', T + 5, [changed('/w/app.ts')]);
    const second = record('api:a', T + 25, [changed('/w/app.ts')]);
    const calls = [report('api:a', T, T + 10, [counts('/w/app.ts', 1)]), report('api:a', T + 20, T + 30, [counts('/w/app.ts', 0, 0, 1)])];
    const { marks, settled } = joinReports([second, first], calls);
    assert.deepStrictEqual([marks.get(first.id)?.errors, marks.get(first.id)?.resolved], [1, 0]);
    assert.deepStrictEqual([marks.get(second.id)?.errors, marks.get(second.id)?.resolved], [0, 1]);
    assert.strictEqual(settled.size, 2);
  });

  test('either order: a report before its record waits (not settled); once the record is listed it joins', () => {
    const call = report('api:a', T, T + 100, [counts('/w/app.ts', 1)]);
    assert.strictEqual(joinReports([], [call]).settled.size, 0);
    const r = record('api:a', T + 50, [changed('/w/app.ts')]);
    assert.strictEqual(joinReports([r], [call]).marks.get(r.id)?.errors, 1);
    assert.strictEqual(joinReports([r], []).marks.size, 0, 'a record without its report has no mark yet');
  });

  test('a multi-file change: deleted files are not reported; a moved file is reported under its new path; files without problems are left out of the mark', () => {
    const r = record('mcp:x', T + 1, [changed('/w/a.ts'), changed('/w/gone.ts', 'delete'), { ...changed('/w/new/b.json', 'rename'), from: '/w/b.json' }]);
    const call = report('mcp:x', T, T + 2, [counts('/w/a.ts', 0), counts('/w/new/b.json', 2)]);
    const { marks, settled } = joinReports([r], [call]);
    assert.deepStrictEqual(marks.get(r.id), { errors: 2, warnings: 0, resolved: 0, files: [counts('/w/new/b.json', 2)] });
    assert.ok(settled.has(call));
  });

  test('a report split over two records of one call is settled once both are listed; a clean change has an empty mark', () => {
    const call = report('api:a', T, T + 100, [counts('/w/a.ts', 1), counts('/w/b.ts', 0)]);
    const a = record('api:a', T + 10, [changed('/w/a.ts')]);
    const b = record('api:a', T + 20, [changed('/w/b.ts')]);
    assert.strictEqual(joinReports([a], [call]).settled.size, 0);
    const both = joinReports([a, b], [call]);
    assert.ok(both.settled.has(call));
    assert.strictEqual(hasProblems(both.marks.get(b.id) as ChangeProblems), false);
    const deletedOnly = record('api:a', T + 30, [changed('/w/c.ts', 'delete')]);
    assert.strictEqual(joinReports([deletedOnly], [call]).marks.has(deletedOnly.id), false);
  });
});

const mark = (files: CallProblems['files']): ChangeProblems => ({
  errors: files.reduce((n, f) => n + f.errors, 0),
  warnings: files.reduce((n, f) => n + f.warnings, 0),
  resolved: files.reduce((n, f) => n + f.resolved, 0),
  files,
});

suite('problems marks: words, the view, the statistics and the stored form', () => {
  test('the mark says the new errors first, then warnings; one that only resolved problems has no mark, its tooltip says so', () => {
    assert.strictEqual(problemsMarkText(mark([counts('/w/a.ts', 2)])), '2 new errors');
    assert.strictEqual(problemsMarkText(mark([counts('/w/a.ts', 1, 1)])), '1 new error, 1 warning');
    assert.strictEqual(problemsMarkText(mark([counts('/w/a.ts', 0, 3)])), '3 new warnings');
    assert.strictEqual(problemsMarkText(mark([counts('/w/a.ts', 0, 0, 2)])), '');
    assert.strictEqual(problemsMarkText(undefined), '');
    assert.deepStrictEqual(problemsTooltip(mark([counts('/w/src/a.ts', 1, 0, 2), counts('/w/b.json', 1)])), ['2 new errors in a.ts (1), b.json (1)', 'It resolved 2 problems in a.ts']);
    assert.deepStrictEqual(problemsTooltip(mark([counts('/w/src/a.ts', 1)])), ['1 new error in a.ts']);
  });

  test('a change with new errors leads its description with them and names the files right under its title', () => {
    const r = record('api:a', T, [changed('/w/app.ts')], { explanation: 'Rename the price' });
    const marked = changeText(r, T, { problems: mark([counts('/w/app.ts', 2)]) });
    assert.match(marked.description, /^2 new errors · app\.ts · \d\d:\d\d · \+0 −0$/);
    assert.deepStrictEqual(marked.tooltip.slice(0, 2), ['Rename the price', '2 new errors in app.ts']);
    assert.match(changeText(r, T).description, /^app\.ts · \d\d:\d\d · \+0 −0$/, 'no mark, no words');
  });

  test('the statistics count per agent the problems its changes introduced (errors and warnings) and resolved', () => {
    const a = record('mcp:1', T, [changed('/w/a.ts')], { label: 'Claude Code', surface: 'mcp' });
    const b = record('mcp:2', T + 1, [changed('/w/b.ts')], { label: 'Claude Code', surface: 'mcp' });
    const c = record('api:3', T + 2, [changed('/w/c.ts')], { label: 'Script' });
    const marks = new Map([[a.id, mark([counts('/w/a.ts', 2, 1)])], [b.id, mark([counts('/w/b.ts', 0, 0, 4)])]]);
    const rows = linesPerAgent([a, b, c], (id) => marks.get(id));
    assert.deepStrictEqual(rows.find((row) => row.label === 'Claude Code')?.problems, { introduced: 3, resolved: 4 });
    assert.deepStrictEqual(rows.find((row) => row.label === 'Script')?.problems, { introduced: 0, resolved: 0 });
    const lines = agentLinesMarkdown([a, b, c], T, (id) => marks.get(id));
    assert.ok(lines.includes('| agent | from | changes | lines added | lines removed | problems introduced | problems resolved | last change |'), lines.join('\n'));
    assert.match(lines.find((line) => line.startsWith('| Claude Code')) ?? '', /^\| Claude Code \| MCP \| 2 \| 0 \| 0 \| 3 \| 4 \| \d\d:\d\d \|$/);
  });

  test('stored marks: read back checked, anything else dropped; only the newest are kept', () => {
    const good = mark([counts('/w/a.ts', 1)]);
    assert.deepStrictEqual(parseMarks([['r1', good], ['r2', { errors: -1, warnings: 0, resolved: 0, files: [] }], ['r3', { ...good, files: [{ path: 1 }] }], 'junk', [4, good]]), [['r1', good]]);
    assert.deepStrictEqual(parseMarks(undefined), []);
    const many: [string, ChangeProblems][] = ['r3', 'r1', 'r4', 'r2'].map((id) => [id, good]);
    assert.deepStrictEqual(newestMarks(many, 2).map(([id]) => id), ['r3', 'r4']);
  });
});
