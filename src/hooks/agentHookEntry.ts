/** `dist/agent-hook.js`: the agent hook process (`hookClient.ts`); it loads nothing of the guard, so it costs little more than Node's start-up. */
import { readFileSync } from 'fs';
import { runAgentHook } from './hookClient';

void runAgentHook({ argv: process.argv.slice(2), env: process.env, readStdin: () => readFileSync(0), print: (text) => process.stdout.write(text) }).then(
  () => (process.exitCode = 0),
  () => (process.exitCode = 0),
);
