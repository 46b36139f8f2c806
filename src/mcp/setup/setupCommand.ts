/**
 * `node mcp-bridge.js setup <target>` and `node dist/mcp.js setup <target> --root <dir> …`: merges the agent's
 * project settings (the targets' pure merges), writes them atomically, and prints each change and what to run
 * next. A settings file it cannot read as the agent's settings is refused untouched (exit 2): guessing at a
 * user's file could drop their rules.
 */
import * as fs from 'fs';
import * as path from 'path';
import { claudeCodeTarget } from './claudeCode';
import { readSettingsFile, writeFileAtomic } from './settingsFile';
import { parseSetupArguments, type SetupProgram } from './setupArguments';
import type { Launch, SetupTarget } from './setupTarget';

export const SETUP_TARGETS: Readonly<Record<string, SetupTarget>> = {
  'claude-code': claudeCodeTarget,
};

export interface SetupIo {
  out(text: string): void;
  err(text: string): void;
}

const PROGRAMS: Record<SetupProgram, { name: string; usage: string }> = {
  bridge: { name: 'readgate-mcp-bridge', usage: 'node mcp-bridge.js setup <target> [--project <dir>] [--dry-run]' },
  server: { name: 'readgate-mcp', usage: 'node dist/mcp.js setup <target> --root <dir> [--root <dir>…] [--deny <glob>…] [--max-read-chars <n>] [--placeholders] [--history <dir>] [--dry-run]' },
};

function helpText(program: SetupProgram, target: string | undefined): string {
  const usage = `Usage: ${PROGRAMS[program].usage}`;
  if (target === undefined) {
    const targets = Object.entries(SETUP_TARGETS).map(([name, each]) => `  ${name.padEnd(14)}${each.summary}`);
    return [usage, '', 'Sets an agent up to work through ReadGate in a project folder. Targets:', ...targets, '', `"setup <target> --help" says what a target writes.`].join('\n');
  }
  const project =
    program === 'bridge'
      ? '  --project <dir>  the project folder (default: the working folder)'
      : '  --root <dir>     the project folder (the first root) and every folder the agent may work in; the other\n                   options are the server\'s (node dist/mcp.js --help), passed on to it in the claude mcp add line';
  return [usage.replace('<target>', target), '', SETUP_TARGETS[target].help, '', project, '  --dry-run        print the resulting settings file and change nothing', '  --help           this text'].join('\n');
}

/** What the merge changed, then what to run next. */
function report(file: string, changes: readonly string[], notes: readonly string[], written: 'wrote' | 'dry-run'): string[] {
  const head = changes.length === 0 ? [`${file}: already set up: nothing to change`] : [written === 'wrote' ? `Wrote ${file}:` : `Would write ${file} (--dry-run: nothing was written):`, ...changes.map((change) => `  ${change}`)];
  return [...head, ...notes.map((note) => `Note: ${note}.`)];
}

function readJsonQuietly(file: string): unknown {
  const read = readSettingsFile(file);
  return read.ok ? read.value : undefined;
}

/** Runs `setup` with `argv` after the word `setup`; `script` is the absolute path of the script that runs it. */
export function runSetup(argv: readonly string[], program: SetupProgram, script: string, cwd: string, io: SetupIo): number {
  const fail = (message: string, code = 2): number => (io.err(`${PROGRAMS[program].name}: ${message}\n`), code);
  const parsed = parseSetupArguments(argv, program, cwd, Object.keys(SETUP_TARGETS));
  if (parsed.kind === 'help') return io.out(`${helpText(program, parsed.target)}\n`), 0;
  if (parsed.kind === 'error') return fail(`${parsed.message}\n\n${helpText(program, parsed.target).split('\n')[0]}`);
  if (!fs.statSync(parsed.project, { throwIfNoEntry: false })?.isDirectory()) return fail(`${parsed.project} is not a folder.`);
  const target = SETUP_TARGETS[parsed.target];
  const file = path.join(parsed.project, target.file);
  const launch: Launch = { script, args: parsed.args };
  const read = readSettingsFile(file);
  if (!read.ok) return fail(`${file} ${read.problem}. Nothing was changed: fix the file (or move it away) and run this again.`);
  const merged = target.merge(read.value, launch);
  if (!merged.ok) return fail(`${file} is not a settings file this can merge: ${merged.problem}. Nothing was changed: fix the file (or move it away) and run this again.`);
  const text = `${JSON.stringify(merged.settings, null, 2)}\n`;
  if (parsed.dryRun) {
    io.out([...report(file, merged.changes, merged.notes, 'dry-run'), '', text, ''].join('\n'));
  } else {
    if (merged.changes.length > 0) {
      try {
        writeFileAtomic(file, text);
      } catch (error) {
        return fail(`could not write ${file}: ${(error as Error).message}`, 1);
      }
    }
    io.out(`${report(file, merged.changes, merged.notes, 'wrote').join('\n')}\n\n`);
  }
  io.out(`${target.nextSteps(launch, parsed.project, (name) => readJsonQuietly(path.join(parsed.project, name))).join('\n')}\n`);
  return 0;
}

/** The script as the agent will start it: the path it was run by, made absolute (a copy in ~/.readgate stays that copy). */
export function scriptPath(argv1: string | undefined, fallback: string): string {
  const resolved = argv1 ? path.resolve(argv1) : fallback;
  return fs.existsSync(resolved) ? resolved : fallback;
}

/** The subcommand for `process.argv` (`node <script> setup …`). */
export function setupMain(program: SetupProgram, argv: readonly string[] = process.argv): number {
  const io = { out: (text: string) => void process.stdout.write(text), err: (text: string) => void process.stderr.write(text) };
  return runSetup(argv.slice(3), program, scriptPath(argv[1], __filename), process.cwd(), io);
}
