/**
 * What `dist/mcp.js` and `dist/mcp-bridge.js` run first: a client's hook (`hook`) runs before every tool call,
 * so only the hook's few modules are loaded for it (the server's and the bridge's are loaded, lazily, only for
 * anything else): Node's start-up is then most of what a hook costs.
 */
import { readFileSync } from 'fs';
import { runAgentHook } from '../hooks/hookClient';
import { hookWindowsDir } from '../hooks/hookWindows';
import { runHook } from './contextHook';
import { hookGuardArguments, startHookGuard } from './hookGuardStart';

/** Runs the hook when asked for and returns true, else false (the caller loads its own program). */
export function ranHook(name: string): boolean {
  if (process.argv[2] !== 'hook') return false;
  // `hook --own-tools --client <name>`: the agent's own tools, judged by the window on its folder, or (dist/mcp.js
  // with roots) by the headless hook guard it starts when there is none.
  if (process.argv.includes('--own-tools')) {
    const argv = process.argv.slice(3);
    const guardArgs = name === 'readgate-mcp' ? hookGuardArguments(argv, process.cwd()) : undefined;
    const script = process.argv[1];
    const done = (): void => void (process.exitCode = 0);
    void runAgentHook({
      argv,
      env: process.env,
      readStdin: () => readFileSync(0),
      print: (text) => process.stdout.write(text),
      ...(guardArgs && script
        ? { noWindow: (folder: string) => startHookGuard({ dir: hookWindowsDir(process.env), script, args: guardArgs, folder, env: process.env }) }
        : {}),
    }).then(done, done);
    return true;
  }
  const debug = (message: string): void => void (process.env.READGATE_HOOK_DEBUG && process.stderr.write(`${name} hook: ${message}\n`));
  void runHook(process.argv.slice(3), debug).then((code) => {
    process.exitCode = code;
  });
  return true;
}
