/**
 * Claude Code's hooks (2.1) for its own file tools, as recorded from the real CLI: every event carries
 * `hook_event_name`, `session_id` (the conversation) and `cwd`; tool events `tool_name`, `tool_input` and
 * `tool_use_id`, and a subagent's calls its `agent_id` (and `agent_type`), so each call names its context. The
 * tools: `Read { file_path, offset?, limit? }`, `Edit { file_path, old_string, new_string, replace_all? }`,
 * `Write { file_path, content }`, `NotebookEdit { notebook_path, … }`. `PostToolUse` of `Read` carries what the
 * tool returned, `tool_response.file = { filePath, content, numLines, startLine, totalLines }`, which is what the
 * model received (Claude Code stops a long read where its budget ends: 1,203 of 3,000 lines of 67 characters, in
 * the recording; a line of 2,500 characters came whole), so exactly those lines count. `SubagentStop` names the
 * subagent that ended, `PreCompact` the context about to be compacted, `SessionStart` with `source` "compact" or
 * "clear" a conversation that restarts without what it held.
 *
 * VS Code runs a project's `.claude/settings.json` hooks for its own agents too: an input from Copilot (its call
 * ids end in `__vscode-<n>`) is left alone here, as Copilot's own hook (`copilotHooks.ts`) judges it.
 */
import * as path from 'path';
import type { Edit, OwnChangeCall, ShownRange } from '../core/index';
import type { HookAdapter, HookEvent } from './hookEvents';
import { CLAUDE_CHANGES, CLAUDE_READS } from './judgedTools';

type Fields = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** A call of Copilot's, run by VS Code from a project's Claude settings. */
export const isCopilotCall = (fields: Fields): boolean => typeof fields.tool_use_id === 'string' && /__vscode-\d+$/.test(fields.tool_use_id);

function pathOf(value: unknown, cwd: string | undefined): string | undefined {
  const given = text(value);
  if (!given) return undefined;
  return path.isAbsolute(given) || !cwd ? given : path.resolve(cwd, given);
}

/** The lines Claude Code's Read returned, from its `PostToolUse` response; undefined for anything but text. */
export function claudeShown(response: unknown): ShownRange | undefined {
  const { type, file } = (response ?? {}) as { type?: unknown; file?: { startLine?: unknown; numLines?: unknown } };
  if (type !== 'text' || typeof file !== 'object' || file === null) return undefined;
  const startLine = num(file.startLine);
  const lineCount = num(file.numLines);
  return startLine !== undefined && lineCount !== undefined ? { startLine, lineCount } : undefined;
}

/** The change an edit tool's input asks for; undefined when it is not what the tool takes. */
export function claudeChange(tool: string, input: Fields, cwd: string | undefined): OwnChangeCall['change'] | undefined {
  if (tool === 'NotebookEdit') {
    const notebook = pathOf(input.notebook_path, cwd);
    return notebook ? { files: [{ kind: 'loose', path: notebook }] } : undefined;
  }
  const file = pathOf(input.file_path, cwd);
  if (!file) return undefined;
  if (tool === 'Write') return typeof input.content === 'string' ? { files: [{ kind: 'write', path: file, content: input.content }] } : undefined;
  if (typeof input.old_string !== 'string' || typeof input.new_string !== 'string') return undefined;
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
  if (CLAUDE_READS.has(tool)) {
    const file = pathOf(input.file_path, cwd);
    if (!file) return { kind: 'none', why: 'Read without a file_path' };
    if (!before) {
      const shown = claudeShown(fields.tool_response);
      return { kind: 'readAfter', ...base, ...(shown ? { shown } : { shown: { startLine: 1, lineCount: 0 } }) };
    }
    const offset = Math.max(1, num(input.offset) ?? 1);
    const limit = num(input.limit);
    return {
      kind: 'readBefore',
      ...base,
      path: file,
      cut: { startLine: offset, ...(limit !== undefined && limit > 0 ? { endLine: offset + limit - 1 } : {}) },
    };
  }
  if (!CLAUDE_CHANGES.has(tool)) return { kind: 'none', why: `ReadGate does not judge ${tool}` };
  if (!before) return { kind: 'changeAfter', ...base };
  const change = claudeChange(tool, input, cwd);
  return change ? { kind: 'changeBefore', ...base, tool, change } : { kind: 'none', why: `${tool}'s input is not what the tool takes` };
}

function contextEvent(fields: Fields, conversation: string, agent: string | null): HookEvent {
  switch (fields.hook_event_name) {
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

export function claudeAdapter(): HookAdapter {
  return {
    label: 'Claude Code',
    readHint: 'With Read, read those lines by offset and limit.',
    eventOf(input: unknown): HookEvent {
      if (typeof input !== 'object' || input === null) return { kind: 'none', why: 'the input is not a JSON object' };
      const fields = input as Fields;
      if (isCopilotCall(fields)) return { kind: 'none', why: "a call of Copilot's, which its own hook judges" };
      const conversation = text(fields.session_id);
      if (!conversation) return { kind: 'none', why: 'the input names no session_id' };
      const agent = text(fields.agent_id) ?? null;
      const event = fields.hook_event_name;
      return event === 'PreToolUse' || event === 'PostToolUse' ? toolEvent(fields, conversation, agent) : contextEvent(fields, conversation, agent);
    },
    deny: (reason) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }),
  };
}
