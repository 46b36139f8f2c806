/**
 * The window's side of `hookWindows.ts`: writes its entry (atomically, owner-only, in the hooks folder its socket
 * is in) and removes it when the window stops serving hooks, so an agent's hook in any terminal finds it by folder.
 */
import * as fs from 'fs';
import * as path from 'path';
import { writeFileAtomic } from '../core/index';
import type { HookWindowEntry } from './hookWindows';

/** Entries of processes that died without removing theirs (a crash, SIGKILL): hooks skip them, and they go here. */
function removeDead(dir: string): void {
  for (const name of fs.readdirSync(dir).filter((each) => each.endsWith('.json'))) {
    const pid = Number.parseInt(name, 10);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') fs.rmSync(path.join(dir, name), { force: true });
    }
  }
}

export function publishHookWindow(dir: string, id: string, entry: HookWindowEntry): { file: string; update(folders: string[]): void; remove(): void } {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
  removeDead(dir);
  const file = path.join(dir, `${entry.pid}-${id}.json`);
  let current = entry;
  const write = (): void => writeFileAtomic(file, JSON.stringify(current, null, 2), 0o600);
  write();
  return {
    file,
    update: (folders) => {
      current = { ...current, folders: [...folders] };
      write();
    },
    remove: () => fs.rmSync(file, { force: true }),
  };
}
