/**
 * `mcp-bridge.js hook` / `mcp.js hook`: run by Claude Code's (or Codex's) hooks with the hook's JSON on stdin.
 * Before a ReadGate tool call (`PreToolUse`) it leaves a note naming the call's agent context
 * (`contextNotes.ts`); when a subagent stops it tells servers to drop that context; before a compaction, or when
 * a conversation restarts compacted or cleared, it tells them to forget what the conversation's context holds
 * (`forget.ts` markers). It must never block or break the client: whatever happens it prints nothing and exits
 * 0 within HOOK_TIME_LIMIT_MS, and a server that gets no note simply keeps one ledger for the MCP session.
 *   hook [--compaction-hooked] [--client <name>]
 */
import { type ContextNote, MAIN_AGENT, isCallId, writeNote } from './contextNotes';
import { type ForgetMarker, requestForget } from './forget';

/** The hook gives up (and exits 0) after this long: far below the clients' own hook timeouts. */
export const HOOK_TIME_LIMIT_MS = 3000;

/** The most of stdin read: hook inputs are small (a tool's input included); a larger one is not ours to note. */
const MAX_INPUT_BYTES = 4 * 1024 * 1024;

export type HookAction = { kind: 'note'; callId: string; note: ContextNote } | { kind: 'marker'; marker: ForgetMarker } | { kind: 'none'; why: string };

export interface HookOptions {
  /** `--compaction-hooked`: the set-up also runs this hook on compaction, so placeholders are true. */
  compactionHooked: boolean;
  /** `--client`: the client's MCP name; by default told from the input (Codex's carries `turn_id`). */
  client?: string;
  now: number;
  /** The hook's working folder, when the input names none. */
  cwd: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** What one hook input asks for. Pure. */
export function decideHook(input: unknown, options: HookOptions): HookAction {
  if (typeof input !== 'object' || input === null) return { kind: 'none', why: 'the input is not a JSON object' };
  const fields = input as Record<string, unknown>;
  const event = text(fields.hook_event_name);
  const conversation = text(fields.session_id);
  if (!event || !conversation) return { kind: 'none', why: 'the input names no event or conversation' };
  const agentId = text(fields.agent_id);
  const client = options.client ?? ('turn_id' in fields ? 'codex-mcp-client' : 'claude-code');
  const marker = (agent: string, end: boolean): HookAction => ({
    kind: 'marker',
    marker: { folder: text(fields.cwd) ?? options.cwd, client, time: options.now, conversation, agent, ...(end ? { end: true } : {}) },
  });
  switch (event) {
    case 'PreToolUse': {
      const callId = fields.tool_use_id;
      if (!isCallId(callId)) return { kind: 'none', why: 'the input has no usable tool_use_id' };
      const agentType = text(fields.agent_type);
      return {
        kind: 'note',
        callId,
        note: {
          conversation,
          agent: agentId ?? MAIN_AGENT,
          ...(agentType ? { agentType } : {}),
          compactionHooked: options.compactionHooked,
          time: options.now,
        },
      };
    }
    case 'SubagentStop':
      return agentId ? marker(agentId, true) : { kind: 'none', why: 'SubagentStop without agent_id' };
    case 'PreCompact':
      return marker(agentId ?? MAIN_AGENT, false);
    case 'SessionStart':
      return fields.source === 'compact' || fields.source === 'clear'
        ? marker(MAIN_AGENT, false)
        : { kind: 'none', why: `a session start (${String(fields.source)}) keeps what the context holds` };
    default:
      return { kind: 'none', why: `ReadGate does nothing on ${event}` };
  }
}

export function parseHookArguments(argv: readonly string[]): { compactionHooked: boolean; client?: string } {
  let compactionHooked = false;
  let client: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--compaction-hooked') compactionHooked = true;
    else if (argv[i] === '--client' && argv[i + 1]) client = argv[++i];
    // Anything else is ignored: a hook must never fail on its arguments.
  }
  return { compactionHooked, ...(client ? { client } : {}) };
}

function carryOut(action: HookAction): void {
  if (action.kind === 'note') writeNote(action.callId, action.note);
  else if (action.kind === 'marker') requestForget(action.marker);
}

/** Reads stdin (bounded), acts, and always resolves 0; `debug` hears what happened (READGATE_HOOK_DEBUG). */
export function runHook(argv: readonly string[], debug: (message: string) => void = () => undefined): Promise<number> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (message: string): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      debug(message);
      process.stdin.destroy();
      resolve(0);
    };
    const timer = setTimeout(() => finish(`gave up after ${HOOK_TIME_LIMIT_MS} ms`), HOOK_TIME_LIMIT_MS);
    const chunks: Buffer[] = [];
    let size = 0;
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_INPUT_BYTES) return finish('the input is too large');
      chunks.push(chunk);
    });
    process.stdin.on('error', (error) => finish(`stdin: ${error.message}`));
    process.stdin.on('end', () => {
      try {
        const action = decideHook(JSON.parse(Buffer.concat(chunks).toString('utf8')), { ...parseHookArguments(argv), now: Date.now(), cwd: process.cwd() });
        carryOut(action);
        finish(action.kind === 'none' ? action.why : `${action.kind} written`);
      } catch (error) {
        finish(`failed: ${(error as Error).message}`);
      }
    });
  });
}
