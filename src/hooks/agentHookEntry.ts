/** `dist/agent-hook.js`: the agent hook process (`hookClient.ts`); it loads nothing of the guard, so it costs little more than Node's start-up. */
import { runAgentHook } from './hookClient';

void runAgentHook({ argv: process.argv.slice(2), env: process.env, stdin: process.stdin, print: (text) => process.stdout.write(text) }).then(
  () => (process.exitCode = 0),
  () => (process.exitCode = 0),
);
