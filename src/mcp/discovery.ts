/**
 * How external agents find a VS Code window's MCP server: each window with the server on writes one file
 * `<dir>/<pid>-<id>.json` (mode 0600, in a 0700 folder under the user's home) naming its URL, its secret token
 * and its workspace folders, and removes it when the window closes. Readers ignore files whose process is
 * gone (a window that crashed). The stdio bridge picks the window whose workspace holds its working folder
 * (windowChoice.ts).
 *
 * The folder belongs to the user, not to a process's $HOME: a VS Code started with a private HOME (`npm start`,
 * a sandbox) and an agent in the user's own terminal must meet in the same place, so the home comes from the
 * system's user database. READGATE_HOME moves it for both sides (tests, or a user who wants it elsewhere).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { processAlive, writeFileAtomic } from '../core/index';

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

/** The user's home as the system's user database has it ($HOME only where there is no entry for the user). */
export function userHome(): string {
  try {
    return os.userInfo().homedir || os.homedir();
  } catch {
    return os.homedir(); // a uid without a passwd entry (some containers)
  }
}

/** Where ReadGate keeps what agents outside VS Code use (windows, forget markers, the bridge): `READGATE_HOME`, else `<user's home>/.readgate`. */
export function readgateHome(env: NodeJS.ProcessEnv = process.env, home: () => string = userHome): string {
  return env.READGATE_HOME || path.join(home(), '.readgate');
}

/** The folder of window entries: `READGATE_DISCOVERY_DIR` (tests), else `<readgate home>/windows`. */
export function discoveryDir(env: NodeJS.ProcessEnv = process.env, home: () => string = userHome): string {
  return env.READGATE_DISCOVERY_DIR || path.join(readgateHome(env, home), 'windows');
}

/** How `discoveryDir` was chosen, in words (for `--list` and the bridge's messages). */
export function discoveryDirReason(env: NodeJS.ProcessEnv = process.env): string {
  if (env.READGATE_DISCOVERY_DIR) return 'set by READGATE_DISCOVERY_DIR';
  if (env.READGATE_HOME) return 'READGATE_HOME/windows';
  return ".readgate/windows in this user's home as the system's user database has it, whatever $HOME says; READGATE_HOME=<dir> moves it to <dir>/windows";
}

/** Writes this window's entry (owner-only) and returns the function that removes it. */
export function publishWindow(entry: WindowEntry, id: string, dir = discoveryDir()): { file: string; remove(): void } {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700); // also when it existed: other users must not list the windows
  const file = path.join(dir, `${entry.pid}-${id}.json`);
  // Atomic and owner-only: a reader never sees half a file, and the token is never readable by others, not even briefly.
  writeFileAtomic(file, JSON.stringify(entry, null, 2), 0o600);
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

function parseEntry(text: string): WindowEntry | undefined {
  try {
    const value = JSON.parse(text) as Partial<WindowEntry>;
    if (
      value.version !== 1 ||
      typeof value.pid !== 'number' ||
      typeof value.url !== 'string' ||
      typeof value.token !== 'string' ||
      !Array.isArray(value.folders)
    ) {
      return undefined;
    }
    return {
      version: 1,
      pid: value.pid,
      url: value.url,
      token: value.token,
      folders: value.folders.filter((f): f is string => typeof f === 'string'),
      name: typeof value.name === 'string' ? value.name : '',
      started: typeof value.started === 'number' ? value.started : 0,
    };
  } catch {
    return undefined;
  }
}

export interface WindowScan {
  /** The folder could not be read (it does not exist yet: no window of this user published there). */
  missing: boolean;
  windows: WindowEntry[];
  /** Files that are not taken, and why (for `--list`). */
  skipped: { file: string; why: string }[];
}

/** The folder's entries: live windows, and the files left out with the reason. */
export function scanWindows(dir = discoveryDir(), alive: (pid: number) => boolean = processAlive): WindowScan {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return { missing: true, windows: [], skipped: [] };
  }
  const scan: WindowScan = { missing: false, windows: [], skipped: [] };
  for (const name of names.sort()) {
    if (!name.endsWith('.json')) continue;
    let text: string;
    try {
      text = fs.readFileSync(path.join(dir, name), 'utf8');
    } catch (error) {
      scan.skipped.push({ file: name, why: `unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})` });
      continue;
    }
    const entry = parseEntry(text);
    if (!entry) scan.skipped.push({ file: name, why: 'not a window file' });
    else if (!alive(entry.pid)) scan.skipped.push({ file: name, why: `its process ${entry.pid} is gone (a window that did not close cleanly)` });
    else scan.windows.push(entry);
  }
  return scan;
}

/** Every live window's entry (files of processes that are gone, or unreadable, are skipped). */
export function listWindows(dir = discoveryDir(), alive: (pid: number) => boolean = processAlive): WindowEntry[] {
  return scanWindows(dir, alive).windows;
}
