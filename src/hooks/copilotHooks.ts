/**
 * GitHub Copilot's agent hooks (VS Code's agent mode, 1.139 with Copilot Chat 0.67), as recorded from the real
 * client: every event carries `hook_event_name`, `session_id` (the chat session; a subagent's calls carry its
 * parent's) and `cwd`; tool events `tool_name`, `tool_input` and `tool_use_id`; `SubagentStart`/`SubagentStop`
 * bracket a subagent's calls with its `agent_id`. `PostToolUse`'s `tool_response` is empty for these tools, so
 * what a read showed is known from its input and from how Copilot's `read_file` cuts it:
 * - `startLine`/`endLine` (1-based, inclusive; clamped to the file, turned round when backwards), or
 *   `offset`/`limit` (other models): `limit` is taken within 1-1999 (none: 1999) and the lines shown are
 *   `offset` to `offset + limit`, both ends included, as Copilot reads them;
 * - a line over 2,000 characters is shortened ("[truncated]");
 * - a file of only whitespace is shown as a note, not its lines;
 * - a long result is cut to what fits the model's prompt (lines from the middle left out): seen with a 30,000-
 *   token context, the first 157 lines of a 3,000-line range and its last line reached the model. Only the first
 *   `maxChars` characters of a result count (`readgate.tools.maxResultChars`, the size Copilot shows of any
 *   extension's tool result).
 * A notebook is shown as cells, not as the file's lines, so a read of one counts nothing.
 */
import * as path from 'path';
import { fileURLToPath } from 'url';
import type { Edit, OwnChange, OwnChangeCall, ReadCut } from '../core/index';
import type { HookAdapter, HookEvent } from './hookEvents';
import { COPILOT_CHANGES, COPILOT_READS } from './judgedTools';

/** What Copilot's read_file does to a long line, and the most it takes of `limit`. */
export const COPILOT_READ = { maxLineChars: 2000, maxLimit: 1999 } as const;

type Fields = Record<string, unknown>;

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** Copilot's `filePath`: absolute, or a file URI; a relative one is taken from the hook's folder. */
function pathOf(value: unknown, cwd: string | undefined): string | undefined {
  const given = text(value);
  if (!given) return undefined;
  if (given.startsWith('file://')) {
    try {
      return fileURLToPath(given);
    } catch {
      return undefined;
    }
  }
  return path.isAbsolute(given) || !cwd ? given : path.resolve(cwd, given);
}

/** The lines Copilot's read_file shows for its input, as a cut. */
export function copilotReadCut(input: Fields, maxChars: number | undefined): ReadCut {
  const common = { maxLineChars: COPILOT_READ.maxLineChars, blankShownAsNote: true, ...(maxChars ? { maxChars } : {}) };
  const startLine = num(input.startLine);
  if (startLine !== undefined) return { startLine, endLine: num(input.endLine) ?? startLine, ...common };
  const limit = Math.min(COPILOT_READ.maxLimit, Math.max(1, num(input.limit) || Infinity));
  const from = Math.max(1, num(input.offset) ?? 1);
  return { startLine: from, endLine: from + limit, ...common };
}

function editOf(value: unknown): Edit | undefined {
  const { oldString, newString } = (value ?? {}) as Fields;
  return typeof oldString === 'string' && typeof newString === 'string' ? { oldString, newString } : undefined;
}

/** A multi_replace call's replacements, grouped by file in the order the files first appear. */
function replacementsOf(input: Fields, cwd: string | undefined): OwnChange[] | undefined {
  const replacements = Array.isArray(input.replacements) ? input.replacements : undefined;
  if (!replacements?.length) return undefined;
  const byFile = new Map<string, Edit[]>();
  for (const replacement of replacements) {
    const file = pathOf((replacement as Fields)?.filePath, cwd);
    const edit = editOf(replacement);
    if (!file || !edit) return undefined;
    byFile.set(file, [...(byFile.get(file) ?? []), edit]);
  }
  return [...byFile].map(([file, edits]) => ({ kind: 'edit', path: file, edits }));
}

/** The change a Copilot edit tool's input asks for; undefined when the input is not what the tool takes. */
export function copilotChange(tool: string, input: Fields, cwd: string | undefined): OwnChangeCall['change'] | undefined {
  if (tool === 'apply_patch') return text(input.input) ? { patch: input.input as string } : undefined;
  if (tool === 'multi_replace_string_in_file') {
    const files = replacementsOf(input, cwd);
    return files && { files };
  }
  const file = pathOf(input.filePath, cwd);
  if (!file) return undefined;
  if (tool === 'replace_string_in_file') {
    const edit = editOf(input);
    return edit && { files: [{ kind: 'edit', path: file, edits: [edit] }] };
  }
  if (tool === 'create_file') return typeof input.content === 'string' ? { files: [{ kind: 'write', path: file, content: input.content }] } : undefined;
  // insert_edit_into_file merges a sketch where it sees fit, edit_notebook_file edits a cell: the tool decides.
  return { files: [{ kind: 'loose', path: file }] };
}

function toolEvent(fields: Fields, conversation: string, maxChars: number | undefined): HookEvent {
  const event = fields.hook_event_name;
  const tool = text(fields.tool_name) ?? '';
  const callId = text(fields.tool_use_id);
  const input = (typeof fields.tool_input === 'object' && fields.tool_input !== null ? fields.tool_input : {}) as Fields;
  const cwd = text(fields.cwd);
  if (!callId) return { kind: 'none', why: 'the input has no tool_use_id' };
  const before = event === 'PreToolUse';
  if (COPILOT_READS.has(tool)) {
    const file = pathOf(input.filePath, cwd);
    if (!file) return { kind: 'none', why: 'read_file without a filePath' };
    if (file.toLowerCase().endsWith('.ipynb')) return { kind: 'none', why: 'read_file shows a notebook as cells, not its lines' };
    return before
      ? { kind: 'readBefore', conversation, callId, path: file, cut: copilotReadCut(input, maxChars) }
      : { kind: 'readAfter', conversation, callId };
  }
  if (!COPILOT_CHANGES.has(tool)) return { kind: 'none', why: `ReadGate does not judge ${tool}` };
  if (!before) return { kind: 'changeAfter', conversation, callId };
  const change = copilotChange(tool, input, cwd);
  if (!change) return { kind: 'none', why: `${tool}'s input is not what the tool takes` };
  const explanation = text(input.explanation);
  return { kind: 'changeBefore', conversation, callId, tool, change, ...(explanation ? { explanation } : {}) };
}

/** Copilot's hooks; `maxChars`: what counts of one read_file result. */
export function copilotAdapter(maxChars: () => number | undefined): HookAdapter {
  return {
    label: 'GitHub Copilot',
    readHint: "With read_file, read those lines by startLine and endLine (a notebook: with readgate_read, which shows the file's own lines).",
    eventOf(input: unknown): HookEvent {
      if (typeof input !== 'object' || input === null) return { kind: 'none', why: 'the input is not a JSON object' };
      const fields = input as Fields;
      const conversation = text(fields.session_id);
      if (!conversation) return { kind: 'none', why: 'the input names no session_id' };
      switch (fields.hook_event_name) {
        case 'PreToolUse':
        case 'PostToolUse':
          return toolEvent(fields, conversation, maxChars());
        case 'SubagentStart':
        case 'SubagentStop': {
          const agent = text(fields.agent_id);
          const agentType = text(fields.agent_type);
          if (!agent) return { kind: 'none', why: 'a subagent event without agent_id' };
          return {
            kind: fields.hook_event_name === 'SubagentStart' ? 'subagentStart' : 'subagentStop',
            conversation,
            agent,
            ...(agentType ? { agentType } : {}),
          };
        }
        case 'PreCompact':
          return { kind: 'compact', conversation };
        default:
          return { kind: 'none', why: `ReadGate does nothing on ${String(fields.hook_event_name)}` };
      }
    },
    deny: (reason) => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } }),
  };
}
