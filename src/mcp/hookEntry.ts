/**
 * What `dist/mcp.js` and `dist/mcp-bridge.js` run first: a client's hook (`hook`) runs before every tool call,
 * so only the hook's few modules are loaded for it (the server's and the bridge's are loaded, lazily, only for
 * anything else): Node's start-up is then most of what a hook costs.
 */
import { readFileSync } from 'fs';
import { runAgentHook } from '../hooks/hookClient';
import { runHook } from './contextHook';

/** Runs the hook when asked for and returns true, else false (the caller loads its own program). */
export function ranHook(name: string): boolean {
  if (process.argv[2] !== 'hook') return false;
  // `hook --own-tools --client <name>` (the bridge's, where no agent-hook.js lies beside it): the agent's own tools,
  // judged by the window on its folder. `dist/mcp.js` hands it to dist/agent-hook.js instead, which is smaller.
  if (process.argv.includes('--own-tools')) {
    const done = (): void => void (process.exitCode = 0);
    void runAgentHook({ argv: process.argv.slice(3), env: process.env, readStdin: () => readFileSync(0), print: (text) => process.stdout.write(text) }).then(
      done,
      done,
    );
    return true;
  }
  const debug = (message: string): void => void (process.env.READGATE_HOOK_DEBUG && process.stderr.write(`${name} hook: ${message}\n`));
  void runHook(process.argv.slice(3), debug).then((code) => {
    process.exitCode = code;
  });
  return true;
}
