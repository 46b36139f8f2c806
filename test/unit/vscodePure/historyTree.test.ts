import * as assert from 'assert';
import type { ChangedFile, ChangeRecord } from '../../../src/core/index';
import { computeLineChanges, hunksOf, indexLines } from '../../../src/core/index';
import { countsText, fileCounts, recordCounts } from '../../../src/vscode/history/changeCounts';
import { CONTEXT_CHANGE, CONTEXT_COLLECTION, CONTEXT_FILE, CONTEXT_SESSION, changeText, fileText, groupBySession, sessionText } from '../../../src/vscode/history/historyTree';
import { pathsToCheck, revertMarks, type VersionNow } from '../../../src/vscode/history/revertMarks';
import { agentLinesMarkdown, linesPerAgent } from '../../../src/vscode/history/agentLines';
import { changeTitle, revertChangeText, revertFileText, revertSessionText, timeText } from '../../../src/vscode/history/historyWords';
import { revertFailureText } from '../../../src/vscode/history/revertOutcome';

const NOW = new Date(2026, 2, 14, 16, 30).getTime();
const at = (hours: number, minutes: number, day = 14): number => new Date(2026, 2, day, hours, minutes).getTime();

/** The hunks the core records for a change from `before` to `after`. */
function hunks(before: string, after: string): unknown[] {
  return hunksOf(computeLineChanges(before, after), indexLines(before).count, indexLines(after).count);
}

const text = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');

function file(path: string, kind: ChangedFile['kind'], before: string, after: string, from?: string): ChangedFile {
  return { path, kind, before: kind === 'create' ? null : 'b'.repeat(64), after: kind === 'delete' ? null : 'a'.repeat(64), hunks: hunks(before, after), ...(from ? { from } : {}) };
}

let next = 0;
function record(sessionId: string, time: number, files: ChangedFile[], extra: Partial<ChangeRecord> = {}): ChangeRecord {
  return { id: `r${next++}`, time, sessionId, label: 'Claude Code 2.0.14', surface: 'mcp', tool: 'readgate_edit', approvedBy: 'user', files, ...extra };
}

const edited = file('/w/src/inventory.ts', 'edit', text(10), text(10).replace('line 3\n', 'THREE\n').replace('line 8\n', 'EIGHT\neight and a half\n'));
const created = file('/w/src/health.ts', 'create', '', text(4));

suite('change history: counts', () => {
  test('counts the lines each hunk adds and removes, and sums a change over its files', () => {
    assert.deepStrictEqual(fileCounts(edited), { added: 3, removed: 2 });
    assert.deepStrictEqual(fileCounts(created), { added: 4, removed: 0 });
    assert.deepStrictEqual(recordCounts({ files: [edited, created] }), { added: 7, removed: 2 });
    assert.strictEqual(countsText({ added: 1200, removed: 3 }), '+1,200 −3');
  });

  // Hunks are whatever the recording surface gave (`unknown[]`): one that cannot be read must not count as none.
  test('a hunk without readable line changes makes the count a lower bound, said as "at least"', () => {
    const odd = { ...edited, hunks: [...edited.hunks, { oldStart: 1 }, null] };
    assert.deepStrictEqual(fileCounts(odd), { added: 3, removed: 2, partial: true });
    assert.strictEqual(countsText(fileCounts(odd)), 'at least +3 −2');
    assert.deepStrictEqual(fileCounts({ hunks: [] }), { added: 0, removed: 0 }, 'a move without an edit changes no line');
  });
});

suite('change history: the Agent Changes tree', () => {
  test('groups changes by session, sessions by their newest change, newest first; changes newest first', () => {
    const a1 = record('mcp:a', at(10, 0), [edited]);
    const b1 = record('chat-participant:b', at(11, 0), [created], { label: '@readgate: add a health check', surface: 'chat' });
    const a2 = record('mcp:a', at(12, 0), [created]);
    const groups = groupBySession([a1, b1, a2]);
    assert.deepStrictEqual(groups.map((g) => [g.sessionId, g.changes.map((c) => c.id)]), [['mcp:a', [a2.id, a1.id]], ['chat-participant:b', [b1.id]]]);
    assert.deepStrictEqual(groups[0].counts, { added: 7, removed: 2 });
  });

  // Each tool call without a chat session, and each revert, is a session of its own: one item each would pile up.
  test('sessions of one call and the user’s reverts are gathered into one item each, with no session revert', () => {
    const calls = [record('tool:call:1', at(9, 0), [edited], { surface: 'tool', label: 'A tool call without a chat session' }), record('tool:call:2', at(9, 5), [created], { surface: 'tool', label: 'A tool call without a chat session' })];
    const reverts = [record('palette:revert:1', at(9, 10), [edited], { surface: 'palette', label: 'Revert' }), record('palette:revert:2', at(9, 20), [edited], { surface: 'palette', label: 'Revert' })];
    const groups = groupBySession([...calls, ...reverts]);
    assert.deepStrictEqual(groups.map((g) => [g.label, g.changes.length, g.collection]), [['Your reverts', 2, true], ['Tool calls without a chat session', 2, true]]);
    assert.strictEqual(sessionText(groups[0], NOW).contextValue, CONTEXT_COLLECTION);
    assert.deepStrictEqual(linesPerAgent(calls).map((row) => [row.label, row.changes]), [['Tool calls without a chat session', 2]]);
  });

  test('a session says where it came from, how many changes, the lines and when', () => {
    const [group] = groupBySession([record('mcp:a', at(10, 0), [edited]), record('mcp:a', at(14, 5), [created])]);
    const item = sessionText(group, NOW);
    assert.strictEqual(item.label, 'Claude Code 2.0.14');
    assert.strictEqual(item.description, 'MCP · 2 changes · +7 −2 · 14:05');
    assert.strictEqual(item.contextValue, CONTEXT_SESSION);
    assert.ok(item.tooltip.includes('From an MCP client'));
  });

  test('a change is titled by its explanation, else by what it did; its description is "+N −M" and its time; approvedBy in the tooltip', () => {
    const explained = record('mcp:a', at(9, 7, 2), [edited], { explanation: 'Fix the off-by-one in the restock loop\nand more details' });
    const item = changeText(explained, NOW);
    assert.strictEqual(item.label, 'Fix the off-by-one in the restock loop');
    // The side bar cuts the description from the end: the one file and the time before the line counts.
    assert.strictEqual(item.description, 'inventory.ts · Mar 2, 09:07 · +3 −2');
    assert.strictEqual(item.contextValue, CONTEXT_CHANGE);
    assert.ok(item.tooltip.includes('Approved by you, in the review panel'), item.tooltip.join('\n'));
    assert.strictEqual(changeText(record('mcp:a', NOW, [edited, created], { approvedBy: 'policy' }), NOW).label, 'Change 2 files');
    assert.ok(changeText(record('mcp:a', NOW, [edited], { approvedBy: 'grant' }), NOW).tooltip.some((line) => /don’t ask again/.test(line)));
  });

  test('a change whose revert is in effect says so right after its problems; a revert names itself and what it reverts', () => {
    const original = record('mcp:a', at(10, 0), [edited]);
    const revert = record('palette:revert:1', at(11, 0), [edited], { revertOf: original.id, surface: 'palette', label: 'Revert' });
    const marks = revertMarks([revert, original], () => undefined);
    assert.strictEqual(changeText(original, NOW, { reverted: marks.reverted.get(original.id) }).description, 'reverted · 10:00 · +3 −2');
    assert.strictEqual(changeTitle(revert), 'Revert: Edit inventory.ts');
    const item = changeText(revert, NOW, { revertOf: original });
    assert.ok(item.tooltip.includes('Reverts “Edit inventory.ts” by Claude Code 2.0.14 (10:00)'), item.tooltip.join('\n'));
    const partly = changeText(original, NOW, { reverted: { by: { ...revert, partial: true }, partly: true } });
    assert.match(partly.description, /^partly reverted · /);
    assert.strictEqual(changeText(revert, NOW, { undone: true }).description, 'undone · 11:00 · +3 −2');
  });

  test('a file shows its name, its folder, what happened to it unless edited, and its lines', () => {
    const display = (path: string): string => path.replace('/w/', '');
    assert.deepStrictEqual([fileText(edited, display).label, fileText(edited, display).description], ['inventory.ts', 'src · +3 −2']);
    assert.strictEqual(fileText(created, display).description, 'src · created · +4 −0');
    const moved = file('/w/lib/stock.ts', 'rename', text(2), text(2), '/w/src/stock.ts');
    assert.strictEqual(fileText(moved, display).description, 'lib · moved from stock.ts · +0 −0');
    assert.strictEqual(fileText(moved, display).contextValue, CONTEXT_FILE);
  });

  test('times read as the clock today, the day this year, the year before', () => {
    assert.strictEqual(timeText(at(8, 5), NOW), '08:05');
    assert.strictEqual(timeText(at(8, 5, 1), NOW), 'Mar 1, 08:05');
    assert.strictEqual(timeText(new Date(2025, 11, 31, 23, 59).getTime(), NOW), 'Dec 31 2025, 23:59');
  });
});

suite('change history: lines per agent', () => {
  test('sums an agent (label and surface) over its sessions, most lines first', () => {
    const rows = linesPerAgent([
      record('mcp:a', at(10, 0), [edited]),
      record('mcp:b', at(11, 0), [created]),
      record('chat:x', at(12, 0), [created], { label: 'Chat docs', surface: 'tool' }),
    ]);
    assert.deepStrictEqual(rows.map((row) => [row.label, row.surface, row.changes, row.counts]), [
      ['Claude Code 2.0.14', 'mcp', 2, { added: 7, removed: 2 }],
      ['Chat docs', 'tool', 1, { added: 4, removed: 0 }],
    ]);
  });

  test('the statistics table escapes agent names and marks counts that are lower bounds; no history, no section', () => {
    const odd = { ...created, hunks: [...created.hunks, { broken: true }] };
    const lines = agentLinesMarkdown([record('mcp:a', at(10, 0), [odd], { label: 'Evil | <b>agent</b>' })], NOW);
    assert.strictEqual(lines[1], '## Lines changed per agent');
    const row = lines.at(-1) ?? '';
    assert.ok(!row.includes('<b>'), row);
    assert.strictEqual(row.split(' | ').length, 8, `one cell per column: ${row}`);
    assert.match(row, /\| 4 \(at least\) \| 0 \(at least\) \| 0 \| 0 \| 10:00 \|$/);
    assert.deepStrictEqual(agentLinesMarkdown([], NOW), []);
  });
});

suite('change history: a revert that did not happen', () => {
  test('the user’s own cancel is a cancel; the rest say what happened and the next step, in the user’s words', () => {
    assert.strictEqual(revertFailureText('REJECTED_BY_USER', 'x'), 'The revert was cancelled: nothing was written.');
    assert.strictEqual(revertFailureText('CANCELLED', 'x'), 'The revert was cancelled: nothing was written.');
    // The core's message is for library callers ("approve with takeMerged: true"): not what a user can do.
    const conflict = revertFailureText('REVERT_CONFLICT', 'The revert of change x conflicts … approve the revert with takeMerged: true');
    assert.ok(!conflict.includes('takeMerged'), conflict);
    assert.match(revertFailureText('FILE_CHANGED_SINCE_READ', 'x'), /Run the revert again/);
    assert.strictEqual(
      revertFailureText('INVALID_INPUT', 'The history no longer holds the file contents of change "c1" (dropped by its budget, or damaged), so it cannot be reverted. Nothing was changed.'),
      'ReadGate did not revert: The history no longer holds the file contents of change "c1" (dropped by its budget, or damaged), so it cannot be reverted. Nothing was written.',
    );
    assert.strictEqual(revertFailureText('SOMETHING_NEW', 'First line.\nSecond.'), 'ReadGate did not revert (SOMETHING_NEW): First line.');
  });
});

suite('change history: is a revert in effect (revertMarks)', () => {
  const v = (name: string): string => name.padEnd(64, '0');
  /** An edit of `path` from version `before` to `after`. */
  const edit = (path: string, before: string, after: string): ChangedFile => ({ path, kind: 'edit', before: v(before), after: v(after), hunks: [] });
  const holding = (files: Record<string, string | null>): VersionNow => (path) => (path in files ? (files[path] === null ? null : v(files[path] as string)) : undefined);

  const change = record('mcp:a', at(10, 0), [edit('/w/a.ts', 'a0', 'a1')]);
  // The user had typed in the buffer ("m"): the revert was planned against and written into that text.
  const revert = record('palette:revert:1', at(11, 0), [edit('/w/a.ts', 'm1', 'm0')], { revertOf: change.id, surface: 'palette', label: 'Your revert' });

  test('while the files hold what the revert wrote (or later text), the change is reverted and the revert in effect', () => {
    for (const now of [holding({ '/w/a.ts': 'm0' }), holding({ '/w/a.ts': 'later' }), holding({})]) {
      const marks = revertMarks([revert, change], now);
      assert.deepStrictEqual([marks.reverted.get(change.id)?.by.id, marks.reverted.get(change.id)?.partly, [...marks.undone]], [revert.id, false, []]);
    }
    assert.deepStrictEqual(pathsToCheck([revert, change]), ['/w/a.ts']);
  });

  test('undo in the unsaved buffer (the text before the revert is back): no "reverted", the revert is "undone"', () => {
    const marks = revertMarks([revert, change], holding({ '/w/a.ts': 'm1' }));
    assert.strictEqual(marks.reverted.has(change.id), false);
    assert.deepStrictEqual([...marks.undone], [revert.id]);
  });

  test('the buffer closed without saving (the revert never reached the disk, which holds the change): not reverted', () => {
    const marks = revertMarks([revert, change], holding({ '/w/a.ts': 'a1' }));
    assert.strictEqual(marks.reverted.has(change.id), false);
    assert.deepStrictEqual([...marks.undone], [revert.id]);
  });

  test('a revert reverted in turn: the change is no longer reverted, the revert is; reverted a third time, the change is again', () => {
    const restore = record('palette:revert:2', at(12, 0), [edit('/w/a.ts', 'm0', 'm1')], { revertOf: revert.id });
    // Without the files, the records alone decide.
    const marks = revertMarks([restore, revert, change], () => undefined);
    assert.strictEqual(marks.reverted.has(change.id), false);
    assert.strictEqual(marks.reverted.get(revert.id)?.by.id, restore.id);
    assert.deepStrictEqual([...marks.undone], []);
    const again = record('palette:revert:3', at(13, 0), [edit('/w/a.ts', 'm1', 'm0')], { revertOf: restore.id });
    const third = revertMarks([again, restore, revert, change], holding({ '/w/a.ts': 'm0' }));
    // The third one undoes the restore: the first revert is in effect again.
    assert.deepStrictEqual([third.reverted.get(change.id)?.by.id, third.reverted.get(revert.id), third.reverted.get(restore.id)?.by.id], [revert.id, undefined, again.id]);
  });

  test('a revert that kept lines (`partial`) makes the change "partly reverted"', () => {
    const merged = { ...revert, partial: true as const };
    assert.strictEqual(revertMarks([merged, change], holding({ '/w/a.ts': 'm0' })).reverted.get(change.id)?.partly, true);
  });

  test('created, deleted and moved files: a revert is undone only when every file is back as before it', () => {
    const made: ChangedFile = { path: '/w/new.ts', kind: 'create', before: null, after: v('n1'), hunks: [] };
    const moved: ChangedFile = { path: '/w/b.ts', kind: 'rename', from: '/w/old.ts', before: v('o'), after: v('o'), hunks: [] };
    const multi = record('mcp:a', at(10, 0), [made, moved]);
    const undo = record('palette:revert:4', at(11, 0), [{ path: '/w/new.ts', kind: 'delete', before: v('n1'), after: null, hunks: [] }, { path: '/w/old.ts', kind: 'rename', from: '/w/b.ts', before: v('o'), after: v('o'), hunks: [] }], { revertOf: multi.id });
    assert.deepStrictEqual(pathsToCheck([undo, multi]).sort(), ['/w/b.ts', '/w/new.ts', '/w/old.ts']);
    assert.ok(revertMarks([undo, multi], holding({ '/w/new.ts': null, '/w/old.ts': 'o', '/w/b.ts': null })).reverted.has(multi.id));
    assert.ok(revertMarks([undo, multi], holding({ '/w/new.ts': 'n1', '/w/old.ts': null, '/w/b.ts': 'o' })).undone.has(undo.id));
    assert.ok(revertMarks([undo, multi], holding({ '/w/new.ts': 'n1', '/w/old.ts': 'o', '/w/b.ts': null })).reverted.has(multi.id), 'half back is not undone');
  });
});

suite('change history: what a revert says it does', () => {
  const change = record('mcp:a', at(14, 3), [edited], { explanation: 'Fix the off-by-one in the restock loop' });

  test('the first line (the title in the view) says what it does; whose change, when and where come second', () => {
    assert.strictEqual(revertChangeText(change, NOW), 'Revert “Fix the off-by-one in the restock loop”\nThe change Claude Code 2.0.14 made at 14:03 to inventory.ts');
    assert.strictEqual(revertSessionText('Claude Code 2.0.14', [change, change]), 'Revert Claude Code 2.0.14’s session\nAll 2 changes it made to 1 file, newest first');
    assert.strictEqual(revertFileText('src/inventory.ts', 'Claude Code 2.0.14', 2), 'Revert inventory.ts to before Claude Code 2.0.14\nsrc/inventory.ts as it was before Claude Code 2.0.14’s session (2 changes to it); its other files stay as they are');
  });

  test('a revert of a revert is named by the change it restores, and a third revert reverts that change again', () => {
    const revert = record('palette:revert:1', at(14, 5), [edited], { revertOf: change.id, label: 'Your revert', explanation: revertChangeText(change, NOW) });
    const restore = record('palette:revert:2', at(14, 7), [edited], { revertOf: revert.id, label: 'Your revert', explanation: revertChangeText(revert, NOW, (id) => (id === change.id ? change : undefined)) });
    const byId = new Map([change, revert, restore].map((r) => [r.id, r]));
    const lookup = (id: string): ChangeRecord | undefined => byId.get(id);
    assert.strictEqual(restore.explanation, 'Restore “Fix the off-by-one in the restock loop”\nUndoes the revert of 14:05: brings back the change Claude Code 2.0.14 made at 14:03 to inventory.ts');
    assert.strictEqual(revertChangeText(restore, NOW, lookup), 'Revert “Fix the off-by-one in the restock loop” again\nUndoes the restore of 14:07: reverts the change Claude Code 2.0.14 made at 14:03 to inventory.ts again');
    assert.doesNotMatch(revertChangeText(restore, NOW, lookup), /Revert “Revert/);
    // The change it reverted no longer on record: said by when, never as a nested quote.
    assert.strictEqual(revertChangeText(revert, NOW), 'Undo the revert of 14:05\nRevert “Fix the off-by-one in the restock loop”');
    assert.strictEqual(changeTitle(restore), 'Restore “Fix the off-by-one in the restock loop”');
  });

  test('two reverts of changes with the same reason are told apart in the view by their file and their time', () => {
    const other = record('mcp:a', at(14, 3), [created], { explanation: 'Fix the off-by-one in the restock loop' });
    const first = record('palette:revert:1', at(15, 1), [edited], { revertOf: change.id, explanation: revertChangeText(change, NOW) });
    const second = record('palette:revert:2', at(15, 2), [created], { revertOf: other.id, explanation: revertChangeText(other, NOW) });
    const [a, b] = [changeText(first, NOW, { revertOf: change }), changeText(second, NOW, { revertOf: other })];
    assert.strictEqual(a.label, b.label);
    assert.deepStrictEqual([a.description, b.description], ['inventory.ts · 15:01 · +3 −2', 'health.ts · 15:02 · +4 −0']);
  });
});
