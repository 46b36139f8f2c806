/**
 * The bridge's command line, parsed as a pure function:
 *   node mcp-bridge.js [--cwd <dir>]                       relay stdio to the window for the folder
 *   node mcp-bridge.js --list [--cwd <dir>]                where it looks, the windows, and which one it picks
 *   node mcp-bridge.js --forget [--client <name>] [--cwd <dir>]
 *   (`setup …` and `hook …` are dispatched before this parse: src/mcp/setup, hookEntry.ts)
 */
import * as path from 'path';

export const BRIDGE_USAGE = `Usage: node mcp-bridge.js [--cwd <dir>]
       node mcp-bridge.js --list [--cwd <dir>]
       node mcp-bridge.js --forget [--client <name>] [--cwd <dir>]
       node mcp-bridge.js setup <target> [--project <dir>] [--dry-run]

ReadGate's stdio MCP server for agents outside VS Code (Claude Code, Codex, Cline…): it relays every message to
the MCP server of the VS Code window whose workspace holds the working folder, so the agent's edits go through
that window's ReadGate (its ledger, its review panel, the editors' unsaved text). Turn the window's server on with
"ReadGate: Connect an External Agent…".

  --cwd <dir>        the agent's folder (default: the working folder)
  --list             say where the bridge looks, which windows it finds and which one it would pick; exits 1
                     when no window holds the folder
  --forget           tell the windows for this folder that the client's context was compacted or cleared (run
                     it from the client's hooks); they forget what that client had read
  --client <name>    with --forget: only that client's sessions (its MCP name, e.g. claude-code)
  --help             this text
  setup <target>     set an agent up in a project folder (setup --help lists the targets)

The bridge ends its window session when its input ends or on SIGINT, SIGTERM or SIGHUP.`;

export type BridgeParse =
  { kind: 'relay' | 'list'; cwd: string } | { kind: 'forget'; cwd: string; client?: string } | { kind: 'help' } | { kind: 'error'; message: string };

/** `argv` after the script's path; `cwd` is where relative folders start. */
export function parseBridgeArguments(argv: readonly string[], cwd: string): BridgeParse {
  let folder = cwd;
  let list = false;
  let forget = false;
  let client: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    if (argument === '--help' || argument === '-h') return { kind: 'help' };
    if (argument === '--list') list = true;
    else if (argument === '--forget') forget = true;
    else if (argument === '--cwd' || argument === '--client') {
      const value = argv[++i];
      if (value === undefined || value === '') return { kind: 'error', message: `${argument} needs a value.` };
      if (argument === '--cwd') folder = path.resolve(cwd, value);
      else client = value;
    } else return { kind: 'error', message: `Unknown argument ${JSON.stringify(argument)}.` };
  }
  if (forget) return { kind: 'forget', cwd: folder, ...(client ? { client } : {}) };
  return { kind: list ? 'list' : 'relay', cwd: folder };
}
