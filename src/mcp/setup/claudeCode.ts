/**
 * `setup claude-code`: the project's `.claude/settings.json` (claudeSettings.ts), then the `claude mcp add` line
 * that makes ReadGate the project's MCP server. That line is printed, not run: `claude` may not be on this PATH,
 * and adding a server to `.mcp.json` is the user's choice to commit.
 */
import * as path from 'path';
import { shellWord } from '../shellWord';
import { mergeClaudeOwnTools, mergeClaudeSettings, OWN_TOOLS_MATCHER } from './claudeSettings';
import { ownToolsHookCommand } from './ownToolsHooks';
import { parseSettingsText } from './settingsFile';
import type { FileMerge, Launch, SetupTarget } from './setupTarget';

/** The command a hook runs: ReadGate's `hook` subcommand of the script that ran `setup`. */
export function claudeHookCommand(launch: Launch): string {
  return `node ${shellWord(launch.script)} hook`;
}

/** What the user runs in the project folder to add ReadGate to its `.mcp.json`. */
export function claudeMcpAddLine(launch: Launch): string {
  return `claude mcp add --scope project readgate -- ${['node', launch.script, ...launch.args].map(shellWord).join(' ')}`;
}

/** What `.mcp.json` already says about a "readgate" server: nothing, this very launch, or another one. */
function mcpJsonEntry(mcpJson: unknown, launch: Launch): 'none' | 'same' | 'other' {
  const server = (mcpJson as { mcpServers?: Record<string, { command?: unknown; args?: unknown }> } | undefined)?.mcpServers?.readgate;
  if (server === undefined || server === null) return 'none';
  return server.command === 'node' && JSON.stringify(server.args) === JSON.stringify([launch.script, ...launch.args]) ? 'same' : 'other';
}

/** Claude Code ignores a project's allow rules (its deny rules apply) until the user trusted the folder. */
export const CLAUDE_TRUST_NOTE =
  "Claude Code applies a project's allow rules only once you accepted its trust dialog in the folder: start claude there once and accept it. Until then a single `claude -p` needs --allowedTools mcp__readgate.";

/** The settings file's text merged (pretty-printed JSON), or why it cannot be. */
function mergeSettingsText(text: string | undefined, launch: Launch): FileMerge {
  const read = parseSettingsText(text);
  if (!read.ok) return read;
  const merged = mergeClaudeSettings(read.value, claudeHookCommand(launch));
  if (!merged.ok) return { ok: false, problem: `is not a settings file this can merge: ${merged.problem}` };
  return { ok: true, text: `${JSON.stringify(merged.settings, null, 2)}\n`, changes: merged.changes, notes: merged.notes };
}

export const claudeCodeTarget: SetupTarget = {
  get ownTools() {
    return claudeCodeOwnToolsTarget;
  },
  summary: 'Claude Code: .claude/settings.json (ReadGate allowed, its own Edit, Write and NotebookEdit denied, hooks)',
  help: `Writes or merges <project>/.claude/settings.json so that Claude Code works through ReadGate:
  - permissions.allow gets mcp__readgate (Claude Code refuses every MCP call, reads too, until it is allowed);
  - permissions.deny gets Edit, Write and NotebookEdit, Claude Code's own file-editing tools;
  - hooks run this script's "hook" command (PreToolUse of ReadGate's tools, SubagentStop, PreCompact, and
    SessionStart after compact or clear), so ReadGate knows which of Claude Code's agents a call comes from
    and when a conversation was compacted or cleared.
Your other settings stay as they are, and ReadGate's earlier hooks are updated in place: running it again
changes nothing. Then it prints the "claude mcp add" line that adds ReadGate as the project's MCP server.`,
  file: path.join('.claude', 'settings.json'),
  merge: mergeSettingsText,
  nextSteps: (launch, { project }, readJson) => {
    const entry = mcpJsonEntry(readJson('.mcp.json'), launch);
    const intro = {
      none: `Next, in ${project}, add ReadGate as the project's MCP server (this writes .mcp.json):`,
      same: `${path.join(project, '.mcp.json')} already starts ReadGate this way (nothing to run); it was added with:`,
      other: `${path.join(project, '.mcp.json')} has another "readgate" server: remove it (claude mcp remove --scope project readgate), then, in ${project}:`,
    }[entry];
    return [intro, '', `  ${claudeMcpAddLine(launch)}`, '', CLAUDE_TRUST_NOTE];
  },
};

function mergeOwnToolsText(text: string | undefined, launch: Launch): FileMerge {
  const read = parseSettingsText(text);
  if (!read.ok) return read;
  const merged = mergeClaudeOwnTools(read.value, ownToolsHookCommand(launch));
  if (!merged.ok) return { ok: false, problem: `is not a settings file this can merge: ${merged.problem}` };
  return { ok: true, text: `${JSON.stringify(merged.settings, null, 2)}\n`, changes: merged.changes, notes: merged.notes };
}

/** `setup claude-code --own-tools`: Claude Code keeps its own file tools, judged through its hooks. */
export const claudeCodeOwnToolsTarget: SetupTarget = {
  summary: 'Claude Code with its own tools: .claude/settings.json hooks that let ReadGate judge Read, Edit, Write and NotebookEdit',
  help: `With --own-tools: writes or merges <project>/.claude/settings.json so that Claude Code keeps its own
Read, Edit, Write and NotebookEdit, and ReadGate judges every call of them through its hooks:
  - PreToolUse and PostToolUse of ${OWN_TOOLS_MATCHER} run this script's "hook --own-tools": a Read counts for
    the lines it returned, and an Edit, Write or NotebookEdit of lines Claude Code was not shown, or that
    changed since it read them, is denied with what changed; after it, the change is on record;
  - SubagentStop, PreCompact and SessionStart (compact, clear) tell ReadGate when a context ends or forgets;
  - a deny rule for Edit, Write or NotebookEdit (ReadGate's earlier set-up added them) is taken out.
No MCP server is needed. Your other settings stay as they are, and running it again changes nothing.`,
  file: path.join('.claude', 'settings.json'),
  merge: mergeOwnToolsText,
  nextSteps: (launch) => [
    launch.args.length
      ? "Claude Code's own file tools are judged by the ReadGate window on the project folder, or, with none open, by ReadGate's headless guard on the folders above."
      : "Claude Code's own file tools are judged by the ReadGate window on the project folder (a VS Code window with ReadGate); with none open they are allowed.",
    "Claude Code runs a project's hooks once you accepted its trust dialog in the folder: start claude there once and accept it. A change ReadGate allows still needs Claude Code's own permission (its prompt, or an allow rule such as Edit).",
  ],
};
