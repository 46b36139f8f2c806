/**
 * Installs the agent CLIs the agent tests drive, at pinned versions, from the npm registry only, into the
 * git-ignored cache `.vscode-test/agents/<name>@<version>/` (or $READGATE_AGENTS_CACHE), once; later runs reuse it.
 *
 * An install goes into a temporary folder, is checked by running the CLI's `--version`, gets a `.complete`
 * marker, and only then is renamed into place: an interrupted or broken install is never reused, it is redone.
 * Run `node out/test/agents/install.js` to install them all ahead of the tests.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { repoRoot } from '../unit/helpers/repoRoot';

export type AgentCli = 'claude' | 'qwen' | 'codex' | 'gemini';

interface Pinned {
  pkg: string;
  version: string;
  /** The command, relative to the install folder. */
  bin: string;
}

/** Versions verified to run against the scripted model server (see README.md). */
export const PINNED: Record<AgentCli, Pinned> = {
  claude: { pkg: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'node_modules/.bin/claude' },
  qwen: { pkg: '@qwen-code/qwen-code', version: '0.24.4', bin: 'node_modules/.bin/qwen' },
  // A Node launcher; the native binary comes from the optional dependency @openai/codex-linux-x64 (`--version`: "codex-cli 0.171.0").
  codex: { pkg: '@openai/codex', version: '0.171.0', bin: 'node_modules/.bin/codex' },
  gemini: { pkg: '@google/gemini-cli', version: '0.61.0', bin: 'node_modules/.bin/gemini' },
};

const MARKER = '.complete';

export function cacheDir(): string {
  return path.resolve(process.env.READGATE_AGENTS_CACHE || path.join(repoRoot, '.vscode-test/agents'));
}

/** An environment for npm without what an outer `npm run` exported (its prefix, its project's config). */
function npmEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, npm_config_update_notifier: 'false' };
}

function versionOf(bin: string): string {
  return execFileSync(bin, ['--version'], { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** Interrupted installs leave `<dir>.partial-*` folders; one untouched for an hour is no longer being filled. */
function removeStalePartials(dir: string): void {
  const parent = path.dirname(dir);
  const prefix = `${path.basename(dir)}.partial-`;
  for (const name of fs.readdirSync(parent).filter((entry) => entry.startsWith(prefix))) {
    const full = path.join(parent, name);
    if (Date.now() - fs.statSync(full).mtimeMs > 3_600_000) fs.rmSync(full, { recursive: true, force: true });
  }
}

/** Returns the absolute path of the pinned CLI's command, installing it first if needed. */
export function ensureAgentCli(cli: AgentCli): string {
  const { pkg, version, bin } = PINNED[cli];
  const dir = path.join(cacheDir(), `${pkg.split('/').pop()}@${version}`);
  if (fs.existsSync(path.join(dir, MARKER))) return path.join(dir, bin);
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  removeStalePartials(dir);
  const tmp = fs.mkdtempSync(`${dir}.partial-`);
  try {
    fs.writeFileSync(path.join(tmp, 'package.json'), '{ "private": true }\n');
    execFileSync('npm', ['install', '--prefix', tmp, `${pkg}@${version}`, '--no-audit', '--no-fund'], { env: npmEnv(), stdio: ['ignore', 'ignore', 'pipe'], timeout: 600_000 });
    const reported = versionOf(path.join(tmp, bin));
    if (!reported.includes(version)) throw new Error(`${pkg} reports version "${reported}", not ${version}`);
    fs.writeFileSync(path.join(tmp, MARKER), `${pkg}@${version} ${new Date().toISOString()}\n`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tmp, dir);
  } catch (error) {
    fs.rmSync(tmp, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`could not install ${pkg}@${version}: ${(error as Error).message}${stderr ? `\n${stderr}` : ''}`);
  }
  return path.join(dir, bin);
}

if (require.main === module) {
  for (const cli of Object.keys(PINNED) as AgentCli[]) process.stdout.write(`${cli}: ${ensureAgentCli(cli)}\n`);
}
