/**
 * Qwen Code's hooks (0.24) for its own file tools, as recorded from the real CLI: Claude Code's shape —
 * `PreToolUse`/`PostToolUse` with `session_id`, `cwd`, `tool_name`, `tool_input`, `tool_use_id`, and a subagent's
 * calls its `agent_id` (`SubagentStart`/`SubagentStop` name it too). The tools: `read_file { file_path, offset?,
 * limit? }` (offset counts from 0: offset 10, limit 5 shows lines 11-15), whose `PostToolUse` carries what the
 * model received (`tool_response.llmContent`: "Showing lines A-B of N total lines." above a part, a whole file as
 * it is; a long read stops where Qwen Code's budget ends, its last line cut "... [truncated]"); `edit { file_path,
 * old_string, new_string, replace_all? }`, `write_file { file_path, content }`, `notebook_edit`. A denial is
 * `hookSpecificOutput.permissionDecision: "deny"`, whose reason is what the model reads. `PreCompact` precedes a
 * compaction; `SessionStart` with `source` "compact" or "clear" a conversation that restarts without what it held.
 */
import * as path from 'path';
import type { Edit, OwnChangeCall } from '../core/index';
import type { HookAdapter, HookEvent } from './hookEvents';
import { QWEN_CHANGES, QWEN_READS } from './judgedTools';
import { readOutput } from './readOutputs';

type Fields = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const pathOf = (value: unknown, cwd: string | undefined): string | undefined => {
  const given = text(value);
  return given && (path.isAbsolute(given) || !cwd ? given : path.resolve(cwd, given));
};

export function qwenChange(tool: string, input: Fields, cwd: string | undefined): OwnChangeCall['change'] | undefined {
  if (tool === 'notebook_edit') {
    const notebook = pathOf(input.notebook_path, cwd);
    return notebook ? { files: [{ kind: 'loose', path: notebook }] } : undefined;
  }
  const file = pathOf(input.file_path, cwd);
  if (!file) return undefined;
  if (tool === 'write_file') return typeof input.content === 'string' ? { files: [{ kind: 'write', path: file, content: input.content }] } : undefined;
  if (typeof input.old_string !== 'string' || typeof input.new_string !== 'string') return undefined;
  if (input.old_string === '') return { files: [{ kind: 'write', path: file, content: input.new_string }] };
  const edit: Edit = { oldString: input.old_string, newString: input.new_string, ...(input.replace_all === true ? { replaceAll: true } : {}) };
  return { files: [{ kind: 'edit', path: file, edits: [edit] }] };
}

function toolEvent(fields: Fields, conversation: string, agent: string | null): HookEvent {
  const tool = text(fields.tool_name) ?? '';
  const callId = text(fields.tool_use_id);
  const input = (typeof fields.tool_input === 'object' && fields.tool_input !== null ? fields.tool_input : {}) as Fields;
  const cwd = text(fields.cwd);
  if (!callId) return { kind: 'none', why: 'the input has no tool_use_id' };
  const before = fields.hook_event_name === 'PreToolUse';
  const base = { conversation, agent, callId };
  if (QWEN_READS.has(tool)) {
    const file = pathOf(input.file_path, cwd);
    if (!file) return { kind: 'none', why: 'read_file without a file_path' };
    if (!before) {
      return { kind: 'readAfter', ...base, shown: readOutput((fields.tool_response as Fields | undefined)?.llmContent) ?? { output: '', form: 'numbered' } };
    }
    const offset = Math.max(0, num(input.offset) ?? 0);
    const limit = num(input.limit);
    return {
      kind: 'readBefore',
      ...base,
      path: file,
      cut: { startLine: offset + 1, ...(limit !== undefined && limit > 0 ? { endLine: offset + limit } : {}) },
    };
  }
  if (!QWEN_CHANGES.has(tool)) return { kind: 'none', why: `ReadGate does not judge ${tool}` };
  if (!before) return { kind: 'changeAfter', ...base };
  const change = qwenChange(tool, input, cwd);
  return change ? { kind: 'changeBefore', ...base, tool, change } : { kind: 'none', why: `${tool}'s input is not what the tool takes` };
}

function contextEvent(fields: Fields, conversation: string, agent: string | null): HookEvent {
  switch (fields.hook_event_name) {
    case 'SubagentStart':
      return agent
        ? { kind: 'subagentStart', conversation, agent, ...(text(fields.agent_type) ? { agentType: text(fields.agent_type) } : {}) }
        : { kind: 'none', why: 'SubagentStart without agent_id' };
    case 'SubagentStop':
      return agent ? { kind: 'subagentStop', conversation, agent } : { kind: 'none', why: 'SubagentStop without agent_id' };
    case 'PreCompact':
      return { kind: 'compact', conversation, agent };
    case 'SessionStart':
      return fields.source === 'compact' || fields.source === 'clear'
        ? { kind: 'compact', conversation, agent: null }
        : { kind: 'none', why: `a session start (${String(fields.source)}) keeps what the context holds` };
    default:
      return { kind: 'none', why: `ReadGate does nothing on ${String(fields.hook_event_name)}` };
  }
}

export function qwenAdapter(): HookAdapter {
  return {
    label: 'Qwen Code',
    readHint: 'With read_file, read those lines by offset (from 0) and limit.',
    eventOf(input: unknown): HookEvent {
      if (typeof input !== 'object' || input === null) return { kind: 'none', why: 'the input is not a JSON object' };
      const fields = input as Fields;
      const conversation = text(fields.session_id);
      if (!conversation) return { kind: 'none', why: 'the input names no session_id' };
      const agent = text(fields.agent_id) ?? null;
      const event = fields.hook_event_name;
      return event === 'PreToolUse' || event === 'PostToolUse' ? toolEvent(fields, conversation, agent) : contextEvent(fields, conversation, agent);
    },
    deny: (reason) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }),
  };
}
