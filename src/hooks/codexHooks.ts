/**
 * Codex's hooks (0.171) for its own tools, as recorded from the real CLI: every event carries `hook_event_name`,
 * `session_id` (the conversation), `turn_id` and `cwd`; tool events `tool_name`, `tool_input` and `tool_use_id`,
 * and a subagent's its `agent_id` (and `agent_type`). Codex edits with `apply_patch` (`tool_input.command` is the
 * patch, its paths relative to `cwd`) and reads with its shell: `exec_command` reaches its hooks as `Bash`, the
 * command line in `tool_input.command`, and its `PostToolUse` carries `tool_response`, the command's output exactly
 * as the model received it (a long one already cut, "…N tokens truncated…" in its middle, after a two-line
 * warning). A shell read counts for the lines that output holds of the file (`shellReads.ts`); any other command
 * counts for nothing. `SubagentStart`/`SubagentStop` name a subagent, `PreCompact` the context about to be
 * compacted, `SessionStart` with `source` "compact" or "clear" a conversation that restarts without what it held.
 */
import * as path from 'path';
import type { ShownOutput } from '../core/index';
import type { HookAdapter, HookEvent } from './hookEvents';
import { CODEX_CHANGES, CODEX_SHELL } from './judgedTools';
import { shellRead } from './shellReads';

type Fields = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** Codex's own words before an output it cut: they are not the file's. */
const CUT_WARNING = /^Warning: truncated output \(original token count: \d+\)\nTotal output lines: \d+\n\n/;

/** What a shell read's output shows, for the guard to match against the file. */
export function codexShown(command: string, response: unknown): ShownOutput | undefined {
  const read = shellRead(command);
  if (!read || typeof response !== 'string') return undefined;
  return {
    output: response.replace(CUT_WARNING, ''),
    form: read.form,
    ...(read.first !== undefined ? { first: read.first } : {}),
    ...(read.last !== undefined ? { last: read.last } : {}),
  };
}

/** The patch with each file it names made absolute against `cwd`, as Codex resolves them. */
export function absolutePatch(patch: string, cwd: string | undefined): string {
  if (!cwd) return patch;
  return patch.replace(/^(\*\*\* (?:Add|Update|Delete) File: |\*\*\* Move to: )(.+)$/gm, (line, header: string, file: string) =>
    path.isAbsolute(file.trim()) ? line : `${header}${path.resolve(cwd, file.trim())}`,
  );
}

function toolEvent(fields: Fields, conversation: string, agent: string | null): HookEvent {
  const tool = text(fields.tool_name) ?? '';
  const callId = text(fields.tool_use_id);
  const input = (typeof fields.tool_input === 'object' && fields.tool_input !== null ? fields.tool_input : {}) as Fields;
  const cwd = text(fields.cwd);
  const command = text(input.command);
  if (!callId) return { kind: 'none', why: 'the input has no tool_use_id' };
  if (!command) return { kind: 'none', why: `${tool} without a command` };
  const before = fields.hook_event_name === 'PreToolUse';
  const base = { conversation, agent, callId };
  if (CODEX_SHELL.has(tool)) {
    const read = shellRead(command);
    if (!read) return { kind: 'none', why: 'a shell command that reads no one file ReadGate can follow' };
    if (!before) return { kind: 'readAfter', ...base, shown: codexShown(command, fields.tool_response) ?? { output: '', form: 'numbered' } };
    const file = path.isAbsolute(read.file) || !cwd ? read.file : path.resolve(cwd, read.file);
    return { kind: 'readBefore', ...base, path: file, cut: { startLine: 1 } };
  }
  if (!CODEX_CHANGES.has(tool)) return { kind: 'none', why: `ReadGate does not judge ${tool}` };
  if (!before) return { kind: 'changeAfter', ...base };
  return { kind: 'changeBefore', ...base, tool, change: { patch: absolutePatch(command, cwd) } };
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

export function codexAdapter(): HookAdapter {
  return {
    label: 'Codex',
    readHint: "Show those lines with your shell (for example sed -n '<first>,<last>p' <file>), then patch again.",
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
