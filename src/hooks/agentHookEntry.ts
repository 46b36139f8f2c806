/**
 * `dist/agent-hook.js`: the agent hook process (`hookClient.ts`); it loads nothing of the guard, so it costs little
 * more than Node's start-up. VS Code's agents run it directly; `node dist/mcp.js hook --own-tools …` runs it too
 * (the launcher hands it over), and then, set up with roots (`--root`) and finding no window on the agent's folder,
 * it loads the headless hook guard's start (`dist/hook-guard-start.js`, beside it) and asks that guard instead.
 */
import { readFileSync } from 'fs';
import * as path from 'path';
import { runAgentHook } from './hookClient';
import type { HookWindowEntry } from './hookWindows';

interface GuardStart {
  hookGuardArguments(argv: readonly string[], cwd: string): string[] | undefined;
  startHookGuard(options: {
    dir: string;
    script: string;
    args: readonly string[];
    folder: string;
    env: NodeJS.ProcessEnv;
  }): Promise<HookWindowEntry | undefined>;
}

const argv = process.argv.slice(2);

/** The headless hook guard for `folder`, when this hook was set up with roots. */
async function headlessGuard(folder: string): Promise<HookWindowEntry | undefined> {
  const start = require(path.join(__dirname, 'hook-guard-start.js')) as GuardStart;
  const args = start.hookGuardArguments(argv[0] === 'hook' ? argv.slice(1) : argv, process.cwd());
  if (!args) return undefined;
  const { hookWindowsDir } = require('./hookWindows') as typeof import('./hookWindows');
  return start.startHookGuard({ dir: hookWindowsDir(process.env), script: path.join(__dirname, 'mcp.js'), args, folder, env: process.env });
}

void runAgentHook({
  argv,
  env: process.env,
  readStdin: () => readFileSync(0),
  print: (text) => process.stdout.write(text),
  ...(argv.includes('--root') ? { noWindow: headlessGuard } : {}),
}).then(
  () => (process.exitCode = 0),
  () => (process.exitCode = 0),
);
