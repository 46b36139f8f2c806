/**
 * Codex's hook inputs as the guard's terms (`codexHooks.ts`), from inputs recorded from the real CLI (Codex 0.171
 * on a scripted model of its catalog: `fixtures/codex-0.171.0-hooks.jsonl`; a subagent's, on its fallback model:
 * `fixtures/codex-0.171.0-subagent-hooks.jsonl`; paths neutralised), and which of them the hook process takes to
 * the window.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { codexAdapter, type HookEvent } from '../../../src/hooks/index';
import { absolutePatch, codexShown } from '../../../src/hooks/codexHooks';
import { needsWindow } from '../../../src/hooks/judgedTools';
import { repoRoot } from '../helpers/repoRoot';

const load = (name: string): Record<string, unknown>[] =>
  fs
    .readFileSync(path.join(repoRoot, 'test/unit/hooks/fixtures', name), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const recorded = load('codex-0.171.0-hooks.jsonl');
const subagent = load('codex-0.171.0-subagent-hooks.jsonl');
const adapter = codexAdapter();
const command = (input: Record<string, unknown>): string => String((input.tool_input as { command?: unknown }).command);
const find = (event: string, tool: string, commandPart: string): Record<string, unknown> =>
  recorded.find((input) => input.hook_event_name === event && input.tool_name === tool && command(input).includes(commandPart))!;

suite('Codex hooks: recorded inputs as the guard sees them', () => {
  test('a shell read before: the file, whole (its output narrows it); after: the output Codex showed the model, its own warning taken off', () => {
    const before = adapter.eventOf(find('PreToolUse', 'Bash', "sed -n '1,100p'")) as Extract<HookEvent, { kind: 'readBefore' }>;
    assert.deepStrictEqual({ kind: before.kind, path: before.path, cut: before.cut, agent: before.agent }, { kind: 'readBefore', path: '/home/user/project/a.txt', cut: { startLine: 1 }, agent: null });
    const after = adapter.eventOf(find('PostToolUse', 'Bash', "sed -n '1,100p'")) as Extract<HookEvent, { kind: 'readAfter' }>;
    assert.deepStrictEqual({ ...after.shown, output: undefined }, { output: undefined, form: 'plain', first: 1, last: 100 });
    const huge = adapter.eventOf(find('PostToolUse', 'Bash', 'cat huge.txt')) as Extract<HookEvent, { kind: 'readAfter' }>;
    const output = (huge.shown as { output: string }).output;
    assert.match(output, /^row 1 y+\n/, 'Codex\'s "Warning: truncated output" lines are not the file\'s');
    assert.match(output, /tokens truncated/);
  });

  test('apply_patch before: the patch, its files made absolute against cwd; after: the change ran', () => {
    const before = adapter.eventOf(find('PreToolUse', 'apply_patch', 'line 50 of a')) as Extract<HookEvent, { kind: 'changeBefore' }>;
    assert.strictEqual(before.kind, 'changeBefore');
    assert.match((before.change as { patch: string }).patch, /^\*\*\* Update File: \/home\/user\/project\/a\.txt$/m);
    assert.strictEqual(adapter.eventOf(find('PostToolUse', 'apply_patch', 'line 50 of a')).kind, 'changeAfter');
    assert.strictEqual(
      absolutePatch('*** Begin Patch\n*** Add File: n.txt\n+x\n*** Update File: /abs/b.txt\n*** Move to: c/d.txt\n*** Delete File: e.txt\n*** End Patch\n', '/p'),
      '*** Begin Patch\n*** Add File: /p/n.txt\n+x\n*** Update File: /abs/b.txt\n*** Move to: /p/c/d.txt\n*** Delete File: /p/e.txt\n*** End Patch\n',
    );
  });

  test('a compaction (PreCompact, then SessionStart with source compact) makes the main context forget', () => {
    const compact = recorded.find((input) => input.hook_event_name === 'PreCompact')!;
    assert.deepStrictEqual(adapter.eventOf(compact), { kind: 'compact', conversation: compact.session_id, agent: null });
    const start = recorded.find((input) => input.hook_event_name === 'SessionStart')!;
    assert.deepStrictEqual(adapter.eventOf(start), { kind: 'compact', conversation: start.session_id, agent: null });
  });

  test("a subagent's start, calls and stop name it by agent_id", () => {
    const [start, call, stop] = subagent;
    assert.deepStrictEqual(adapter.eventOf(start), { kind: 'subagentStart', conversation: start.session_id, agent: start.agent_id, agentType: 'default' });
    assert.deepStrictEqual(adapter.eventOf(stop), { kind: 'subagentStop', conversation: stop.session_id, agent: stop.agent_id });
    const read = adapter.eventOf({ ...call, tool_name: 'Bash', tool_input: { command: 'cat app.py' } }) as Extract<HookEvent, { kind: 'readBefore' }>;
    assert.strictEqual(read.agent, call.agent_id);
  });

  test('the hook process asks the window for shell reads it can follow, apply_patch and context events; every other shell command ends at once', () => {
    for (const input of [...recorded, ...subagent]) {
      const judged = input.tool_name === 'apply_patch' || (input.tool_name === 'Bash' && adapter.eventOf(input).kind !== 'none');
      const context = ['SubagentStart', 'SubagentStop', 'PreCompact'].includes(String(input.hook_event_name)) || (input.hook_event_name === 'SessionStart' && input.source === 'compact');
      assert.strictEqual(needsWindow('codex', input), judged || context, JSON.stringify(input).slice(0, 200));
    }
    const shell = find('PreToolUse', 'Bash', 'cat b.txt');
    assert.strictEqual(needsWindow('codex', { ...shell, tool_input: { command: 'npm test' } }), false);
    assert.strictEqual(adapter.eventOf({ ...shell, tool_input: { command: 'npm test' } }).kind, 'none');
    assert.strictEqual(codexShown('npm test', 'x'), undefined);
  });
});
