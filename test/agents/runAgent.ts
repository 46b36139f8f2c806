/**
 * Runs one real agent CLI, non-interactively, against a scripted model server and the given MCP servers (by
 * default ReadGate's headless server on `cwd`), and returns everything the CLI sent to the model.
 *
 * The CLI gets a private home folder and an environment built from scratch (PATH, locale, temp folder and what
 * its adapter adds), so nothing of the machine's own agent configuration or credentials reaches it. The run
 * is killed, with its MCP servers, when it outlives `timeoutMs`.
 */
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { repoRoot } from '../unit/helpers/repoRoot';
import { claudeCode } from './claudeCode';
import type { CliAdapter, HookTrust, McpServer } from './cliAdapter';
import { codexCli } from './codexCli';
import { geminiCli } from './geminiCli';
import { type AgentCli, ensureAgentCli } from './install';
import { ModelServer, type IssuedCall, type RecordedRequest, type ToolResultRecord } from './modelServer';
import { qwenCode } from './qwenCode';
import type { Script } from './script';

const ADAPTERS: Record<AgentCli, CliAdapter> = { claude: claudeCode, qwen: qwenCode, codex: codexCli, gemini: geminiCli };

export interface RunOptions {
  cli: AgentCli;
  cwd: string;
  prompt: string;
  script: Script;
  mcpServers?: Record<string, McpServer>;
  args?: string[];
  env?: Record<string, string>;
  /**
   * Top-level entries for the CLI's user settings file (`tools` for Qwen Code's truncation settings; Codex:
   * config.toml, merged table by table, `null` removing an entry).
   */
  settings?: Record<string, unknown>;
  timeoutMs?: number;
  /**
   * After the CLI exits, how long the processes it left behind (its MCP servers, still ending their sessions) may
   * take to exit by themselves before they are killed, as they would in a user's terminal. Default 0: at once.
   */
  leftBehindMs?: number;
  /** Keep the run's home folder (the CLI's config, transcripts, saved tool results) for inspection. */
  keepHome?: boolean;
  /**
   * Only the project's own configuration (files in `cwd`, as a user would write them) names MCP servers and
   * grants permissions: the adapter writes no MCP configuration, no permission rules and no approval flags of
   * its own, and `mcpServers` is ignored. The run still gets its private home, quiet environment and model.
   */
  projectConfigOnly?: boolean;
  /**
   * The user has trusted `cwd` (Claude Code: accepted its trust dialog there once, recorded as
   * `projects[<cwd>].hasTrustDialogAccepted` in its state file; Gemini CLI: chose "Trust folder", recorded in
   * `~/.gemini/trustedFolders.json`). Claude Code ignores a project's `permissions.allow` rules in a folder not
   * trusted; a headless Gemini CLI exits 55 there.
   */
  trustProject?: boolean;
  /**
   * Shell commands (`sh -c`) run one after another before the CLI, in `cwd`, with the run's environment and
   * the CLI's folder first on PATH, so a guide's set-up steps (`claude mcp add …`, `qwen mcp approve …`) run
   * verbatim against the run's private home. The run goes on whatever they return; see `AgentRun.setup`.
   */
  setupCommands?: string[];
  /**
   * Codex: the user's hooks file, `<CODEX_HOME>/hooks.json` (`{ hooks: { PreToolUse: [{ matcher, hooks: [{ type:
   * "command", command }] }] } }`).
   */
  hooks?: unknown;
  /**
   * Codex: whether the hooks run. `trusted` (default when `hooks` is given): every hook Codex lists for `cwd`
   * (the project's `.codex/hooks.json` too) is recorded as trusted with its current hash, as the user's review in
   * `/hooks` would; `bypass`: `--dangerously-bypass-hook-trust`; `none` (default otherwise): left untrusted
   * (`codex exec` then skips them).
   */
  hookTrust?: HookTrust;
}

export interface SetupOutcome {
  command: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface AgentRun {
  requests: RecordedRequest[];
  /** Each call the script made, with the result text the CLI showed the model. */
  toolResults: ToolResultRecord[];
  /** Every call the model server issued, tool loads included. */
  calls: IssuedCall[];
  scriptErrors: string[];
  exitCode: number | null;
  /** When the CLI exited (ms since the epoch). */
  exitedAt: number;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Removed after the run unless `keepHome` (or READGATE_AGENTS_KEEP_HOME=1). */
  home: string;
  /** What each of `setupCommands` returned. */
  setup: SetupOutcome[];
}

/** ReadGate's headless MCP server on `root`, run by this Node. */
export function readgateServer(root: string, extraArgs: string[] = []): McpServer {
  return { command: process.execPath, args: [path.join(repoRoot, 'dist/mcp.js'), '--root', root, ...extraArgs] };
}

function baseEnv(home: string): Record<string, string> {
  return {
    PATH: [path.dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(path.delimiter),
    HOME: home,
    // ReadGate's own files (discovery, forget markers from hooks) follow the user, not HOME: keep them in the run.
    READGATE_HOME: path.join(home, '.readgate'),
    LANG: 'C.UTF-8',
    TMPDIR: os.tmpdir(),
    TERM: 'dumb',
    NO_COLOR: '1',
  };
}

export async function runAgent(options: RunOptions): Promise<AgentRun> {
  const adapter = ADAPTERS[options.cli];
  const command = ensureAgentCli(options.cli);
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `readgate-agent-${options.cli}-`)));
  const server = new ModelServer(adapter.dialect, options.script, options.prompt);
  const baseUrl = await server.start();
  try {
    const launch = adapter.prepare({
      baseUrl,
      home,
      cwd: options.cwd,
      prompt: options.prompt,
      mcpServers: options.mcpServers ?? { readgate: readgateServer(options.cwd) },
      args: options.args ?? [],
      env: options.env ?? {},
      settings: options.settings ?? {},
      projectConfigOnly: options.projectConfigOnly === true,
      trustProject: options.trustProject === true,
      hooks: options.hooks,
      hookTrust: options.hookTrust,
    });
    const env = { ...baseEnv(home), ...launch.env };
    const setup = (options.setupCommands ?? []).map((line) => runSetup(line, path.dirname(command), env, options.cwd));
    await adapter.beforeRun?.({ command, env, cwd: options.cwd, home, hooks: options.hooks, hookTrust: options.hookTrust });
    const outcome = await run(command, launch.args, env, options.cwd, options.timeoutMs ?? 180_000, options.leftBehindMs ?? 0);
    return { ...outcome, requests: server.requests, toolResults: server.toolResults(), calls: server.calls, scriptErrors: server.scriptErrors, home, setup };
  } finally {
    await server.close();
    if (!options.keepHome && process.env.READGATE_AGENTS_KEEP_HOME !== '1') fs.rmSync(home, { recursive: true, force: true });
  }
}

function runSetup(line: string, cliDir: string, env: Record<string, string>, cwd: string): SetupOutcome {
  const result = spawnSync('sh', ['-c', line], { cwd, env: { ...env, PATH: `${cliDir}${path.delimiter}${env.PATH}` }, encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] });
  return { command: line, status: result.status, stdout: result.stdout ?? '', stderr: result.stderr ?? String(result.error ?? '') };
}

interface Outcome {
  exitCode: number | null;
  exitedAt: number;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs: number, leftBehindMs: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    // Its own process group, so a timeout ends the CLI and the MCP servers it started together.
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    let exitedAt = 0;
    child.on('exit', () => (exitedAt = Date.now()));
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      // MCP servers the CLI left behind
      void groupGone(child.pid, leftBehindMs).then(() => {
        killGroup(child.pid);
        resolve({ exitCode, exitedAt, timedOut, stdout, stderr });
      });
    });
  });
}

/** Waits up to `withinMs` for every process of the group to exit. */
async function groupGone(pid: number | undefined, withinMs: number): Promise<void> {
  const until = Date.now() + withinMs;
  while (pid !== undefined && Date.now() < until && groupAlive(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
