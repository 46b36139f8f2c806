/**
 * `node mcp-bridge.js setup <target>` and `node dist/mcp.js setup <target> --root <dir> …`: merges the agent's
 * project settings, or with `--user` the user's (the targets' pure merges), writes them atomically, and prints
 * each change and what to run next. A settings file it cannot read as the agent's settings is refused untouched
 * (exit 2): guessing at a user's file could drop their rules.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { claudeCodeTarget } from './claudeCode';
import { codexTarget } from './codex';
import { geminiTarget, qwenTarget } from './ownToolsTargets';
import { readSettingsFile, readTextFile, writeFileAtomic } from './settingsFile';
import { parseSetupArguments, type SetupProgram } from './setupArguments';
import type { Launch, SetupPlace, SetupTarget } from './setupTarget';

export const SETUP_TARGETS: Readonly<Record<string, SetupTarget>> = {
  'claude-code': claudeCodeTarget,
  codex: codexTarget,
  'gemini-cli': geminiTarget,
  'qwen-code': qwenTarget,
};

export interface SetupIo {
  out(text: string): void;
  err(text: string): void;
}

const PROGRAMS: Record<SetupProgram, { name: string; usage: string }> = {
  bridge: { name: 'readgate-mcp-bridge', usage: 'node mcp-bridge.js setup <target> [--own-tools] [--project <dir>] [--user] [--dry-run]' },
  server: {
    name: 'readgate-mcp',
    usage:
      'node dist/mcp.js setup <target> [--own-tools] --root <dir> [--root <dir>…] [--deny <glob>…] [--max-read-chars <n>] [--placeholders] [--history <dir>] [--user] [--dry-run]',
  },
};

function helpText(program: SetupProgram, target: string | undefined): string {
  const usage = `Usage: ${PROGRAMS[program].usage}`;
  if (target === undefined) {
    const targets = Object.entries(SETUP_TARGETS).map(([name, each]) => `  ${name.padEnd(14)}${each.summary}`);
    return [
      usage,
      '',
      'Sets an agent up to work through ReadGate in a project folder. Targets:',
      ...targets,
      '',
      `"setup <target> --help" says what a target writes.`,
    ].join('\n');
  }
  const project =
    program === 'bridge'
      ? '  --project <dir>  the project folder (default: the working folder)'
      : "  --root <dir>     the project folder (the first root) and every folder the agent may work in; the other\n                   options are the server's (node dist/mcp.js --help), passed on to it in the agent's launch";
  const user = SETUP_TARGETS[target].userFile ? ["  --user           the agent's settings file for this user instead of the project's"] : [];
  const ownTools = SETUP_TARGETS[target].ownTools;
  const targetUsage = user.length ? usage.replace('<target>', target) : usage.replace('<target>', target).replace(' [--user]', '');
  return [
    SETUP_TARGETS[target].ownToolsOnly
      ? targetUsage.replace('[--own-tools]', '--own-tools')
      : ownTools
        ? targetUsage
        : targetUsage.replace(' [--own-tools]', ''),
    '',
    SETUP_TARGETS[target].help,
    ...(ownTools && !SETUP_TARGETS[target].ownToolsOnly ? ['', ownTools.help] : []),
    '',
    project,
    ...user,
    '  --dry-run        print the resulting settings file and change nothing',
    '  --help           this text',
  ].join('\n');
}

/** What the merge changed, then what to run next. */
function report(file: string, changes: readonly string[], notes: readonly string[], written: 'wrote' | 'dry-run'): string[] {
  const head =
    changes.length === 0
      ? [`${file}: already set up: nothing to change`]
      : [written === 'wrote' ? `Wrote ${file}:` : `Would write ${file} (--dry-run: nothing was written):`, ...changes.map((change) => `  ${change}`)];
  return [...head, ...notes.map((note) => `Note: ${note}.`)];
}

function readJsonQuietly(file: string): unknown {
  const read = readSettingsFile(file);
  return read.ok ? read.value : undefined;
}

/** The settings file `setup` merges, or why there is none. */
function placeOf(target: SetupTarget, name: string, parsed: { project: string; user: boolean }, env: NodeJS.ProcessEnv): SetupPlace | string {
  if (!parsed.user) return { project: parsed.project, file: path.join(parsed.project, target.file), user: false };
  if (!target.userFile) return `${name} has no user settings file: leave out --user.`;
  return { project: parsed.project, file: target.userFile(env, env.HOME || os.homedir()), user: true };
}

/** Runs `setup` with `argv` after the word `setup`; `script` is the absolute path of the script that runs it. */
export function runSetup(
  argv: readonly string[],
  program: SetupProgram,
  script: string,
  cwd: string,
  io: SetupIo,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const fail = (message: string, code = 2): number => (io.err(`${PROGRAMS[program].name}: ${message}\n`), code);
  const parsed = parseSetupArguments(argv, program, cwd, Object.keys(SETUP_TARGETS));
  if (parsed.kind === 'help') return (io.out(`${helpText(program, parsed.target)}\n`), 0);
  if (parsed.kind === 'error') return fail(`${parsed.message}\n\n${helpText(program, parsed.target).split('\n')[0]}`);
  if (SETUP_TARGETS[parsed.target].ownToolsOnly && !parsed.ownTools) {
    return fail(
      `setup ${parsed.target} sets up its own tools, judged through its hooks: add --own-tools. To work through ReadGate's tools instead, follow the Connect guide (ReadGate: Connect an External Agent).`,
    );
  }
  const target = parsed.ownTools ? SETUP_TARGETS[parsed.target].ownTools : SETUP_TARGETS[parsed.target];
  if (!target) return fail(`${parsed.target} has no --own-tools set-up: leave it out, and tell the agent to use ReadGate's tools.`);
  const place = placeOf(target, parsed.target, parsed, env);
  if (typeof place === 'string') return fail(place);
  if (!place.user && !fs.statSync(parsed.project, { throwIfNoEntry: false })?.isDirectory()) return fail(`${parsed.project} is not a folder.`);
  const { file } = place;
  const launch: Launch = { script, args: parsed.args };
  const read = readTextFile(file);
  if (!read.ok) return fail(`${file} ${read.problem}. Nothing was changed: fix the file (or move it away) and run this again.`);
  const merged = target.merge(read.text, launch);
  if (!merged.ok) return fail(`${file} ${merged.problem}. Nothing was changed: fix the file (or move it away) and run this again.`);
  if (parsed.dryRun) {
    io.out([...report(file, merged.changes, merged.notes, 'dry-run'), '', merged.text, ''].join('\n'));
  } else {
    if (merged.changes.length > 0) {
      try {
        writeFileAtomic(file, merged.text);
      } catch (error) {
        return fail(`could not write ${file}: ${(error as Error).message}`, 1);
      }
    }
    io.out(`${report(file, merged.changes, merged.notes, 'wrote').join('\n')}\n\n`);
  }
  io.out(`${target.nextSteps(launch, place, (name) => readJsonQuietly(path.join(parsed.project, name))).join('\n')}\n`);
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
