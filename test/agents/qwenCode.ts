/**
 * How the harness runs Qwen Code (one-shot `qwen "<prompt>"`) against the scripted model: OpenAI-compatible
 * auth at the local server, a private HOME whose `~/.qwen/settings.json` names the MCP servers and turns off
 * telemetry and usage statistics, every tool approved (`--approval-mode yolo`) but Qwen's own file-changing
 * tools excluded. With `projectConfigOnly` the user settings name no MCP server and no approval flag is given:
 * the project's `.qwen/settings.json` and the test's own arguments decide.
 *
 * Qwen Code 0.24 declares MCP tools lazily: their names and shortened descriptions are listed in a system
 * reminder, `tool_search` shows their schemas, and `tool_call` runs them ({ name, arguments }). The dialect
 * does both for a script's call of such a tool.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { CliAdapter } from './cliAdapter';
import type { Dialect } from './modelServer';

const SUBAGENT_TOOLS = new Set(['task', 'agent', 'Agent']);
const MODEL = 'scripted-model';

export const qwenDialect: Dialect = {
  api: 'openai',
  loadCall(conversation, names) {
    return conversation.toolNames.includes('tool_search') ? { tool: 'tool_search', input: { query: `select:${names.join(',')}` } } : undefined;
  },
  bridgeCall(conversation, name, input) {
    return conversation.toolNames.includes('tool_call') ? { tool: 'tool_call', input: { name, arguments: input } } : undefined;
  },
  subagentPrompt(call) {
    return SUBAGENT_TOOLS.has(call.name) && typeof call.input.prompt === 'string' ? call.input.prompt : undefined;
  },
};

export const qwenCode: CliAdapter = {
  dialect: qwenDialect,
  prepare({ baseUrl, home, prompt, mcpServers, args, env, settings: extra, projectConfigOnly }) {
    const settingsDir = path.join(home, '.qwen');
    fs.mkdirSync(settingsDir, { recursive: true });
    const settings = {
      // With projectConfigOnly the project's .qwen/settings.json names the servers; user settings only the model.
      ...(projectConfigOnly ? {} : { mcpServers: Object.fromEntries(Object.entries(mcpServers).map(([name, server]) => [name, { ...server, trust: true }])) }),
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      security: { auth: { selectedType: 'openai' } },
      model: { name: MODEL },
      ...extra,
    };
    fs.writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify(settings, null, 2));
    const approval = projectConfigOnly ? [] : ['--approval-mode', 'yolo'];
    const exclude = projectConfigOnly ? [] : ['--exclude-tools', 'edit', 'write_file', 'run_shell_command'];
    return {
      args: [prompt, '--auth-type', 'openai', '--model', MODEL, ...approval, '--output-format', 'json', ...exclude, ...args],
      env: {
        OPENAI_BASE_URL: `${baseUrl}/v1`,
        OPENAI_API_KEY: 'sk-scripted-model',
        OPENAI_MODEL: MODEL,
        QWEN_CODE_SUPPRESS_YOLO_WARNING: '1',
        ...env,
      },
    };
  },
};
