/**
 * Gemini CLI's hooks (0.61) for its own file tools, as recorded from the real CLI: `BeforeTool` and `AfterTool`
 * carry `session_id`, `cwd`, `tool_name` and `tool_input`, but no id of the call (the two ends of a call are
 * paired by the tool and its input) and nothing that tells a subagent's call from its parent's: the calls between
 * the `BeforeTool` and the `AfterTool` of `invoke_agent` are the subagent's (the main agent waits for it). The
 * tools: `read_file { file_path, start_line?, end_line? }` (its `AfterTool` carries what the model received,
 * `tool_response.llmContent`), `replace { file_path, instruction, old_string, new_string, allow_multiple? }`,
 * `write_file { file_path, content }`; `read_many_files` is not offered to the model in 0.61. A denial is
 * `{ decision: "deny", reason }`, which the model reads as "Tool execution blocked: <reason>".
 *
 * Gemini CLI fires `PreCompress` before every request to the model, whether it then compresses or not, and
 * nothing after a compression: it does not tell when a context lost what it read, so ReadGate cannot forget then.
 * `SessionStart` with `source` "clear" does say so.
 */
import { createHash } from 'crypto';
import * as path from 'path';
import type { Edit, OwnChangeCall } from '../core/index';
import type { HookAdapter, HookEvent } from './hookEvents';
import { GEMINI_AGENTS, GEMINI_CHANGES, GEMINI_READS } from './judgedTools';
import { readOutput } from './readOutputs';

type Fields = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

const pathOf = (value: unknown, cwd: string | undefined): string | undefined => {
  const given = text(value);
  return given && (path.isAbsolute(given) || !cwd ? given : path.resolve(cwd, given));
};

/** The call's id: its tool and input, as both of its hooks give them (Gemini CLI names no call). */
export const geminiCallId = (tool: string, input: unknown): string =>
  `gemini-${createHash('sha256')
    .update(`${tool}\u0000${JSON.stringify(input)}`)
    .digest('hex')
    .slice(0, 32)}`;

export function geminiChange(tool: string, input: Fields, cwd: string | undefined): OwnChangeCall['change'] | undefined {
  const file = pathOf(input.file_path, cwd);
  if (!file) return undefined;
  if (tool === 'write_file') return typeof input.content === 'string' ? { files: [{ kind: 'write', path: file, content: input.content }] } : undefined;
  if (typeof input.old_string !== 'string' || typeof input.new_string !== 'string') return undefined;
  // An empty old_string makes a new file.
  if (input.old_string === '') return { files: [{ kind: 'write', path: file, content: input.new_string }] };
  const edit: Edit = { oldString: input.old_string, newString: input.new_string, ...(input.allow_multiple === true ? { replaceAll: true } : {}) };
  return { files: [{ kind: 'edit', path: file, edits: [edit] }] };
}

function toolEvent(fields: Fields, conversation: string): HookEvent {
  const tool = text(fields.tool_name) ?? '';
  const input = (typeof fields.tool_input === 'object' && fields.tool_input !== null ? fields.tool_input : {}) as Fields;
  const cwd = text(fields.cwd);
  const before = fields.hook_event_name === 'BeforeTool';
  const callId = geminiCallId(tool, input);
  // No agent named: the judge places the call by the subagents open.
  const base = { conversation, callId };
  if (GEMINI_AGENTS.has(tool)) {
    return {
      kind: before ? 'subagentStart' : 'subagentStop',
      conversation,
      agent: callId,
      ...(text(input.agent_name) ? { agentType: text(input.agent_name) } : {}),
    };
  }
  if (GEMINI_READS.has(tool)) {
    const file = pathOf(input.file_path, cwd);
    if (!file) return { kind: 'none', why: 'read_file without a file_path' };
    if (!before) {
      return { kind: 'readAfter', ...base, shown: readOutput((fields.tool_response as Fields | undefined)?.llmContent) ?? { output: '', form: 'numbered' } };
    }
    const start = Math.max(1, num(input.start_line) ?? 1);
    const end = num(input.end_line);
    return { kind: 'readBefore', ...base, path: file, cut: { startLine: start, ...(end !== undefined ? { endLine: end } : {}) } };
  }
  if (!GEMINI_CHANGES.has(tool)) return { kind: 'none', why: `ReadGate does not judge ${tool}` };
  if (!before) return { kind: 'changeAfter', ...base };
  const change = geminiChange(tool, input, cwd);
  return change ? { kind: 'changeBefore', ...base, tool, change } : { kind: 'none', why: `${tool}'s input is not what the tool takes` };
}

export function geminiAdapter(): HookAdapter {
  return {
    label: 'Gemini CLI',
    readHint: 'With read_file, read those lines by start_line and end_line.',
    eventOf(input: unknown): HookEvent {
      if (typeof input !== 'object' || input === null) return { kind: 'none', why: 'the input is not a JSON object' };
      const fields = input as Fields;
      const conversation = text(fields.session_id);
      if (!conversation) return { kind: 'none', why: 'the input names no session_id' };
      switch (fields.hook_event_name) {
        case 'BeforeTool':
        case 'AfterTool':
          return toolEvent(fields, conversation);
        case 'SessionStart':
          return fields.source === 'clear'
            ? { kind: 'compact', conversation, agent: null }
            : { kind: 'none', why: `a session start (${String(fields.source)}) keeps what the context holds` };
        default:
          return { kind: 'none', why: `ReadGate does nothing on ${String(fields.hook_event_name)}` };
      }
    },
    deny: (reason) => ({ decision: 'deny', reason }),
  };
}
