/**
 * Claude Code's hook inputs as the guard's terms (`claudeHooks.ts`), from inputs recorded from the real CLI
 * (Claude Code 2.1.332 on a scripted model: `fixtures/claude-code-2.1.332-hooks.jsonl`, paths neutralised), and
 * what tells a Copilot call (VS Code runs a project's Claude Code hooks for Copilot too) from Claude Code's own.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { claudeAdapter, type HookEvent } from '../../../src/hooks/index';
import { claudeChange, claudeShown } from '../../../src/hooks/claudeHooks';
import { needsWindow } from '../../../src/hooks/judgedTools';
import { repoRoot } from '../helpers/repoRoot';

const recorded: Record<string, unknown>[] = fs
  .readFileSync(path.join(repoRoot, 'test/unit/hooks/fixtures/claude-code-2.1.332-hooks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Record<string, unknown>);
const copilot: Record<string, unknown>[] = fs
  .readFileSync(path.join(repoRoot, 'test/unit/hooks/fixtures/copilot-0.67.0-hooks.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as Record<string, unknown>);

const adapter = claudeAdapter();
const all = (event: string, tool?: string): Record<string, unknown>[] =>
  recorded.filter((input) => input.hook_event_name === event && (tool === undefined || input.tool_name === tool));

suite('Claude Code hooks: recorded inputs as the guard sees them', () => {
  test('Read before: the range it asks for (offset and limit, or from the start); after: exactly the lines its response says it returned', () => {
    const [ranged, whole] = all('PreToolUse', 'Read');
    assert.deepStrictEqual((adapter.eventOf(ranged) as Extract<HookEvent, { kind: 'readBefore' }>).cut, { startLine: 1, endLine: 50 });
    assert.deepStrictEqual((adapter.eventOf(whole) as Extract<HookEvent, { kind: 'readBefore' }>).cut, { startLine: 1 });
    const huge = all('PostToolUse', 'Read').find((input) => String((input.tool_input as { file_path: string }).file_path).endsWith('huge.txt'))!;
    const after = adapter.eventOf(huge) as Extract<HookEvent, { kind: 'readAfter' }>;
    assert.strictEqual(after.kind, 'readAfter');
    // Claude Code stopped the whole read of 3,000 lines at 1,203: what the model received.
    assert.deepStrictEqual(after.shown, { startLine: 1, lineCount: 1203 });
    assert.strictEqual(after.agent, null, 'the main agent');
  });

  test('Edit is an exact replacement (replace_all kept), Write a whole file, NotebookEdit a loose change', () => {
    const edit = adapter.eventOf(all('PreToolUse', 'Edit')[0]) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.deepStrictEqual(edit.change, {
      files: [{ kind: 'edit', path: '/home/user/project/a.txt', edits: [{ oldString: 'line 5 of the file', newString: 'line five' }] }],
    });
    const write = adapter.eventOf(all('PreToolUse', 'Write')[0]) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.deepStrictEqual(write.change, { files: [{ kind: 'write', path: '/home/user/project/new.txt', content: 'new\n' }] });
    assert.deepStrictEqual(claudeChange('Edit', { file_path: '/p/a', old_string: 'a', new_string: 'b', replace_all: true }, '/p'), {
      files: [{ kind: 'edit', path: '/p/a', edits: [{ oldString: 'a', newString: 'b', replaceAll: true }] }],
    });
    assert.deepStrictEqual(claudeChange('NotebookEdit', { notebook_path: 'n.ipynb', new_source: 'x' }, '/p'), {
      files: [{ kind: 'loose', path: '/p/n.ipynb' }],
    });
    assert.strictEqual(adapter.eventOf(all('PostToolUse', 'Edit')[0]).kind, 'changeAfter');
  });

  test("a subagent's calls name it (agent_id), and its stop ends that context", () => {
    const subagentRead = all('PreToolUse', 'Read').find((input) => input.agent_id)!;
    assert.strictEqual((adapter.eventOf(subagentRead) as Extract<HookEvent, { kind: 'readBefore' }>).agent, subagentRead.agent_id);
    assert.deepStrictEqual(adapter.eventOf(all('SubagentStop')[0]), {
      kind: 'subagentStop',
      conversation: all('SubagentStop')[0].session_id,
      agent: subagentRead.agent_id,
    });
  });

  test('a compaction or a cleared conversation makes its context forget; a new session does not', () => {
    assert.deepStrictEqual(adapter.eventOf({ hook_event_name: 'PreCompact', session_id: 's', trigger: 'auto' }), {
      kind: 'compact',
      conversation: 's',
      agent: null,
    });
    assert.deepStrictEqual(adapter.eventOf({ hook_event_name: 'SessionStart', session_id: 's', source: 'clear' }), {
      kind: 'compact',
      conversation: 's',
      agent: null,
    });
    assert.strictEqual(adapter.eventOf(all('SessionStart')[0]).kind, 'none');
  });

  test('the Agent tool and the other events are left alone, and the hook process asks the window only for what it judges', () => {
    for (const input of recorded) {
      const judged = ['Read', 'Edit', 'Write'].includes(String(input.tool_name));
      const context = input.hook_event_name === 'SubagentStop';
      assert.strictEqual(adapter.eventOf(input).kind !== 'none', judged || context, JSON.stringify(input).slice(0, 160));
      if (judged) assert.ok(needsWindow('claude-code', input));
    }
  });

  test("a Copilot call that VS Code ran through a project's Claude Code hooks is left to Copilot's own hook: never judged twice", () => {
    for (const input of copilot.filter((each) => each.hook_event_name === 'PreToolUse')) {
      assert.strictEqual(adapter.eventOf({ ...input, tool_name: 'Edit' }).kind, 'none');
      assert.strictEqual(needsWindow('claude-code', { ...input, tool_name: 'Edit' }), false);
    }
  });

  test('a Read response that is not text (an image, a notebook) shows no lines', () => {
    assert.strictEqual(claudeShown({ type: 'image', file: { base64: '…' } }), undefined);
    const after = adapter.eventOf({
      hook_event_name: 'PostToolUse',
      session_id: 's',
      tool_name: 'Read',
      tool_input: { file_path: '/p/i.png' },
      tool_use_id: 't',
      tool_response: { type: 'image' },
    });
    assert.deepStrictEqual((after as Extract<HookEvent, { kind: 'readAfter' }>).shown, { startLine: 1, lineCount: 0 });
  });
});
