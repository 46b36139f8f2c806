/**
 * How the harness runs Codex CLI (`codex exec --json`) against the scripted model: a private HOME and
 * CODEX_HOME per run whose `config.toml` names a model provider at the local server (`wire_api = "responses"`,
 * the only wire API Codex 0.171 accepts, a fake key in `env_key`), update checks and analytics off, and the
 * MCP servers, each with `default_tools_approval_mode = "approve"`. Without that, `codex exec` (approval policy
 * `never`) runs only tools annotated read-only: every other MCP call comes back "MCP tool call requires
 * approval, but approval policy is never". With `projectConfigOnly` the user config names no MCP server: the
 * project's `.codex/config.toml` does, which Codex reads only in a trusted project (`trustProject` records
 * `[projects."<cwd>"] trust_level = "trusted"`).
 *
 * The model is `scripted-model`, which Codex does not know: it uses its fallback model metadata, which declares
 * every tool up front (MCP tools in one namespace per server, `mcp__<server>`, holding the server's own tool
 * names) and keeps a tool result within 3,000 tokens of 4 bytes. For a model of its catalog Codex behaves
 * otherwise (MCP tools behind `tool_search` or inside a JavaScript `exec` tool; 12,000 tokens): codexFacts.test.ts.
 *
 * Hooks (`RunOptions.hooks`, written to `<CODEX_HOME>/hooks.json`) run only once trusted: `codex exec` skips an
 * untrusted hook without a word. `hookTrust: 'trusted'` (the default with hooks) records each hook's current hash as a
 * trusted one, `[hooks.state."<key>"] trusted_hash = "sha256:…"`, as reviewing them in Codex's `/hooks` would,
 * with the keys and hashes Codex's own app server lists (`codex app-server`, `hooks/list`); `'bypass'` passes
 * `--dangerously-bypass-hook-trust` instead; `'none'` leaves them untrusted. A project's `.codex/hooks.json` is
 * read only in a trusted project, and its hooks are trusted the same way with `hookTrust: 'trusted'`.
 *
 * Subagents are spawned with `spawn_agent` (`multi_agent_v1` namespace) and a `message`: a subagent's
 * conversation starts with it. Each subagent thread starts MCP servers of its own.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import type { CliAdapter, HookTrust, PrepareOptions } from './cliAdapter';
import type { Dialect } from './modelServer';

export const CODEX_MODEL = 'scripted-model';
const KEY_VARIABLE = 'SCRIPTED_MODEL_API_KEY';

/** Codex's own request for a summary when it compacts a conversation (0.171, a provider without remote compaction). */
const COMPACTION_REQUEST = /^You are performing a CONTEXT CHECKPOINT COMPACTION\./;

export const codexDialect: Dialect = {
  api: 'responses',
  isCompaction(body) {
    const input = (body as { input?: unknown }).input;
    const last = Array.isArray(input) ? (input[input.length - 1] as { role?: string; content?: unknown }) : undefined;
    if (last?.role !== 'user' || !Array.isArray(last.content)) return false;
    return (last.content as { text?: unknown }[]).some((part) => typeof part.text === 'string' && COMPACTION_REQUEST.test(part.text));
  },
  loadCall: () => undefined,
  bridgeCall: () => undefined,
  subagentPrompt(call) {
    if (!/(^|__)spawn_agent$/.test(call.name)) return undefined;
    if (typeof call.input.message === 'string') return call.input.message;
    const items = Array.isArray(call.input.items) ? (call.input.items as { text?: unknown }[]) : [];
    const text = items.map((item) => (typeof item.text === 'string' ? item.text : '')).join('\n');
    return text || undefined;
  },
};

// ---- a small TOML writer: strings, numbers, booleans, arrays of those, and tables ----

type TomlValue = string | number | boolean | TomlValue[] | { [key: string]: TomlValue };
type TomlTable = { [key: string]: TomlValue };

const isTable = (value: unknown): value is TomlTable => typeof value === 'object' && value !== null && !Array.isArray(value);
const tomlKey = (key: string): string => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

function tomlInline(value: TomlValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlInline).join(', ')}]`;
  return `{ ${Object.entries(value).map(([key, inner]) => `${tomlKey(key)} = ${tomlInline(inner)}`).join(', ')} }`;
}

/** A TOML document: a table's plain keys first, then its sub-tables as `[a.b]` sections. */
export function toToml(table: TomlTable, prefix: string[] = []): string {
  const plain = Object.entries(table).filter(([, value]) => !isTable(value));
  const tables = Object.entries(table).filter(([, value]) => isTable(value)) as [string, TomlTable][];
  let out = '';
  if (prefix.length && (plain.length || !tables.length)) out += `\n[${prefix.map(tomlKey).join('.')}]\n`;
  for (const [key, value] of plain) out += `${tomlKey(key)} = ${tomlInline(value)}\n`;
  for (const [key, value] of tables) out += toToml(value, [...prefix, key]);
  return out;
}

/** Merges `extra` into `base` table by table (extra wins; `null` removes a key). */
function merge(base: TomlTable, extra: Record<string, unknown>): TomlTable {
  const out: TomlTable = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    if (value === null) delete out[key];
    else out[key] = isTable(value) && isTable(out[key]) ? merge(out[key] as TomlTable, value) : (value as TomlValue);
  }
  return out;
}

export const codexHome = (home: string): string => path.join(home, '.codex');

export const codexCli: CliAdapter = {
  dialect: codexDialect,
  prepare({ baseUrl, home, cwd, prompt, mcpServers, args, env, settings, projectConfigOnly, trustProject, hooks, hookTrust }: PrepareOptions) {
    const configDir = codexHome(home);
    fs.mkdirSync(configDir, { recursive: true });
    // Codex passes an MCP server only a few variables of its own environment (HOME, PATH, LANG, TMPDIR, TERM…),
    // not READGATE_HOME: the servers get the run's ReadGate home explicitly, so they and the hooks agree.
    const readgateHome = env.READGATE_HOME ?? path.join(home, '.readgate');
    const servers: TomlTable = Object.fromEntries(
      Object.entries(mcpServers).map(([name, server]) => [name, { command: server.command, args: server.args, env: { READGATE_HOME: readgateHome, ...(server.env ?? {}) }, default_tools_approval_mode: 'approve' }]),
    );
    let config: TomlTable = {
      model: CODEX_MODEL,
      model_provider: 'scripted',
      check_for_update_on_startup: false,
      analytics: { enabled: false },
      model_providers: { scripted: { name: 'scripted model', base_url: `${baseUrl}/v1`, wire_api: 'responses', env_key: KEY_VARIABLE } },
      ...(projectConfigOnly ? {} : { mcp_servers: servers }),
      ...(trustProject ? { projects: { [fs.realpathSync(cwd)]: { trust_level: 'trusted' } } } : {}),
    };
    config = merge(config, settings);
    fs.writeFileSync(path.join(configDir, 'config.toml'), toToml(config).trimStart());
    if (hooks !== undefined) fs.writeFileSync(path.join(configDir, 'hooks.json'), JSON.stringify(hooks, null, 2));
    const bypass = trustOf(hooks, hookTrust) === 'bypass' ? ['--dangerously-bypass-hook-trust'] : [];
    return {
      // --strict-config: a key this version does not know fails the run instead of being ignored.
      args: ['exec', '--json', '--skip-git-repo-check', '--strict-config', ...bypass, ...args, prompt],
      env: { CODEX_HOME: configDir, [KEY_VARIABLE]: 'sk-scripted-model', ...env },
    };
  },
  async beforeRun({ command, env, cwd, home, hooks, hookTrust }) {
    if (trustOf(hooks, hookTrust) === 'trusted') await trustHooks(command, env, cwd, codexHome(home));
  },
};

/** The run's hook trust: as given, else `trusted` when the run gives hooks and `none` when not (a project's hooks need `hookTrust: 'trusted'`). */
const trustOf = (hooks: unknown, hookTrust: HookTrust | undefined): HookTrust => hookTrust ?? (hooks !== undefined ? 'trusted' : 'none');

export interface ListedHook {
  key: string;
  eventName: string;
  command?: string;
  matcher?: string | null;
  source: string;
  currentHash: string;
  trustStatus: string;
}

/** The hooks Codex finds for `cwd`, from its app server (`initialize`, then `hooks/list`). */
export function listHooks(command: string, env: Record<string, string>, cwd: string): Promise<ListedHook[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, ['app-server'], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let buffer = '';
    let stderr = '';
    const timer = setTimeout(() => finish(new Error(`codex app-server gave no hooks/list answer in 60 s: ${stderr.slice(-400)}`)), 60_000);
    const finish = (outcome: ListedHook[] | Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const send = (message: object): void => void child.stdin.write(`${JSON.stringify(message)}\n`);
    child.on('error', (error) => finish(error));
    child.stdin.on('error', () => undefined);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let end: number;
      while ((end = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        let message: { id?: number; result?: { data?: { hooks?: ListedHook[] }[] }; error?: unknown };
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (message.id === 1) {
          send({ jsonrpc: '2.0', method: 'initialized', params: {} });
          send({ jsonrpc: '2.0', id: 2, method: 'hooks/list', params: { cwds: [cwd] } });
        } else if (message.id === 2) {
          if (message.error) finish(new Error(`hooks/list failed: ${JSON.stringify(message.error)}`));
          else finish((message.result?.data ?? []).flatMap((entry) => entry.hooks ?? []));
        }
      }
    });
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { clientInfo: { name: 'readgate-agent-tests', version: '1.0.0' } } });
  });
}

/**
 * Trusts every hook Codex lists for `cwd` that is not trusted yet, as the user would in `/hooks`: its current
 * hash goes into config.toml as `[hooks.state."<key>"] trusted_hash`. Then checks that Codex now lists them all
 * as trusted.
 */
export async function trustHooks(command: string, env: Record<string, string>, cwd: string, configDir: string): Promise<void> {
  const untrusted = (await listHooks(command, env, cwd)).filter((hook) => hook.trustStatus !== 'trusted' && hook.trustStatus !== 'managed');
  if (!untrusted.length) return;
  const entries = untrusted.map((hook) => `\n[hooks.state.${JSON.stringify(hook.key)}]\ntrusted_hash = ${JSON.stringify(hook.currentHash)}\n`).join('');
  fs.appendFileSync(path.join(configDir, 'config.toml'), entries);
  const still = (await listHooks(command, env, cwd)).filter((hook) => hook.trustStatus !== 'trusted' && hook.trustStatus !== 'managed');
  if (still.length) throw new Error(`Codex still lists hooks as not trusted: ${still.map((hook) => `${hook.key} (${hook.trustStatus})`).join(', ')}`);
}
