/**
 * Which agent context makes a tool call, told by the client's own hook before the call arrives. Claude Code and
 * Codex run a `PreToolUse` hook before each tool call with the call's id, the conversation and, for a
 * subagent, the agent's id; the MCP `tools/call` that follows carries the same call id in `_meta`
 * (`claudecode/toolUseId`, Codex's `callId`). The hook (`contextHook.ts`) leaves a note named after the call id;
 * the server that receives the call takes it (reads and removes it) and so knows the context exactly.
 *
 * Notes live beside the discovery folder (mode 0600 in a 0700 folder): a file per call id, written whole
 * (temporary file, then rename). A note older than NOTE_TTL_MS is never taken and is removed by the next hook.
 */
import * as fs from 'fs';
import * as path from 'path';
import { discoveryDir } from './discovery';

export interface ContextNote {
  /** The client's conversation (its hook's `session_id`). */
  conversation: string;
  /** "main", or the subagent's id. */
  agent: string;
  /** The subagent's kind ("general-purpose", "Explore"…), for labels. */
  agentType?: string;
  /** The set-up also hooks the client's compaction, so what the context holds is known: placeholders are true. */
  compactionHooked: boolean;
  /** When the hook wrote it (ms since the epoch). */
  time: number;
}

/** A note is for the call that follows its hook at once; an old one belongs to a call that never came. */
export const NOTE_TTL_MS = 10 * 60 * 1000;

/** The main agent's context name. */
export const MAIN_AGENT = 'main';

/** `<readgate home>/contexts`, beside the windows' discovery folder and the forget markers. */
export function contextNotesDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.dirname(discoveryDir(env)), 'contexts');
}

/** Call ids name files: only ids made of these characters are noted (Claude Code's `toolu_…`, Codex's `call_…`). */
const CALL_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function isCallId(value: unknown): value is string {
  return typeof value === 'string' && CALL_ID.test(value);
}

/** The call id a `tools/call` request's `_meta` carries, from the clients known to send one. */
export function callIdOf(meta: unknown): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const fields = meta as Record<string, unknown>;
  const id = fields['claudecode/toolUseId'] ?? fields.callId;
  return isCallId(id) ? id : undefined;
}

/** Writes the note for one call (atomically, owner-only) and removes notes past their time. */
export function writeNote(callId: string, note: ContextNote, dir = contextNotesDir()): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = path.join(dir, `.${callId}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, JSON.stringify(note), { mode: 0o600 });
  fs.renameSync(temporary, path.join(dir, `${callId}.json`));
  removeOld(dir, note.time);
}

function removeOld(dir: string, now: number): void {
  for (const name of fs.readdirSync(dir)) {
    try {
      if (fs.statSync(path.join(dir, name)).mtimeMs < now - NOTE_TTL_MS) fs.unlinkSync(path.join(dir, name));
    } catch {
      // taken or removed meanwhile
    }
  }
}

function parse(text: string, now: number): ContextNote | undefined {
  try {
    const value = JSON.parse(text) as Partial<ContextNote>;
    if (typeof value.conversation !== 'string' || !value.conversation || typeof value.agent !== 'string' || !value.agent) return undefined;
    if (typeof value.time !== 'number' || Math.abs(now - value.time) > NOTE_TTL_MS) return undefined;
    const agentType = typeof value.agentType === 'string' && value.agentType ? { agentType: value.agentType.slice(0, 80) } : {};
    return {
      conversation: value.conversation.slice(0, 200),
      agent: value.agent.slice(0, 200),
      ...agentType,
      compactionHooked: value.compactionHooked === true,
      time: value.time,
    };
  } catch {
    return undefined;
  }
}

/** Takes the note left for a call: read and removed, so no other call (or server) takes it again. */
export function takeNote(callId: string, dir = contextNotesDir(), now = Date.now()): ContextNote | undefined {
  if (!isCallId(callId)) return undefined;
  const file = path.join(dir, `${callId}.json`);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
    fs.unlinkSync(file);
  } catch {
    return undefined;
  }
  return parse(text, now);
}
