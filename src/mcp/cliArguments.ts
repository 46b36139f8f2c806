/**
 * The headless server's command line, parsed as a pure function:
 *   node dist/mcp.js --root <dir> [--root <dir>…] [--deny <glob>…] [--max-read-chars <n>] [--placeholders] [--history <dir>]
 *   node dist/mcp.js --forget [--client <name>] [--cwd <dir>]
 *   (`node dist/mcp.js setup …` is dispatched before this parse: src/mcp/setup)
 * Roots are resolved against the working folder; at least one is required to serve.
 */
import * as path from 'path';

export interface CliOptions {
  roots: string[];
  deny: string[];
  /** `--no-dedup`: never a placeholder, even with `--placeholders`. */
  dedup: boolean;
  /** `--placeholders`: the client keeps one agent context per connection. */
  placeholders: boolean;
  /** `--max-read-chars`: the most one result may hold, whatever the client (undefined: by client). */
  maxResultChars?: number;
  /** `--history`: the folder that keeps a record of every applied change (read and revert it with dist/core.js). */
  history?: string;
}

export interface ForgetOptions {
  folder: string;
  client?: string;
}

export const USAGE = `Usage: node dist/mcp.js --root <dir> [--root <dir>…] [--deny <glob>…] [--max-read-chars <n>] [--placeholders] [--history <dir>]
       node dist/mcp.js --forget [--client <name>] [--cwd <dir>]
       node dist/mcp.js setup claude-code|codex --root <dir> [the options above] [--dry-run]

ReadGate's guarded file tools (readgate_read, readgate_edit, readgate_multiEdit, readgate_write, readgate_applyPatch) as an MCP
server on stdio, for agents on machines without VS Code. One ledger session per process.

  --root <dir>          a folder the agent may read and change (repeatable; the first is where relative paths start)
  --deny <glob>         a path the agent may never read or change, e.g. '**/.env*' (repeatable)
  --max-read-chars <n>  the most characters one result may hold, 2000 to 500000 (default: what the client
                        shows, by its name; 8,000 for clients ReadGate does not know)
  --placeholders        answer a repeated read of unchanged lines with a short placeholder; only for clients
                        that keep one agent context per connection (no subagents sharing it)
  --no-dedup            never the placeholder (the default)
  --history <dir>       keep a record of every change applied, with the bytes before and after, in <dir> (200 MB,
                        30 days); list and revert them with dist/core.js (createGuard({ history: { dir } })):
                        undo is yours, the agent gets no revert tool
  --forget              tell running ReadGate servers for this folder that the client's context was compacted
                        or cleared (run it from the client's hooks); they forget what that client had read
  --client <name>       with --forget: only that client's sessions (its MCP name, e.g. claude-code)
  --cwd <dir>           with --forget: the folder (default: the working folder)
  --help                this text
  --version             ReadGate's version
  setup claude-code     write the project's .claude/settings.json for this server and print the claude mcp add
                        line that starts it with these options (setup --help)
  setup codex           merge the server, started with these options, into the project's .codex/config.toml
                        (--user: ~/.codex/config.toml)

Edits are applied at once: approval is your MCP client's own permission prompt.`;

export type CliParse =
  | { kind: 'run'; options: CliOptions }
  | { kind: 'forget'; options: ForgetOptions }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

const WITH_VALUE = new Set(['--root', '--deny', '--max-read-chars', '--client', '--cwd', '--history']);

export function parseCliArguments(argv: readonly string[], cwd: string): CliParse {
  const roots: string[] = [];
  const deny: string[] = [];
  let dedup = true;
  let placeholders = false;
  let forget = false;
  let maxResultChars: number | undefined;
  let client: string | undefined;
  let folder = cwd;
  let history: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const [flag, inline] =
      argument.startsWith('--') && argument.includes('=')
        ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)]
        : [argument, undefined];
    if (flag === '--help' || flag === '-h') return { kind: 'help' };
    if (flag === '--version') return { kind: 'version' };
    if (flag === '--no-dedup' || flag === '--placeholders' || flag === '--forget') {
      if (flag === '--no-dedup') dedup = false;
      else if (flag === '--placeholders') placeholders = true;
      else forget = true;
      continue;
    }
    if (!WITH_VALUE.has(flag)) return { kind: 'error', message: `Unknown argument ${JSON.stringify(argument)}.` };
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') return { kind: 'error', message: `${flag} needs a value.` };
    if (flag === '--root') roots.push(path.resolve(cwd, value));
    else if (flag === '--deny') deny.push(value);
    else if (flag === '--client') client = value;
    else if (flag === '--cwd') folder = path.resolve(cwd, value);
    else if (flag === '--history') history = path.resolve(cwd, value);
    else {
      const chars = Number(value);
      // Beyond 500,000 a single result outgrows what clients take in one message (1 MiB SSE events).
      if (!Number.isInteger(chars) || chars < 2000 || chars > 500_000) {
        return { kind: 'error', message: `--max-read-chars needs a whole number from 2000 to 500000, not ${JSON.stringify(value)}.` };
      }
      maxResultChars = chars;
    }
  }
  if (forget) return { kind: 'forget', options: { folder: roots[0] ?? folder, ...(client ? { client } : {}) } };
  if (roots.length === 0) return { kind: 'error', message: 'Name at least one folder the agent may work in with --root <dir>.' };
  return {
    kind: 'run',
    options: { roots, deny, dedup, placeholders, ...(maxResultChars !== undefined ? { maxResultChars } : {}), ...(history ? { history } : {}) },
  };
}
