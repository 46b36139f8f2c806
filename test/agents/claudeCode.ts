/**
 * How the harness runs Claude Code (`claude -p`) against the scripted model: a private HOME and config folder
 * per run, the API at the local server, nothing else on the network (no telemetry, updates, feature flags or
 * error reports), only the given MCP servers (`--strict-mcp-config`), their tools allowed and Claude Code's own
 * file-changing tools denied, so every call runs without a prompt. With `projectConfigOnly` it writes none of
 * that: the project's `.mcp.json` and `.claude/settings*.json` decide, as they would for a user.
 *
 * Claude Code 2.1 defers MCP tools behind `ToolSearch` (their names are listed in the system prompt, their
 * schemas are not sent): the dialect loads a tool with `select:<name>` before the script's first call of it.
 * Subagents are spawned by the `Agent` tool (called `Task` in older versions); a subagent's conversation starts
 * with the prompt that call gave, which is how its requests are told apart from the main agent's.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { CliAdapter } from './cliAdapter';
import type { Dialect } from './modelServer';

const SUBAGENT_TOOLS = new Set(['Agent', 'Task']);
/** How Claude Code 2.1's request to summarize a conversation (auto-compaction, /compact) ends its last user message. */
const COMPACTION_REQUEST = /CRITICAL: Respond with TEXT ONLY\. Do NOT call any tools\./;

export const claudeDialect: Dialect = {
  api: 'anthropic',
  loadCall(conversation, names) {
    return conversation.toolNames.includes('ToolSearch') ? { tool: 'ToolSearch', input: { query: `select:${names.join(',')}` } } : undefined;
  },
  bridgeCall: () => undefined,
  subagentPrompt(call) {
    return SUBAGENT_TOOLS.has(call.name) && typeof call.input.prompt === 'string' ? call.input.prompt : undefined;
  },
  isCompaction(body) {
    const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
    const last = messages[messages.length - 1];
    if (last?.role !== 'user') return false;
    const texts = typeof last.content === 'string' ? [last.content] : Array.isArray(last.content) ? last.content.filter((part) => part?.type === 'text').map((part) => String(part.text)) : [];
    return texts.some((text) => COMPACTION_REQUEST.test(text));
  },
};

/** Environment that keeps Claude Code on the local model server and off everything else. */
const QUIET = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_BUG_COMMAND: '1',
  DISABLE_GROWTHBOOK: '1',
  CLAUDE_CODE_ENABLE_TELEMETRY: '0',
};

export const claudeCode: CliAdapter = {
  dialect: claudeDialect,
  prepare({ baseUrl, home, cwd, prompt, mcpServers, args, env, settings, projectConfigOnly, trustProject }) {
    const configDir = path.join(home, '.claude');
    fs.mkdirSync(configDir, { recursive: true });
    // What accepting the trust dialog in `cwd` once leaves in Claude Code's state file (<config dir>/.claude.json).
    if (trustProject) fs.writeFileSync(path.join(configDir, '.claude.json'), JSON.stringify({ projects: { [fs.realpathSync(cwd)]: { hasTrustDialogAccepted: true } } }, null, 2));
    let mcpArgs: string[] = [];
    if (projectConfigOnly) {
      // The project's .mcp.json and .claude/settings*.json alone: no user settings unless the test gives some.
      if (Object.keys(settings).length) fs.writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify(settings, null, 2));
    } else {
      const mcpConfig = path.join(home, 'mcp.json');
      const servers = Object.fromEntries(Object.entries(mcpServers).map(([name, server]) => [name, { type: 'stdio', ...server }]));
      fs.writeFileSync(mcpConfig, JSON.stringify({ mcpServers: servers }, null, 2));
      const permissions = {
        allow: Object.keys(mcpServers).map((name) => `mcp__${name}`),
        deny: ['Edit', 'Write', 'NotebookEdit', 'Bash'],
      };
      fs.writeFileSync(path.join(configDir, 'settings.json'), JSON.stringify({ permissions, ...settings }, null, 2));
      mcpArgs = ['--mcp-config', mcpConfig, '--strict-mcp-config'];
    }
    return {
      args: ['-p', prompt, '--output-format', 'json', ...mcpArgs, ...args],
      env: {
        ...QUIET,
        CLAUDE_CONFIG_DIR: configDir,
        ANTHROPIC_BASE_URL: baseUrl,
        ANTHROPIC_API_KEY: 'sk-ant-scripted-model',
        ...env,
      },
    };
  },
};
