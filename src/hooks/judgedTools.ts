/**
 * Which of a client's hook events ReadGate judges, known without loading anything else, so the hook process of
 * any other tool call exits at once without asking the window. The adapters (`copilotHooks.ts`) turn these into
 * the guard's calls; a tool not listed here is never judged.
 */

/** Copilot's (VS Code's agent mode) own tools that read or change files, by the name its hooks give. */
export const COPILOT_READS: ReadonlySet<string> = new Set(['read_file']);
export const COPILOT_CHANGES: ReadonlySet<string> = new Set([
  'replace_string_in_file',
  'multi_replace_string_in_file',
  'insert_edit_into_file',
  'create_file',
  'apply_patch',
  'edit_notebook_file',
]);

/** Claude Code's own file tools. */
export const CLAUDE_READS: ReadonlySet<string> = new Set(['Read']);
export const CLAUDE_CHANGES: ReadonlySet<string> = new Set(['Edit', 'Write', 'NotebookEdit']);

/** Codex's: it reads with its shell (its hooks name `exec_command` `Bash`) and edits with `apply_patch`. */
export const CODEX_SHELL: ReadonlySet<string> = new Set(['Bash']);
export const CODEX_CHANGES: ReadonlySet<string> = new Set(['apply_patch']);

/** Gemini CLI's (its hooks' events are BeforeTool and AfterTool); `invoke_agent` runs a subagent. */
export const GEMINI_READS: ReadonlySet<string> = new Set(['read_file']);
export const GEMINI_CHANGES: ReadonlySet<string> = new Set(['replace', 'write_file']);
export const GEMINI_AGENTS: ReadonlySet<string> = new Set(['invoke_agent']);

/** Qwen Code's. */
export const QWEN_READS: ReadonlySet<string> = new Set(['read_file']);
export const QWEN_CHANGES: ReadonlySet<string> = new Set(['edit', 'write_file', 'notebook_edit']);

/** Events about the agent's contexts, which the window must hear whatever the tool. */
const CONTEXT_EVENTS: ReadonlySet<string> = new Set(['SubagentStart', 'SubagentStop', 'PreCompact']);
/** A session's start matters only when it follows a compaction or a clear: the context forgot what it saw. */
const FORGETTING_STARTS: ReadonlySet<string> = new Set(['compact', 'clear']);

const CLIENT_TOOLS: Record<string, (tool: string) => boolean> = {
  copilot: (tool) => COPILOT_READS.has(tool) || COPILOT_CHANGES.has(tool),
  'claude-code': (tool) => CLAUDE_READS.has(tool) || CLAUDE_CHANGES.has(tool),
  codex: (tool) => CODEX_SHELL.has(tool) || CODEX_CHANGES.has(tool),
  'gemini-cli': (tool) => GEMINI_READS.has(tool) || GEMINI_CHANGES.has(tool) || GEMINI_AGENTS.has(tool),
  'qwen-code': (tool) => QWEN_READS.has(tool) || QWEN_CHANGES.has(tool),
};

/** A shell call matters only when it reads one file the guard can follow: any other command ends at once. */
function followed(client: string, tool: unknown, input: { tool_input?: unknown }): boolean {
  if (client !== 'codex' || !CODEX_SHELL.has(String(tool))) return true;
  const command = (input.tool_input as { command?: unknown } | undefined)?.command;
  // Loaded only for such a call: every other hook process ends without it.
  return typeof command === 'string' && (require('./shellReads') as typeof import('./shellReads')).shellRead(command) !== undefined;
}

/** VS Code runs a project's Claude Code hooks for Copilot too: its calls (ids ending `__vscode-<n>`) are Copilot's hook's. */
const foreignTo = (client: string, fields: { tool_use_id?: unknown }): boolean =>
  client !== 'copilot' && typeof fields.tool_use_id === 'string' && /__vscode-\d+$/.test(fields.tool_use_id);

/** Whether the window must hear this input: a judged tool's call before or after it runs, or a context event. */
export function needsWindow(client: string, input: unknown): boolean {
  const judged = CLIENT_TOOLS[client];
  if (!judged || typeof input !== 'object' || input === null) return false;
  const { hook_event_name: event, tool_name: tool, source } = input as { hook_event_name?: unknown; tool_name?: unknown; source?: unknown };
  if (foreignTo(client, input as { tool_use_id?: unknown })) return false;
  if (event === 'PreToolUse' || event === 'PostToolUse' || event === 'BeforeTool' || event === 'AfterTool') {
    return typeof tool === 'string' && judged(tool) && followed(client, tool, input as { tool_input?: unknown });
  }
  if (event === 'SessionStart') return typeof source === 'string' && FORGETTING_STARTS.has(source);
  return typeof event === 'string' && CONTEXT_EVENTS.has(event);
}
