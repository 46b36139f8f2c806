/**
 * The window's side of a hook call (`HookJudge`) over a real guard on a real folder, with Copilot's adapter and
 * inputs shaped as the real client sends them: which agent context a call lands in (a subagent's between its
 * start and stop, none while several are open), what a summarization forgets, how a refusal reads for the model,
 * and a change that waits for review.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard, type ApprovalDecision, type ApprovalRequest, type Guard } from '../../../src/core/index';
import { copilotAdapter, HookJudge, type HookSessions } from '../../../src/hooks/index';
import { put } from '../helpers/results';
import { makeTempDir } from '../helpers/tempDir';

const numbered = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

function sessionsOf(guard: Guard): HookSessions & { ended: string[] } {
  const ended: string[] = [];
  return {
    ended,
    session: (_client, conversation, agent) => guard.session(agent ? `${conversation}#${agent}` : conversation),
    unplaced: (_client, conversation) => guard.session(`${conversation}#unplaced`),
    forget: (_client, conversation) => guard.session(conversation).clear(),
    end: (_client, conversation, agent) => {
      ended.push(agent);
      guard.dropSession(`${conversation}#${agent}`);
    },
  };
}

function setup(approve?: (request: ApprovalRequest) => Promise<ApprovalDecision>, reviewMs?: number) {
  const root = makeTempDir();
  const guard = createGuard({ roots: [root], ...(approve ? { approve } : {}) });
  const sessions = sessionsOf(guard);
  const judge = new HookJudge({ copilot: copilotAdapter(() => 8000) }, sessions, () => undefined, reviewMs);
  let calls = 0;
  const send = (input: object, wait: (ms: number) => void = () => undefined, signal = new AbortController().signal) =>
    judge.handle({ client: 'copilot', input: { session_id: 'chat-1', cwd: root, ...input } }, wait, signal);
  const read = async (file: string, startLine: number, endLine: number) => {
    const id = `call_${++calls}__vscode-1`;
    await send({ hook_event_name: 'PreToolUse', tool_name: 'read_file', tool_input: { filePath: file, startLine, endLine }, tool_use_id: id });
    await send({ hook_event_name: 'PostToolUse', tool_name: 'read_file', tool_input: { filePath: file, startLine, endLine }, tool_response: '', tool_use_id: id });
  };
  const replace = (file: string, oldString: string, newString: string, wait?: (ms: number) => void) =>
    send({ hook_event_name: 'PreToolUse', tool_name: 'replace_string_in_file', tool_input: { filePath: file, oldString, newString, explanation: 'x' }, tool_use_id: `call_${++calls}__vscode-1` }, wait);
  const subagent = (event: 'SubagentStart' | 'SubagentStop', agent: string) => send({ hook_event_name: event, agent_id: agent, agent_type: 'default' });
  return { root, guard, judge, sessions, send, read, replace, subagent };
}

const reasonOf = (output: object | undefined): string => (output as { hookSpecificOutput?: { permissionDecisionReason?: string } } | undefined)?.hookSpecificOutput?.permissionDecisionReason ?? 'allowed';

suite('hook judge: agent contexts', () => {
  test("a subagent's calls between its start and stop are its own: its parent's reads do not count for it, nor its reads for the parent", async () => {
    const { root, read, replace, subagent, sessions } = setup();
    const file = put(path.join(root, 'a.txt'), numbered(4));
    await read(file, 1, 4);
    await subagent('SubagentStart', 'call_9');
    assert.match(reasonOf(await replace(file, 'line 2', 'two')), /^EDIT_REQUIRES_PRIOR_READ: /);
    const other = put(path.join(root, 'b.txt'), numbered(2));
    await read(other, 1, 2);
    await subagent('SubagentStop', 'call_9');
    assert.deepStrictEqual(sessions.ended, ['call_9']);
    assert.match(reasonOf(await replace(other, 'line 1', 'one')), /^EDIT_REQUIRES_PRIOR_READ: /);
    assert.strictEqual(reasonOf(await replace(file, 'line 2', 'two')), 'allowed');
  });

  test('while two subagents are open a call cannot be placed: its read teaches no one and its edit is judged knowing nothing', async () => {
    const { root, read, replace, subagent } = setup();
    const file = put(path.join(root, 'c.txt'), numbered(3));
    await subagent('SubagentStart', 'call_1');
    await subagent('SubagentStart', 'call_2');
    await read(file, 1, 3);
    assert.match(reasonOf(await replace(file, 'line 1', 'one')), /^EDIT_REQUIRES_PRIOR_READ/);
    await subagent('SubagentStop', 'call_2');
    assert.match(reasonOf(await replace(file, 'line 1', 'one')), /^EDIT_REQUIRES_PRIOR_READ/, 'nor does it count for the subagent left open');
    await subagent('SubagentStop', 'call_1');
    assert.match(reasonOf(await replace(file, 'line 1', 'one')), /^EDIT_REQUIRES_PRIOR_READ/, 'nor for the parent');
  });

  test('a summarization (PreCompact) forgets what the conversation was shown: the next edit needs a new read', async () => {
    const { root, read, replace, send } = setup();
    const file = put(path.join(root, 'd.txt'), numbered(3));
    await read(file, 1, 3);
    await send({ hook_event_name: 'PreCompact', trigger: 'auto' });
    assert.match(reasonOf(await replace(file, 'line 1', 'one')), /^EDIT_REQUIRES_PRIOR_READ/);
    await read(file, 1, 3);
    assert.strictEqual(reasonOf(await replace(file, 'line 1', 'one')), 'allowed');
  });
});

suite('hook judge: what the client is told', () => {
  test("a refusal that asks for a read names Copilot's read_file after ReadGate's refusal, code first", async () => {
    const { root, read, replace } = setup();
    const file = put(path.join(root, 'e.txt'), numbered(300));
    await read(file, 1, 50);
    const reason = reasonOf(await replace(file, 'line 290', 'x'));
    assert.match(reason, /^EDIT_OUTSIDE_SEEN_RANGE: .*290.*With read_file, read those lines by startLine and endLine/s);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(300));
  });

  test('a change waiting for review tells the hook to keep waiting; one undecided past the review limit is refused as unreviewed', async () => {
    let asked = 0;
    const { root, read, replace, judge } = setup((request) => {
      asked++;
      // The window's review: its approval service tells the judge a review started, then no one decides.
      setTimeout(() => judge.reviewStarted(request.sessionId), 10);
      return new Promise<ApprovalDecision>((resolve) => request.signal.addEventListener('abort', () => resolve({ approved: false, reason: 'cancelled' })));
    }, 300);
    const file = put(path.join(root, 'f.txt'), numbered(3));
    await read(file, 1, 3);
    const waits: number[] = [];
    const reason = reasonOf(await replace(file, 'line 1', 'one', (ms) => waits.push(ms)));
    assert.strictEqual(asked, 1);
    assert.deepStrictEqual(waits, [300]);
    assert.match(reason, /^REJECTED_BY_USER: the change waited 0 minutes for the user's review without a decision/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3));
  });

  test('an unknown client, an event ReadGate ignores and an input that is not an object are allowed silently', async () => {
    const { judge, send } = setup();
    assert.strictEqual(await judge.handle({ client: 'other', input: {} }, () => undefined, new AbortController().signal), undefined);
    assert.strictEqual(await send({ hook_event_name: 'Stop' }), undefined);
    assert.strictEqual(await judge.handle({ client: 'copilot', input: 'x' }, () => undefined, new AbortController().signal), undefined);
  });
});

suite('hook judge: after the change', () => {
  test('a tool that wrote something other than what was allowed is noted as a warning, with the file', async () => {
    const root = makeTempDir();
    const guard = createGuard({ roots: [root] });
    const logged: { message: string; level?: string }[] = [];
    const judge = new HookJudge({ copilot: copilotAdapter(() => 8000) }, sessionsOf(guard), (message, _data, level) => logged.push({ message, ...(level ? { level } : {}) }), undefined, 200);
    const file = put(path.join(root, 'g.txt'), numbered(3));
    const send = (input: object) => judge.handle({ client: 'copilot', input: { session_id: 'chat-1', cwd: root, ...input } }, () => undefined, new AbortController().signal);
    const read = { filePath: file, startLine: 1, endLine: 3 };
    await send({ hook_event_name: 'PreToolUse', tool_name: 'read_file', tool_input: read, tool_use_id: 'r1' });
    await send({ hook_event_name: 'PostToolUse', tool_name: 'read_file', tool_input: read, tool_use_id: 'r1' });
    const edit = { filePath: file, oldString: 'line 2', newString: 'two', explanation: 'x' };
    assert.strictEqual(await send({ hook_event_name: 'PreToolUse', tool_name: 'replace_string_in_file', tool_input: edit, tool_use_id: 'e1' }), undefined);
    fs.writeFileSync(file, numbered(3).replace('line 2', 'two ')); // not what was allowed
    await send({ hook_event_name: 'PostToolUse', tool_name: 'replace_string_in_file', tool_input: edit, tool_use_id: 'e1' });
    assert.ok(logged.some((entry) => entry.level === 'warn' && /wrote something other than what ReadGate allowed/.test(entry.message)), JSON.stringify(logged));
  });
});
