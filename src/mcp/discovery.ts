/**
 * How external agents find a VS Code window's MCP server: each window with the server on writes one file
 * `<dir>/<pid>-<id>.json` (mode 0600, in a 0700 folder under the user's home) naming its URL, its secret token
 * and its workspace folders, and removes it when the window closes. Readers ignore files whose process is
 * gone (a window that crashed). The stdio bridge picks the window whose workspace holds its working folder.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface WindowEntry {
  /** Format of this file. */
  version: 1;
  /** The extension host process; the entry is stale once it is gone. */
  pid: number;
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  /** The window's workspace folders (file system paths). */
  folders: string[];
  /** The window's name, for messages. */
  name: string;
  /** When the server started (ms since the epoch). */
  started: number;
}

/** The folder of window entries: `READGATE_DISCOVERY_DIR` (tests), else `~/.readgate/windows`. */
export function discoveryDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.READGATE_DISCOVERY_DIR || path.join(os.homedir(), '.readgate', 'windows');
}

/** Writes this window's entry (owner-only) and returns the function that removes it. */
export function publishWindow(entry: WindowEntry, id: string, dir = discoveryDir()): { file: string; remove(): void } {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700); // also when it existed: other users must not list the windows
  const file = path.join(dir, `${entry.pid}-${id}.json`);
  // Written under a temporary name with owner-only mode, then renamed: a reader never sees half a file, and
  // the token is never readable by others, not even briefly.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(entry, null, 2), { mode: 0o600 });
  fs.chmodSync(temporary, 0o600);
  fs.renameSync(temporary, file);
  return {
    file,
    remove: () => {
      try {
        fs.unlinkSync(file);
      } catch {
        // already gone
      }
    },
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by someone else
  }
}

function parseEntry(text: string): WindowEntry | undefined {
  try {
    const value = JSON.parse(text) as Partial<WindowEntry>;
    if (value.version !== 1 || typeof value.pid !== 'number' || typeof value.url !== 'string' || typeof value.token !== 'string' || !Array.isArray(value.folders)) return undefined;
    return { version: 1, pid: value.pid, url: value.url, token: value.token, folders: value.folders.filter((f): f is string => typeof f === 'string'), name: typeof value.name === 'string' ? value.name : '', started: typeof value.started === 'number' ? value.started : 0 };
  } catch {
    return undefined;
  }
}

/** Every live window's entry (files of processes that are gone, or unreadable, are skipped). */
export function listWindows(dir = discoveryDir(), alive: (pid: number) => boolean = isAlive): WindowEntry[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const entries: WindowEntry[] = [];
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    let text: string;
    try {
      text = fs.readFileSync(path.join(dir, name), 'utf8');
    } catch {
      continue;
    }
    const entry = parseEntry(text);
    if (entry && alive(entry.pid)) entries.push(entry);
  }
  return entries;
}

function contains(folder: string, target: string): boolean {
  const relative = path.relative(folder, target);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/**
 * The window for an agent working in `cwd`: the one with the deepest workspace folder containing it (ties:
 * the most recently started). Undefined when no window's workspace holds `cwd`.
 */
export function pickWindow(windows: readonly WindowEntry[], cwd: string): WindowEntry | undefined {
  let best: { entry: WindowEntry; depth: number } | undefined;
  for (const entry of windows) {
    for (const folder of entry.folders) {
      if (!contains(folder, cwd)) continue;
      const depth = path.resolve(folder).length;
      if (!best || depth > best.depth || (depth === best.depth && entry.started > best.entry.started)) best = { entry, depth };
    }
  }
  return best?.entry;
}
