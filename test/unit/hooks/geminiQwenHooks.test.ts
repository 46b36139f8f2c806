/**
 * Gemini CLI's and Qwen Code's hook inputs as the guard's terms (`geminiHooks.ts`, `qwenHooks.ts`), from inputs
 * recorded from the real CLIs (Gemini CLI 0.61, Qwen Code 0.24.4, on a scripted model:
 * `fixtures/gemini-cli-0.61.0-hooks.jsonl`, `fixtures/qwen-code-0.24.4-hooks.jsonl`, paths neutralised), what
 * their read results show (`readOutputs.ts`) and which inputs the hook process takes to the window.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { geminiAdapter, type HookEvent, qwenAdapter } from '../../../src/hooks/index';
import { geminiCallId } from '../../../src/hooks/geminiHooks';
import { needsWindow } from '../../../src/hooks/judgedTools';
import { readOutput } from '../../../src/hooks/readOutputs';
import { repoRoot } from '../helpers/repoRoot';

const load = (name: string): Record<string, unknown>[] =>
  fs
    .readFileSync(path.join(repoRoot, 'test/unit/hooks/fixtures', name), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const gemini = load('gemini-cli-0.61.0-hooks.jsonl');
const qwen = load('qwen-code-0.24.4-hooks.jsonl');
const of = (inputs: Record<string, unknown>[], event: string, tool?: string) => inputs.filter((input) => input.hook_event_name === event && (tool === undefined || input.tool_name === tool));
type Read = Extract<HookEvent, { kind: 'readBefore' }>;
type ReadAfter = Extract<HookEvent, { kind: 'readAfter' }>;

suite('Gemini CLI hooks: recorded inputs as the guard sees them', () => {
  const adapter = geminiAdapter();

  test('read_file before: start_line to end_line, its path against cwd; after: the lines its result says it shows, the note above them taken off', () => {
    const [ranged, whole] = of(gemini, 'BeforeTool', 'read_file');
    const before = adapter.eventOf(ranged) as Read;
    assert.deepStrictEqual({ path: before.path, cut: before.cut }, { path: '/home/user/project/a.txt', cut: { startLine: 1, endLine: 100 } });
    assert.deepStrictEqual((adapter.eventOf(whole) as Read).cut, { startLine: 1 });
    const after = adapter.eventOf(of(gemini, 'AfterTool', 'read_file')[1]) as ReadAfter;
    const shown = after.shown as { output: string; first: number; last: number };
    assert.deepStrictEqual({ first: shown.first, last: shown.last }, { first: 1, last: 2000 });
    assert.match(shown.output, /^row 1 y+\n/);
    assert.strictEqual(after.callId, (adapter.eventOf(whole) as Read).callId, 'both ends of a call are paired by its tool and input');
  });

  test('replace is an exact replacement (allow_multiple kept, an empty old_string a new file); write_file a whole file; a denial as Gemini CLI takes it', () => {
    const replace = adapter.eventOf(of(gemini, 'BeforeTool', 'replace')[0]) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.deepStrictEqual(replace.change, { files: [{ kind: 'edit', path: '/home/user/project/a.txt', edits: [{ oldString: 'line 50 of a\n', newString: 'line 50 edited\n' }] }] });
    const empty = adapter.eventOf({ ...of(gemini, 'BeforeTool', 'replace')[0], tool_input: { file_path: 'n.txt', instruction: 'x', old_string: '', new_string: 'new\n' } }) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.deepStrictEqual(empty.change, { files: [{ kind: 'write', path: '/home/user/project/n.txt', content: 'new\n' }] });
    const write = adapter.eventOf(of(gemini, 'BeforeTool', 'write_file')[0]) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.deepStrictEqual(write.change, { files: [{ kind: 'write', path: '/home/user/project/b.txt', content: 'all new\n' }] });
    assert.deepStrictEqual(adapter.deny('EDIT_OUTSIDE_SEEN_RANGE: …'), { decision: 'deny', reason: 'EDIT_OUTSIDE_SEEN_RANGE: …' });
  });

  test("invoke_agent's two ends open and close a subagent; the calls between carry no agent, so the judge places them in it", () => {
    const [start] = of(gemini, 'BeforeTool', 'invoke_agent');
    const [stop] = of(gemini, 'AfterTool', 'invoke_agent');
    const opened = adapter.eventOf(start) as Extract<HookEvent, { kind: 'subagentStart' }>;
    assert.deepStrictEqual(opened, { kind: 'subagentStart', conversation: start.session_id, agent: geminiCallId('invoke_agent', start.tool_input), agentType: 'generalist' });
    assert.deepStrictEqual(adapter.eventOf(stop), { ...(opened as object), kind: 'subagentStop' });
    const inside = gemini.slice(gemini.indexOf(start) + 1, gemini.indexOf(stop));
    assert.ok(inside.some((input) => input.tool_name === 'replace'));
    for (const input of inside) assert.strictEqual((adapter.eventOf(input) as { agent?: unknown }).agent, undefined);
  });

  test('PreCompress (fired before every request) forgets nothing; SessionStart clear does; the hook process asks the window only for judged tools', () => {
    const base = { session_id: 's', cwd: '/p', transcript_path: '/t' };
    assert.strictEqual(adapter.eventOf({ ...base, hook_event_name: 'PreCompress', trigger: 'auto' }).kind, 'none');
    assert.deepStrictEqual(adapter.eventOf({ ...base, hook_event_name: 'SessionStart', source: 'clear' }), { kind: 'compact', conversation: 's', agent: null });
    assert.strictEqual(needsWindow('gemini-cli', { ...base, hook_event_name: 'PreCompress', trigger: 'auto' }), false);
    for (const input of gemini) assert.strictEqual(needsWindow('gemini-cli', input), true, String(input.tool_name));
    assert.strictEqual(needsWindow('gemini-cli', { ...base, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: {} }), false);
  });
});

suite('Qwen Code hooks: recorded inputs as the guard sees them', () => {
  const adapter = qwenAdapter();

  test('read_file before: offset (from 0) and limit; after: the lines its result shows, the last one cut short included in the output (it matches no line)', () => {
    const [ranged, whole] = of(qwen, 'PreToolUse', 'read_file');
    assert.deepStrictEqual((adapter.eventOf(ranged) as Read).cut, { startLine: 1, endLine: 100 });
    assert.deepStrictEqual((adapter.eventOf(whole) as Read).cut, { startLine: 1 });
    const after = adapter.eventOf(of(qwen, 'PostToolUse', 'read_file')[1]) as ReadAfter;
    const shown = after.shown as { output: string; first: number; last: number };
    assert.strictEqual(shown.first, 1);
    assert.ok(shown.last > 100 && shown.last < 3000, String(shown.last));
    assert.match(shown.output, /\.\.\. \[truncated\]$/);
  });

  test("edit and write_file as the guard's changes; a subagent's call names it (agent_id), its start and stop too", () => {
    const edit = adapter.eventOf(of(qwen, 'PreToolUse', 'edit')[0]) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.deepStrictEqual(edit.change, { files: [{ kind: 'edit', path: '/home/user/project/a.txt', edits: [{ oldString: 'line 50 of a\n', newString: 'line 50 edited\n' }] }] });
    assert.strictEqual(edit.agent, null);
    const [start] = of(qwen, 'SubagentStart');
    const [stop] = of(qwen, 'SubagentStop');
    assert.deepStrictEqual(adapter.eventOf(start), { kind: 'subagentStart', conversation: start.session_id, agent: start.agent_id, agentType: 'general-purpose' });
    assert.deepStrictEqual(adapter.eventOf(stop), { kind: 'subagentStop', conversation: stop.session_id, agent: stop.agent_id });
    const inside = of(qwen, 'PreToolUse', 'edit').find((input) => input.agent_id)!;
    assert.strictEqual((adapter.eventOf(inside) as { agent?: unknown }).agent, start.agent_id);
    for (const input of qwen) assert.strictEqual(needsWindow('qwen-code', input), true, String(input.tool_name));
  });
});

suite("read results as what a read showed (Gemini CLI's and Qwen Code's)", () => {
  test('a part, under either note; a whole file as it is; anything but text counts nothing', () => {
    assert.deepStrictEqual(readOutput('Showing lines 11-15 of 301 total lines.\n\n---\n\nline 11\nline 12'), { output: 'line 11\nline 12', form: 'plain', first: 11, last: 15 });
    const gemini = "\nIMPORTANT: The file content has been truncated.\nStatus: Showing lines 10-20 of 301 total lines.\nAction: To read more …\n\n--- FILE CONTENT (truncated) ---\nline 10";
    assert.deepStrictEqual(readOutput(gemini), { output: 'line 10', form: 'plain', first: 10, last: 20 });
    assert.deepStrictEqual(readOutput('a\nb\n'), { output: 'a\nb\n', form: 'plain', first: 1, last: -1 });
    assert.strictEqual(readOutput([{ text: 'x' }]), undefined);
    assert.strictEqual(readOutput('Showing lines 1-2 of 9 total lines. but no content marker'), undefined);
  });
});
