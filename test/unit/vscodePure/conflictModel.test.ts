import * as assert from 'assert';
import { MAX_LINES, conflictViews, splitTextLines, whereText } from '../../../src/vscode/approval/conflictModel';
import { surfaceOf, withSessionOrigins } from '../../../src/vscode/sessions/sessionOrigin';
import { API_PREFIX, CHAT_PREFIX, MCP_PREFIX, PARTICIPANT_PREFIX, SAMPLE_AGENT_SESSION, STANDALONE_PREFIX, USER_PREFIX } from '../../../src/vscode/sessions/sessionKeys';

const display = (path: string): string => path.replace('/w/', '');

suite('revert conflicts in the review panel', () => {
  test('shows the conflicting lines as they are now, numbered as in the file, beside what the revert wanted', () => {
    const range = { start: 4, end: 5, current: 'for (const item of items) {\r\n  restock(item, batch);\r\n', wanted: 'for (let i = 0; i <= items.length; i++) {\r\n  restock(items[i]);\r\n' };
    const [view] = conflictViews([{ reason: 'lines', path: '/w/src/inventory.ts', ranges: [range] }], display);
    assert.deepStrictEqual(view, {
      path: '/w/src/inventory.ts',
      displayPath: 'src/inventory.ts',
      reason: 'lines',
      summary: 'These lines were changed after the change you revert. Taking the merged parts leaves them as they are now.',
      ranges: [{ start: 4, end: 5, where: 'Lines 4–5', now: ['for (const item of items) {', '  restock(item, batch);'], wanted: ['for (let i = 0; i <= items.length; i++) {', '  restock(items[i]);'] }],
    });
  });

  test('an insertion is a place between lines with nothing there now', () => {
    const ranges = [
      { start: 3, end: 2, current: '', wanted: 'x\n' },
      { start: 1, end: 0, current: '', wanted: 'y\n' },
      { start: 7, end: 6, current: '', wanted: 'z' },
    ];
    const [view] = conflictViews([{ reason: 'lines', path: '/w/a', ranges }], display, () => 6);
    assert.deepStrictEqual(view.ranges.map((r) => [r.where, r.now, r.wanted]), [
      ['Between lines 2 and 3', [], ['x']],
      ['At the start of the file', [], ['y']],
      ['At the end of the file', [], ['z']],
    ]);
    const [unknownLength] = conflictViews([{ reason: 'lines', path: '/w/b', ranges: [{ start: 7, end: 6, current: '', wanted: 'z' }] }], display);
    assert.strictEqual(unknownLength.ranges[0].where, 'Before line 7');
  });

  test('whole-file conflicts say what happened and what taking the merged parts does; a gone file shows no lines', () => {
    const views = conflictViews(
      [
        { reason: 'missing', path: '/w/gone.ts', ranges: [] },
        { reason: 'pathTaken', path: '/w/taken.ts', ranges: [{ start: 1, end: 2, current: 'one\ntwo\n' }] },
        { reason: 'changedSinceCreated', path: '/w/new.ts', ranges: [{ start: 2, end: 2, current: 'two\n' }] },
        { reason: 'alreadyReverted', path: '/w/back.ts', ranges: [] },
      ],
      display,
    );
    assert.deepStrictEqual(views.map((v) => [v.displayPath, v.ranges.map((r) => [r.where, r.now, r.wanted])]), [
      ['gone.ts', []],
      ['taken.ts', [['Lines 1–2', ['one', 'two'], undefined]]],
      ['new.ts', [['Line 2', ['two'], undefined]]],
      ['back.ts', []],
    ]);
    assert.match(views[0].summary, /is gone, so this part cannot be reverted/);
    assert.match(views[1].summary, /another file is there now/);
    assert.match(views[2].summary, /does not delete it/);
    assert.match(views[3].summary, /already put this back/);
  });

  // A file another took over can be thousands of lines: the panel shows the start and says so.
  test('a long side shows its first lines and says so', () => {
    const long = Array.from({ length: 500 }, (_, i) => `l${i + 1}`).join('\n');
    const [view] = conflictViews([{ reason: 'pathTaken', path: '/w/big', ranges: [{ start: 1, end: 500, current: long }] }], display);
    assert.strictEqual(view.ranges[0].now.length, MAX_LINES);
    assert.strictEqual(view.ranges[0].where, `Lines 1–500 (the first ${MAX_LINES} lines shown)`);
  });

  test('lines are cut at LF, CRLF and a lone CR, with no empty line after a final break', () => {
    assert.deepStrictEqual(splitTextLines('a\r\nb\rc\nd'), ['a', 'b', 'c', 'd']);
    assert.deepStrictEqual(splitTextLines('a\n'), ['a']);
    assert.deepStrictEqual(splitTextLines('\n'), ['']);
    assert.deepStrictEqual(splitTextLines(''), []);
    assert.strictEqual(whereText(3, 3, 10), 'Line 3');
    assert.strictEqual(whereText(3, 2, undefined), 'Before line 3');
  });
});

// The history records each change's surface; the view, the statistics and the export name it the same way.
suite('session surfaces', () => {
  test('reads the surface from the prefix its owner minted the id with', () => {
    assert.strictEqual(surfaceOf(`${PARTICIPANT_PREFIX}1`), 'chat');
    assert.strictEqual(surfaceOf(`${CHAT_PREFIX}vscode-chat-session://local/x`), 'tool');
    assert.strictEqual(surfaceOf(`${STANDALONE_PREFIX}1`), 'tool');
    assert.strictEqual(surfaceOf(`${MCP_PREFIX}1`), 'mcp');
    assert.strictEqual(surfaceOf(`${USER_PREFIX}apply-patch:1`), 'palette');
    assert.strictEqual(surfaceOf(`${API_PREFIX}1`), 'api');
    assert.strictEqual(surfaceOf('my-extension-session'), 'api');
    assert.strictEqual(surfaceOf(SAMPLE_AGENT_SESSION), 'api');
  });

  // Every owner that opens sessions uses the guard through this, so every change on record says who made it.
  test('every session the guard opens says its surface and its current label; options the caller passes win', () => {
    const calls: [string, object | undefined][] = [];
    const guard = {
      prefix: 'guard',
      session(id: string, options?: object) {
        calls.push([id, options]);
        return `${this.prefix}:${id}`;
      },
      hasSession(id: string) {
        return id === 'x' && this.prefix === 'guard';
      },
    };
    let label = 'MCP client 0123abcd';
    const described = withSessionOrigins(guard, () => label);
    assert.strictEqual(described.session(`${MCP_PREFIX}1`), `guard:${MCP_PREFIX}1`);
    label = 'Claude Code 2.0.14';
    described.session(`${MCP_PREFIX}1`, { standalone: true });
    described.session('palette:apply-patch:1', { surface: 'tool' });
    assert.deepStrictEqual(calls, [
      [`${MCP_PREFIX}1`, { surface: 'mcp', label: 'MCP client 0123abcd' }],
      [`${MCP_PREFIX}1`, { surface: 'mcp', label: 'Claude Code 2.0.14', standalone: true }],
      ['palette:apply-patch:1', { surface: 'tool', label: 'Claude Code 2.0.14' }],
    ]);
    assert.strictEqual(described.hasSession('x'), true, 'other methods keep the guard as `this`');
  });
});
