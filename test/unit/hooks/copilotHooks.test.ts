/**
 * Copilot's hook inputs as the guard's terms (`copilotHooks.ts`), from inputs recorded from the real client
 * (VS Code 1.139.1, Copilot Chat 0.67.0: `fixtures/copilot-0.67.0-hooks.jsonl`, paths neutralised; recorded with `READGATE_HOOK_RECORD`, as `copilotHooks.test.ts` in the extension host sets it), and the cuts of
 * its `read_file` as its own code computes them.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { copilotAdapter, type HookEvent } from '../../../src/hooks/index';
import { copilotChange, copilotReadCut } from '../../../src/hooks/copilotHooks';
import { needsWindow } from '../../../src/hooks/judgedTools';
import { repoRoot } from '../helpers/repoRoot';

const recorded: Record<string, unknown>[] = fs
  .readFileSync(path.join(repoRoot, 'test/unit/hooks/fixtures/copilot-0.67.0-hooks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Record<string, unknown>);

const adapter = copilotAdapter(() => 8000);
const first = (event: string, tool?: string): Record<string, unknown> => {
  const found = recorded.find((input) => input.hook_event_name === event && (tool === undefined || input.tool_name === tool));
  assert.ok(found, `no recorded ${event} ${tool ?? ''}`);
  return found;
};

suite('Copilot hooks: recorded inputs as the guard sees them', () => {
  test("read_file before and after: the range it asked for, cut as Copilot's read_file cuts it, and only its first 8,000 characters", () => {
    const before = adapter.eventOf(first('PreToolUse', 'read_file'));
    assert.deepStrictEqual(before, {
      kind: 'readBefore',
      conversation: first('PreToolUse', 'read_file').session_id,
      callId: first('PreToolUse', 'read_file').tool_use_id,
      path: '/home/user/project/big.txt',
      cut: { startLine: 1, endLine: 50, maxLineChars: 2000, blankShownAsNote: true, maxChars: 8000 },
    });
    const after = adapter.eventOf(first('PostToolUse', 'read_file')) as Extract<HookEvent, { kind: 'readAfter' }>;
    assert.strictEqual(after.kind, 'readAfter');
    assert.strictEqual(after.callId, (before as Extract<HookEvent, { kind: 'readBefore' }>).callId, 'both hooks of a call name it alike');
  });

  test('replace_string_in_file and create_file are changes of one file; their after-hooks name the same call', () => {
    const replace = adapter.eventOf(first('PreToolUse', 'replace_string_in_file'));
    assert.strictEqual(replace.kind, 'changeBefore');
    const { change, tool, explanation } = replace as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.strictEqual(tool, 'replace_string_in_file');
    assert.strictEqual(explanation, 'probe');
    assert.deepStrictEqual(change, { files: [{ kind: 'edit', path: '/home/user/project/big.txt', edits: [{ oldString: 'line 290 of the big file', newString: 'line 290 CHANGED' }] }] });
    const create = adapter.eventOf(first('PreToolUse', 'create_file')) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.deepStrictEqual(create.change, { files: [{ kind: 'write', path: '/home/user/project/created.txt', content: 'new\n' }] });
    assert.strictEqual(adapter.eventOf(first('PostToolUse', 'create_file')).kind, 'changeAfter');
  });

  test('apply_patch (a GPT-family model) is its patch; multi_replace_string_in_file (a Sonnet-family model) its replacements by file', () => {
    const patch = adapter.eventOf(first('PreToolUse', 'apply_patch')) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.ok('patch' in patch.change && patch.change.patch.startsWith('*** Begin Patch\n*** Update File: /home/user/project/'), JSON.stringify(patch.change));
    const multi = adapter.eventOf(first('PreToolUse', 'multi_replace_string_in_file')) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.ok('files' in multi.change);
    assert.strictEqual(multi.change.files.length, 1, 'both replacements are of one file');
    const [only] = multi.change.files;
    assert.ok(only.kind === 'edit' && only.edits.length === 2, JSON.stringify(only));
    assert.strictEqual(adapter.eventOf(first('PostToolUse', 'apply_patch')).kind, 'changeAfter');
  });

  test('insert_edit_into_file is a loose change: the whole file must be seen', () => {
    const insert = adapter.eventOf(first('PreToolUse', 'insert_edit_into_file')) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.deepStrictEqual(insert.change, { files: [{ kind: 'loose', path: '/home/user/project/multi.txt' }] });
  });

  test("a subagent's start and stop name it by the runSubagent call's id; its calls carry the parent's session", () => {
    const start = adapter.eventOf(first('SubagentStart'));
    const stop = adapter.eventOf(first('SubagentStop'));
    const runSubagent = first('PreToolUse', 'runSubagent');
    const agent = String(runSubagent.tool_use_id).split('__vscode')[0];
    assert.deepStrictEqual(start, { kind: 'subagentStart', conversation: runSubagent.session_id, agent, agentType: 'default' });
    assert.deepStrictEqual(stop, { kind: 'subagentStop', conversation: runSubagent.session_id, agent, agentType: 'default' });
    const inside = recorded.slice(recorded.indexOf(first('SubagentStart')), recorded.indexOf(first('SubagentStop')));
    assert.ok(inside.some((input) => input.tool_name === 'read_file' && input.session_id === runSubagent.session_id && input.agent_id === undefined));
  });

  test('a summarization (PreCompact, trigger auto) makes the conversation forget', () => {
    assert.deepStrictEqual(adapter.eventOf(first('PreCompact')), { kind: 'compact', conversation: first('PreCompact').session_id });
  });

  test('every other recorded event and tool is left alone, and the hook process asks the window only for judged ones', () => {
    for (const input of recorded) {
      const event = adapter.eventOf(input);
      const judged = ['read_file', 'replace_string_in_file', 'multi_replace_string_in_file', 'create_file', 'insert_edit_into_file', 'apply_patch'].includes(String(input.tool_name));
      const context = ['SubagentStart', 'SubagentStop', 'PreCompact'].includes(String(input.hook_event_name));
      assert.strictEqual(event.kind !== 'none', judged || context, JSON.stringify(input).slice(0, 200));
      assert.strictEqual(needsWindow('copilot', input), judged || context);
    }
    assert.strictEqual(needsWindow('unknown-client', first('PreToolUse', 'read_file')), false);
  });
});

suite("Copilot hooks: read_file's cut and the edit tools' other inputs", () => {
  test('offset/limit (other models): limit within 1-1999, offset to offset + limit both shown, as Copilot reads', () => {
    assert.deepStrictEqual(copilotReadCut({ offset: 10, limit: 5 }, undefined), { startLine: 10, endLine: 15, maxLineChars: 2000, blankShownAsNote: true });
    assert.strictEqual(copilotReadCut({}, undefined).endLine, 2000);
    assert.strictEqual(copilotReadCut({ offset: 1, limit: 50_000 }, undefined).endLine, 2000);
    assert.strictEqual(copilotReadCut({ offset: 0, limit: 0 }, undefined).startLine, 1);
  });

  test('multi_replace_string_in_file groups its replacements by file, in order; apply_patch is a patch; a notebook read counts nothing', () => {
    const change = copilotChange(
      'multi_replace_string_in_file',
      {
        replacements: [
          { filePath: '/p/a.ts', oldString: 'a', newString: 'A' },
          { filePath: '/p/b.ts', oldString: 'b', newString: 'B' },
          { filePath: '/p/a.ts', oldString: 'c', newString: 'C' },
        ],
      },
      '/p',
    );
    assert.deepStrictEqual(change, {
      files: [
        { kind: 'edit', path: '/p/a.ts', edits: [{ oldString: 'a', newString: 'A' }, { oldString: 'c', newString: 'C' }] },
        { kind: 'edit', path: '/p/b.ts', edits: [{ oldString: 'b', newString: 'B' }] },
      ],
    });
    assert.deepStrictEqual(copilotChange('apply_patch', { input: '*** Begin Patch\n*** End Patch' }, '/p'), { patch: '*** Begin Patch\n*** End Patch' });
    assert.deepStrictEqual(copilotChange('replace_string_in_file', { filePath: 'rel.ts', oldString: 'x', newString: 'y' }, '/p'), {
      files: [{ kind: 'edit', path: '/p/rel.ts', edits: [{ oldString: 'x', newString: 'y' }] }],
    });
    const notebook = adapter.eventOf({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'read_file', tool_use_id: 'c1', tool_input: { filePath: '/p/n.ipynb', startLine: 1, endLine: 9 } });
    assert.strictEqual(notebook.kind, 'none');
  });

  test('input that is not what the tool takes is left alone, never guessed at', () => {
    assert.strictEqual(copilotChange('replace_string_in_file', { filePath: '/p/a', oldString: 1 }, '/p'), undefined);
    assert.strictEqual(copilotChange('multi_replace_string_in_file', { replacements: [{ filePath: '/p/a' }] }, '/p'), undefined);
    assert.strictEqual(copilotChange('create_file', { filePath: '/p/a' }, '/p'), undefined);
    for (const input of [null, 'text', { hook_event_name: 'PreToolUse' }, { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'read_file' }]) {
      assert.strictEqual(adapter.eventOf(input).kind, 'none', JSON.stringify(input));
    }
  });

  test("a denial is Copilot's PreToolUse deny with the refusal as its reason", () => {
    assert.deepStrictEqual(adapter.deny('EDIT_OUTSIDE_SEEN_RANGE: read them'), {
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'EDIT_OUTSIDE_SEEN_RANGE: read them' },
    });
  });
});
