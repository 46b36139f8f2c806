/**
 * The `setup` subcommand's command line, parsed as a pure function:
 *   node mcp-bridge.js setup <target> [--own-tools] [--project <dir>] [--user] [--dry-run]
 *   node dist/mcp.js setup <target> [--own-tools] --root <dir> [--root <dir>…] [server options] [--user] [--dry-run]
 * The bridge's project is `--project` or the working folder; the headless server's is its first root, and its
 * other options are checked as the server checks them, since the agent will start the server with them.
 */
import * as path from 'path';
import { parseCliArguments, type CliOptions } from '../cliArguments';

/** Which script runs `setup`: the stdio bridge to a VS Code window, or the headless server. */
export type SetupProgram = 'bridge' | 'server';

export type SetupParse =
  | { kind: 'run'; target: string; project: string; dryRun: boolean; user: boolean; ownTools: boolean; args: string[] }
  | { kind: 'help'; target?: string }
  | { kind: 'error'; message: string; target?: string };

/** The server options as the agent's launch passes them: roots and the history folder absolute. */
export function serverArguments(options: CliOptions): string[] {
  return [
    ...options.roots.flatMap((root) => ['--root', root]),
    ...options.deny.flatMap((glob) => ['--deny', glob]),
    ...(options.maxResultChars !== undefined ? ['--max-read-chars', String(options.maxResultChars)] : []),
    ...(options.placeholders ? ['--placeholders'] : []),
    ...(options.dedup ? [] : ['--no-dedup']),
    ...(options.history ? ['--history', options.history] : []),
  ];
}

/** Options of the server that mean something else than serving (`--forget` and its companions). */
const NOT_FOR_SETUP = new Set(['--forget', '--client', '--cwd', '--version']);

function serverLaunch(rest: readonly string[], cwd: string): { project: string; args: string[] } | string {
  const unfit = rest.find((argument) => NOT_FOR_SETUP.has(argument.split('=')[0]));
  if (unfit) return `${unfit.split('=')[0]} is not an option of setup.`;
  const parsed = parseCliArguments(rest, cwd);
  if (parsed.kind === 'error') return parsed.message;
  if (parsed.kind !== 'run') return 'Name the project with --root <dir>.';
  return { project: parsed.options.roots[0], args: serverArguments(parsed.options) };
}

export function parseSetupArguments(argv: readonly string[], program: SetupProgram, cwd: string, targets: readonly string[]): SetupParse {
  const [target, ...options] = argv;
  if (target === '--help' || target === '-h') return { kind: 'help' };
  if (target === undefined || target.startsWith('-')) return { kind: 'error', message: `Name what to set up: ${targets.join(', ')}.` };
  if (!targets.includes(target)) return { kind: 'error', message: `Unknown set-up target ${JSON.stringify(target)}. Known: ${targets.join(', ')}.` };
  if (options.includes('--help') || options.includes('-h')) return { kind: 'help', target };
  const dryRun = options.includes('--dry-run');
  // --user: the agent's own settings file for this user instead of the project's.
  const user = options.includes('--user');
  // --own-tools: the agent keeps its own file tools, judged through its hooks.
  const ownTools = options.includes('--own-tools');
  const rest = options.filter((argument) => argument !== '--dry-run' && argument !== '--user' && argument !== '--own-tools');
  if (program === 'server') {
    const launch = serverLaunch(rest, cwd);
    return typeof launch === 'string' ? { kind: 'error', message: launch, target } : { kind: 'run', target, dryRun, user, ownTools, ...launch };
  }
  let project = cwd;
  for (let i = 0; i < rest.length; i++) {
    const [flag, inline] = rest[i].startsWith('--project=') ? ['--project', rest[i].slice('--project='.length)] : [rest[i], undefined];
    if (flag !== '--project') return { kind: 'error', message: `Unknown argument ${JSON.stringify(rest[i])}.`, target };
    const value = inline ?? rest[++i];
    if (!value) return { kind: 'error', message: '--project needs a value.', target };
    project = path.resolve(cwd, value);
  }
  return { kind: 'run', target, project, dryRun, user, ownTools, args: [] };
}
