/**
 * The change history's storage on Node's `fs` (the `HistoryStorage` port): a folder the caller names, with
 *
 *     <dir>/records/<record id>.json          one change record each
 *     <dir>/versions/<ab>/<ab…>.gz            compressed contents, fanned out by the first two hex digits
 *
 * Folders are made mode 0700 and files 0600 (file contents an agent changed can be secrets). Every write goes to
 * a temp file beside its target (`.<name>.<pid>-<random>.tmp`, opened exclusively), is synced and then renamed
 * over the name, so a name only ever holds a complete file, and a failed write (ENOSPC, EACCES, EIO) removes its
 * temp file before it rejects. Temp files a killed process left behind are removed by the next `list` once
 * their process is gone or they are an hour old.
 *
 * Asynchronous (`fs/promises`) on purpose, unlike the guard's write path: history is written after the agent's
 * change returned, and large contents must not hold the event loop. Reads open without following a link and
 * without blocking, and refuse anything but a regular file.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as nodePath from 'node:path';
import { type HistoryArea, type HistoryStorage, STORED_NAME, type StoredFile } from '../history/historyStorage';

const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;
const STRAY_TEMP_MS = 60 * 60 * 1000;
const TEMP = /^\.(.+)\.(\d+)-[0-9a-f]+\.tmp$/;

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | undefined)?.code;
const isMissing = (error: unknown): boolean => codeOf(error) === 'ENOENT' || codeOf(error) === 'ENOTDIR';

function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === 'EPERM';
  }
}

/** Every complete stored file in `folder` (into `into`); removes temp files a killed process left behind. */
async function listFolder(folder: string, into: StoredFile[]): Promise<void> {
  let names: string[];
  try {
    names = await fsp.readdir(folder);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for (const name of names) {
    const full = nodePath.join(folder, name);
    const stat = await fsp.lstat(full).catch((error) => (isMissing(error) ? undefined : Promise.reject(error)));
    if (!stat?.isFile()) continue;
    const temp = TEMP.exec(name);
    if (temp) {
      if (!isProcessAlive(Number(temp[2])) || Date.now() - stat.mtimeMs > STRAY_TEMP_MS) await fsp.rm(full, { force: true });
    } else if (STORED_NAME.test(name)) {
      into.push({ name, size: stat.size });
    }
  }
}

/** An area's files: `records` is one folder, `versions` is fanned out by the first two hex digits. */
async function listArea(root: string, area: HistoryArea): Promise<StoredFile[]> {
  const found: StoredFile[] = [];
  if (area === 'records') {
    await listFolder(nodePath.join(root, area), found);
    return found;
  }
  let fans: string[];
  try {
    fans = await fsp.readdir(nodePath.join(root, area));
  } catch (error) {
    if (isMissing(error)) return found;
    throw error;
  }
  for (const fan of fans) if (/^[0-9a-f]{2}$/.test(fan)) await listFolder(nodePath.join(root, area, fan), found);
  return found;
}

/** A regular file's bytes, opened without following a link or blocking; undefined when it is missing. */
async function readRegular(file: string): Promise<Uint8Array | undefined> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    if (!(await handle.stat()).isFile()) throw new Error(`${file} is not a regular file`);
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** Writes `data` as `folder/name` whole or not at all: a synced temp file renamed over the name. */
async function writeWhole(folder: string, name: string, data: Uint8Array): Promise<void> {
  await fsp.mkdir(folder, { recursive: true, mode: FOLDER_MODE });
  const temp = nodePath.join(folder, `.${name}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, FILE_MODE);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await fsp.rename(temp, nodePath.join(folder, name));
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await fsp.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

export function createNodeHistoryStorage(dir: string): HistoryStorage {
  const root = nodePath.resolve(dir);
  const folderOf = (area: HistoryArea, name: string): string =>
    area === 'versions' ? nodePath.join(root, area, name.slice(0, 2)) : nodePath.join(root, area);
  const checked = (name: string): string => {
    if (!STORED_NAME.test(name) || name.length > 200) throw new Error(`not a history file name: ${JSON.stringify(name)}`);
    return name;
  };
  return {
    // Async, so a name check that fails is a rejection like every other failure of the port.
    list: async (area) => listArea(root, area),
    read: async (area, name) => readRegular(nodePath.join(folderOf(area, checked(name)), name)),
    write: async (area, name, data) => writeWhole(folderOf(area, checked(name)), name, data),
    async remove(area, name) {
      try {
        await fsp.unlink(nodePath.join(folderOf(area, checked(name)), name));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
  };
}
