/** What the driver needs from each agent CLI: its model dialect and how to start it for one run. */
import type { Dialect } from './modelServer';

/** A stdio MCP server as the CLIs' configurations name one. */
export interface McpServer {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

export interface PrepareOptions {
  /** The scripted model server, `http://127.0.0.1:<port>`. */
  baseUrl: string;
  /** A private, empty home folder for this run: the CLI keeps its config and state there. */
  home: string;
  cwd: string;
  prompt: string;
  mcpServers: Record<string, McpServer>;
  /** Extra command-line arguments from the test. */
  args: string[];
  /** Extra environment from the test (wins over the adapter's). */
  env: Record<string, string>;
  /** Extra top-level entries of the CLI's user settings file (win over the adapter's). */
  settings: Record<string, unknown>;
  /** Configure no MCP servers, permissions or approval flags: the project's own files do (RunOptions.projectConfigOnly). */
  projectConfigOnly: boolean;
  /** Record that the user trusted `cwd`, where the CLI keeps that (RunOptions.trustProject). */
  trustProject: boolean;
  /** The CLI's user hooks file (Codex: `<CODEX_HOME>/hooks.json`), as RunOptions.hooks gives it. */
  hooks?: unknown;
  /** Whether and how those hooks are trusted (RunOptions.hookTrust). */
  hookTrust?: HookTrust;
}

/** `trusted`: recorded as reviewed by the user; `bypass`: the CLI's flag that runs hooks unreviewed; `none`: neither. */
export type HookTrust = 'trusted' | 'bypass' | 'none';

/** What an adapter may still do after the set-up commands, just before the CLI starts. */
export interface BeforeRun {
  /** The CLI's command. */
  command: string;
  /** The run's whole environment. */
  env: Record<string, string>;
  cwd: string;
  home: string;
  hooks?: unknown;
  hookTrust?: HookTrust;
}

export interface CliAdapter {
  dialect: Dialect;
  /** Writes the run's config files under `home` and returns the CLI's arguments and environment additions. */
  prepare(options: PrepareOptions): { args: string[]; env: Record<string, string> };
  /** Steps that need the CLI itself (Codex: trusting the run's hooks through its app server). */
  beforeRun?(context: BeforeRun): Promise<void>;
}
