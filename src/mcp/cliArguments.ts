/**
 * The headless server's command line, parsed as a pure function:
 *   node dist/mcp.js --root <dir> [--root <dir>…] [--deny <glob>…] [--no-dedup]
 * Roots are resolved against the working folder; at least one is required.
 */
import * as path from 'path';

export interface CliOptions {
  roots: string[];
  deny: string[];
  dedup: boolean;
}

export const USAGE = `Usage: node dist/mcp.js --root <dir> [--root <dir>…] [--deny <glob>…] [--no-dedup]

ReadGate's guarded file tools (readgate_read, readgate_edit, readgate_multiEdit, readgate_write) as an MCP
server on stdio, for agents on machines without VS Code. One ledger session per process.

  --root <dir>   a folder the agent may read and change (repeatable; the first is where relative paths start)
  --deny <glob>  a path the agent may never read or change, e.g. '**/.env*' (repeatable)
  --no-dedup     always resend content, never the "unchanged" placeholder
  --help         this text
  --version      ReadGate's version

Edits are applied at once: approval is your MCP client's own permission prompt.`;

export type CliParse = { kind: 'run'; options: CliOptions } | { kind: 'help' } | { kind: 'version' } | { kind: 'error'; message: string };

export function parseCliArguments(argv: readonly string[], cwd: string): CliParse {
  const roots: string[] = [];
  const deny: string[] = [];
  let dedup = true;
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const [flag, inline] = argument.startsWith('--') && argument.includes('=') ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)] : [argument, undefined];
    if (flag === '--help' || flag === '-h') return { kind: 'help' };
    if (flag === '--version') return { kind: 'version' };
    if (flag === '--no-dedup') {
      dedup = false;
      continue;
    }
    if (flag === '--root' || flag === '--deny') {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') return { kind: 'error', message: `${flag} needs a value.` };
      if (flag === '--root') roots.push(path.resolve(cwd, value));
      else deny.push(value);
      continue;
    }
    return { kind: 'error', message: `Unknown argument ${JSON.stringify(argument)}.` };
  }
  if (roots.length === 0) return { kind: 'error', message: 'Name at least one folder the agent may work in with --root <dir>.' };
  return { kind: 'run', options: { roots, deny, dedup } };
}
