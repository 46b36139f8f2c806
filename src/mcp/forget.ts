/**
 * "Forget" requests from outside the MCP connection (the ledger must forget what a compacted or cleared context
 * no longer holds, wherever the client says so). A client that summarizes its conversation (Claude Code's `PreCompact`
 * and `SessionStart` hooks) cannot say so over MCP, but it can run a command: `mcp-bridge.js --forget` (or
 * `mcp.js --forget`) writes a marker naming its working folder, the client and the time, and every ReadGate
 * server whose folders overlap that folder (a VS Code window, a headless server) forgets what that client's
 * sessions had seen before it, at their next tool call. Forgetting too much only costs reads; so a marker for
 * one Claude Code conversation also clears another running in the same folder.
 *
 * Markers live beside the discovery folder (mode 0600 in a 0700 folder); readers look at the folder only when
 * its modification time moved (one stat a call), and markers older than a day are removed by the next writer.
 */
import * as fs from 'fs';
import * as path from 'path';
import { writeFileAtomic } from '../core/index';
import { discoveryDir } from './discovery';

export interface ForgetMarker {
  /** The folder the client works in (its hooks' working folder). */
  folder: string;
  /** The client's MCP name (`clientInfo.name`, e.g. "claude-code"), or undefined for every client. */
  client?: string;
  /** When it was asked (ms since the epoch). */
  time: number;
  /**
   * The client's conversation, when its hook named it (Claude Code's `session_id`): then only that
   * conversation's agent contexts forget (`agentContexts.ts`), besides the client's unidentified sessions.
   */
  conversation?: string;
  /** With `conversation`: the agent context ("main", or a subagent's id). */
  agent?: string;
  /** The agent context ended (a subagent stopped): its ledger is dropped; nothing else forgets. */
  end?: boolean;
}

const DAY = 24 * 60 * 60 * 1000;

/** `<readgate home>/forget`, beside the windows' discovery folder. */
export function forgetDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(path.dirname(discoveryDir(env)), 'forget');
}

function contains(folder: string, inner: string): boolean {
  const relative = path.relative(folder, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** A marker concerns a server when one of the two folders holds the other. */
export function concerns(marker: ForgetMarker, folders: readonly string[]): boolean {
  return folders.some((folder) => contains(folder, marker.folder) || contains(marker.folder, folder));
}

/** Whether a session of `client` opened at `since` must forget because of `marker`. Pure. */
export function mustForget(marker: ForgetMarker, client: string | undefined, since: number): boolean {
  if (marker.time < since || marker.end) return false;
  return marker.client === undefined || (client !== undefined && marker.client.toLowerCase() === client.toLowerCase());
}

const given = (field: unknown): field is string => typeof field === 'string' && field !== '';

function parse(text: string): ForgetMarker | undefined {
  try {
    const value = JSON.parse(text) as Partial<ForgetMarker>;
    if (typeof value.folder !== 'string' || !path.isAbsolute(value.folder) || typeof value.time !== 'number') return undefined;
    return {
      folder: value.folder,
      time: value.time,
      ...(given(value.client) ? { client: value.client } : {}),
      ...(given(value.conversation) ? { conversation: value.conversation } : {}),
      ...(given(value.agent) ? { agent: value.agent } : {}),
      ...(value.end === true ? { end: true } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Writes a marker (atomically, owner-only) and removes day-old ones. Returns the file written. */
export function requestForget(marker: ForgetMarker, dir = forgetDir()): string {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  for (const name of fs.readdirSync(dir)) {
    try {
      if (fs.statSync(path.join(dir, name)).mtimeMs < marker.time - DAY) fs.unlinkSync(path.join(dir, name));
    } catch {
      // gone already
    }
  }
  const file = path.join(dir, `${marker.time}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.json`);
  writeFileAtomic(file, JSON.stringify(marker), 0o600);
  return file;
}

/** Every marker in `dir` (unreadable or malformed files skipped). */
export function listForgetMarkers(dir = forgetDir()): ForgetMarker[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const markers: ForgetMarker[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    try {
      const marker = parse(fs.readFileSync(path.join(dir, name), 'utf8'));
      if (marker) markers.push(marker);
    } catch {
      // removed meanwhile
    }
  }
  return markers;
}

/**
 * What a server polls before each tool call: the markers for its folders that arrived since it last looked.
 * Only a change of the folder's modification time makes it read the folder.
 */
export class ForgetWatch {
  private seenMtime = -1;
  private seenFiles = new Set<string>();

  constructor(
    private readonly folders: () => readonly string[],
    private readonly dir = forgetDir(),
  ) {
    this.newMarkers();
  }

  /** Markers written since the last call (or since construction) that concern this server's folders. */
  newMarkers(): ForgetMarker[] {
    let mtime: number;
    try {
      mtime = fs.statSync(this.dir).mtimeMs;
    } catch {
      return [];
    }
    if (mtime === this.seenMtime) return [];
    this.seenMtime = mtime;
    let names: string[];
    try {
      names = fs.readdirSync(this.dir).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
    } catch {
      return [];
    }
    const fresh = names.filter((name) => !this.seenFiles.has(name));
    this.seenFiles = new Set(names);
    const markers: ForgetMarker[] = [];
    for (const name of fresh) {
      try {
        const marker = parse(fs.readFileSync(path.join(this.dir, name), 'utf8'));
        if (marker && concerns(marker, this.folders())) markers.push(marker);
      } catch {
        // removed meanwhile
      }
    }
    return markers;
  }
}
