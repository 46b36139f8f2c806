/**
 * How the harness runs Gemini CLI (`gemini -p <prompt> --output-format json`, headless) against the scripted
 * model: a private HOME whose `~/.gemini/settings.json` selects API-key auth (`GEMINI_API_KEY`, a fake key)
 * with `GOOGLE_GEMINI_BASE_URL` at the local server, pins the model (`model.name`: with its default, "auto",
 * every turn first asks a router model for a JSON verdict), and turns off telemetry, usage statistics and
 * update checks. Unless `projectConfigOnly`, it names the MCP servers there too, each with `trust: true` (what
 * runs their tools without a prompt).
 *
 * Gemini CLI 0.61 checks folder trust before anything else: headless, in a folder not trusted it prints why
 * and exits 55, without asking the model or starting a server. A folder is trusted when the user chose "Trust
 * folder" in its dialog, recorded as `{ "<folder>": "TRUST_FOLDER" }` in `~/.gemini/trustedFolders.json`,
 * which `trustProject` writes; without `projectConfigOnly` the harness trusts `cwd` so, too, as its runs need
 * it. `GEMINI_CLI_TRUST_WORKSPACE=true` trusts the folder for one run; `--skip-trust` only passes the check, as
 * the CLI reads the settings before its arguments, so the project's settings stay ignored.
 *
 * MCP tools are declared up front as `mcp_<server>_<tool>`. Subagents are spawned with `invoke_agent`
 * (`{ agent_name, prompt }`).
 */
import * as fs from 'fs';
import * as path from 'path';
import type { CliAdapter } from './cliAdapter';
import type { Dialect } from './modelServer';

/** A model Gemini CLI knows (a 1,048,576-token window), so its limits are the ones a user of it gets. */
export const GEMINI_MODEL = 'gemini-2.5-flash';

export const geminiDialect: Dialect = {
  api: 'gemini',
  loadCall: () => undefined,
  bridgeCall: () => undefined,
  subagentPrompt(call) {
    return call.name === 'invoke_agent' && typeof call.input.prompt === 'string' ? call.input.prompt : undefined;
  },
};

/** Where Gemini CLI keeps the folders the user trusted (or not): `~/.gemini/trustedFolders.json`. */
export const trustedFoldersFile = (home: string): string => path.join(home, '.gemini', 'trustedFolders.json');

export const geminiCli: CliAdapter = {
  dialect: geminiDialect,
  prepare({ baseUrl, home, cwd, prompt, mcpServers, args, env, settings: extra, projectConfigOnly, trustProject }) {
    const settingsDir = path.join(home, '.gemini');
    fs.mkdirSync(settingsDir, { recursive: true });
    const settings = {
      ...(projectConfigOnly ? {} : { mcpServers: Object.fromEntries(Object.entries(mcpServers).map(([name, server]) => [name, { ...server, trust: true }])) }),
      security: { auth: { selectedType: 'gemini-api-key' } },
      model: { name: GEMINI_MODEL },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      ...extra,
    };
    fs.writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify(settings, null, 2));
    if (trustProject || !projectConfigOnly) fs.writeFileSync(trustedFoldersFile(home), JSON.stringify({ [fs.realpathSync(cwd)]: 'TRUST_FOLDER' }, null, 2));
    return {
      args: ['-p', prompt, '--output-format', 'json', ...args],
      env: {
        GOOGLE_GEMINI_BASE_URL: baseUrl,
        GEMINI_API_KEY: 'scripted-model-key',
        GEMINI_TELEMETRY_ENABLED: 'false',
        ...env,
      },
    };
  },
};
