/**
 * The agent hook process (`dist/agent-hook.js --client <name>`), run by a client's hook runner before and after
 * each tool call with the hook input on stdin. A call ReadGate does not judge ends at once, without asking the
 * window. Otherwise the input goes to the window named in the environment (`HOOK_ENV`), and what it answers is
 * printed for the client. It never stands in the way: no window, a window that does not answer within
 * HOOK_ANSWER_MS, bad input or any failure allow the call, silently (nothing on stdout or stderr, exit 0: a
 * client shows anything else as a warning). Only a change already waiting for the user's review is refused when
 * the wait ends without a decision, since nothing was approved.
 */
import type * as net from 'net';
import { HOOK_ANSWER_MS, HOOK_ENV, HOOK_REVIEW_MS, type HookReply, type HookRequest, MAX_HOOK_INPUT_BYTES } from './hookProtocol';
import type { HookWindowEntry } from './hookWindows';
import { needsWindow } from './judgedTools';

export interface HookRun {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  /**
   * The whole of stdin. Read synchronously (`fs.readFileSync(0)`): opening `process.stdin` as a stream costs a
   * few milliseconds of every tool call, and the clients close stdin once they wrote the input.
   */
  readStdin(): Buffer;
  /** Prints the output for the client (at most once). */
  print(text: string): void;
  /** With no window on the agent's folder: the headless hook guard for it (started when needed), or undefined. */
  noWindow?(folder: string): Promise<HookWindowEntry | undefined>;
}

/** `--client <name>`; anything else is ignored (a hook must never fail on its arguments). */
export function clientOf(argv: readonly string[]): string | undefined {
  const at = argv.indexOf('--client');
  return at >= 0 && argv[at + 1] ? argv[at + 1] : undefined;
}

/** The hook input, or undefined for anything but JSON within the size limit. */
function parseInput(read: () => Buffer): unknown {
  try {
    const bytes = read();
    return bytes.length > MAX_HOOK_INPUT_BYTES ? undefined : (JSON.parse(bytes.toString('utf8')) as unknown);
  } catch {
    return undefined;
  }
}

/** Denies a change whose review ended without the user's decision (the client's own output format). */
function unreviewed(client: string, why: string): object | undefined {
  if (client !== 'copilot') return undefined;
  const reason = `REJECTED_BY_USER: ${why}; nothing was written. Ask the user whether to make the change, then try again.`;
  return { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: reason } };
}

/** Asks the window; resolves with the output to print (undefined: print nothing). */
export function askWindow(socket: string, request: HookRequest): Promise<object | undefined> {
  return new Promise((resolve) => {
    let settled = false;
    let waiting = false;
    let buffered = '';
    // Loaded only for a call the window judges: the others end without paying for it.
    const connection = (require('net') as typeof net).connect(socket);
    const finish = (output: object | undefined): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      connection.destroy();
      resolve(output);
    };
    const giveUp = (): void =>
      finish(waiting ? unreviewed(request.client, 'the change waited for review longer than ReadGate waits, without a decision') : undefined);
    let timer = setTimeout(giveUp, HOOK_ANSWER_MS);
    connection.on('error', () => finish(waiting ? unreviewed(request.client, "ReadGate's window went away before the review was decided") : undefined));
    connection.on('close', () => finish(waiting ? unreviewed(request.client, "ReadGate's window went away before the review was decided") : undefined));
    connection.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        let reply: HookReply;
        try {
          reply = JSON.parse(line) as HookReply;
        } catch {
          return finish(undefined);
        }
        if (reply.kind === 'done') return finish(typeof reply.output === 'object' && reply.output !== null ? reply.output : undefined);
        if (reply.kind === 'wait') {
          waiting = true;
          clearTimeout(timer);
          timer = setTimeout(giveUp, Math.min(Math.max(0, Number(reply.ms) || 0), HOOK_REVIEW_MS));
        }
      }
    });
    connection.write(`${JSON.stringify(request)}\n`);
  });
}

/**
 * `READGATE_HOOK_RECORD=<file>`: each hook input is appended to the file as a line of JSON, to record what a real
 * client sends (the adapters' unit tests are written from such recordings). Off unless set.
 */
function record(file: string | undefined, input: unknown): void {
  if (!file || input === undefined) return;
  try {
    (require('fs') as typeof import('fs')).appendFileSync(file, `${JSON.stringify(input)}\n`);
  } catch {
    // A recording is a developer's aid: it never stands in the way.
  }
}

export async function runAgentHook(run: HookRun): Promise<void> {
  const client = clientOf(run.argv);
  const input = parseInput(run.readStdin);
  record(run.env.READGATE_HOOK_RECORD, input);
  if (!client || !needsWindow(client, input)) return;
  // VS Code's agents' hooks are told their window; a terminal's are found by the folder they work in.
  const socket = run.env[HOOK_ENV.socket];
  const token = run.env[HOOK_ENV.token];
  const told = socket && token ? { socket, token } : undefined;
  const cwd = (input as { cwd?: unknown }).cwd;
  const folder = typeof cwd === 'string' && cwd ? cwd : process.cwd();
  // Loaded only for a call the window judges, and only where the environment names no window.
  const windows = told ? undefined : (require('./hookWindows') as typeof import('./hookWindows'));
  const window = told ?? windows?.findHookWindow(windows.hookWindowsDir(run.env), folder) ?? (await run.noWindow?.(folder));
  if (!window) return;
  const output = await askWindow(window.socket, { v: 1, token: window.token, client, input });
  if (output) run.print(JSON.stringify(output));
}
