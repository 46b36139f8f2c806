/**
 * How an agent's hook in a terminal finds the ReadGate window on its folder: each window that serves hooks writes
 * `<readgate home>/hooks/<pid>-<id>.json` (mode 0600, in the 0700 folder its socket is in) naming its socket, its
 * secret and its workspace folders, and removes it when it stops. The hook takes the live window whose deepest
 * folder holds the agent's folder (the latest started between equal ones), as the MCP bridge picks its window.
 * Hooks that VS Code's agents run are told their window in their environment instead (`HOOK_ENV`).
 *
 * The hook's side uses only Node's `fs`, `os` and `path`: it runs before each tool call.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface HookWindowEntry {
  version: 1;
  pid: number;
  socket: string;
  token: string;
  folders: string[];
  started: number;
  /** The headless hook guard (`dist/mcp.js hook-guard`), not a window: a window on the folder is preferred to it. */
  headless?: boolean;
}

/** `<readgate home>/hooks`: READGATE_HOME, else `.readgate` in this user's home as the user database has it. */
export function hookWindowsDir(env: NodeJS.ProcessEnv): string {
  if (env.READGATE_HOME) return path.join(env.READGATE_HOME, 'hooks');
  let home: string;
  try {
    home = os.userInfo().homedir || os.homedir();
  } catch {
    home = os.homedir();
  }
  return path.join(home, '.readgate', 'hooks');
}

function parse(text: string): HookWindowEntry | undefined {
  try {
    const entry = JSON.parse(text) as Partial<HookWindowEntry>;
    if (entry.version !== 1 || typeof entry.pid !== 'number' || typeof entry.socket !== 'string' || typeof entry.token !== 'string') return undefined;
    const folders = Array.isArray(entry.folders) ? entry.folders.filter((folder): folder is string => typeof folder === 'string') : [];
    const started = typeof entry.started === 'number' ? entry.started : 0;
    return { version: 1, pid: entry.pid, socket: entry.socket, token: entry.token, folders, started, ...(entry.headless === true ? { headless: true } : {}) };
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const real = (file: string): string => {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
};

function depthHolding(folders: readonly string[], cwd: string): number {
  let best = -1;
  for (const folder of folders) {
    const relative = path.relative(real(folder), cwd);
    if (relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative))) best = Math.max(best, real(folder).length);
  }
  return best;
}

/** Whether `a` serves a folder better than `b`: a window before a headless guard, then the deepest folder, then the latest. */
function better(a: { entry: HookWindowEntry; depth: number }, b: { entry: HookWindowEntry; depth: number } | undefined): boolean {
  if (!b) return true;
  if (!a.entry.headless !== !b.entry.headless) return !a.entry.headless;
  return a.depth > b.depth || (a.depth === b.depth && a.entry.started > b.entry.started);
}

/** The window serving `cwd`, from the entries in `dir`; undefined when no live window's folder holds it. */
export function findHookWindow(dir: string, cwd: string): HookWindowEntry | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return undefined;
  }
  const here = real(cwd);
  let found: { entry: HookWindowEntry; depth: number } | undefined;
  for (const name of names) {
    let entry: HookWindowEntry | undefined;
    try {
      entry = parse(fs.readFileSync(path.join(dir, name), 'utf8'));
    } catch {
      continue;
    }
    if (!entry || !alive(entry.pid)) continue;
    const depth = depthHolding(entry.folders, here);
    if (depth < 0) continue;
    if (better({ entry, depth }, found)) found = { entry, depth };
  }
  return found?.entry;
}
