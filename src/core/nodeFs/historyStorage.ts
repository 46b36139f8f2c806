/**
 * The change history's storage on Node's `fs` (the `HistoryStorage` port): a folder the caller names, with
 *
 *     <dir>/records/<record id>.json          one change record each
 *     <dir>/versions/<ab>/<ab…>.gz            compressed contents, fanned out by the first two hex digits
 *     <dir>/lock                              held while a process changes the folder (`historyLock.ts`)
 *     <dir>/damaged/<area>/<name>             files that failed their checks, set aside, never deleted
 *
 * Folders are made mode 0700 and files 0600 (file contents an agent changed can be secrets). Files are written
 * whole (`historyWrites.ts`): a name only ever holds a complete file. Temp files a killed process left behind
 * are removed by the next `list` once their process is gone or they are an hour old.
 *
 * Data is read and written asynchronously (large contents must not hold the event loop); calls that only touch
 * names (stat, rename, unlink, the lock) are synchronous, as each await costs a turn of the event loop, which a
 * busy process hands out rarely. Reads open without following a link and without blocking, and refuse anything
 * but a regular file (EISDIR for a folder, EFTYPE otherwise): that is trouble to report, not damage.
 */
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as nodePath from 'node:path';
import { isMissing } from '../fileErrors';
import { type HistoryArea, type HistoryStorage, STORED_NAME, type StoredFile } from '../history/historyStorage';
import { atomicTempWriter } from './atomicWrite';
import { withFolderLock } from './historyLock';
import { writeFiles } from './historyWrites';
import { processAlive } from './processAlive';

const FOLDER_MODE = 0o700;
const STRAY_TEMP_MS = 60 * 60 * 1000;
const FAN = /^[0-9a-f]{2}$/;

async function namesIn(folder: string): Promise<string[]> {
  try {
    return await fsp.readdir(folder);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

/** Every complete stored file in `folder`; removes temp files a killed process left behind. */
async function listFolder(folder: string): Promise<StoredFile[]> {
  const found = await Promise.all(
    (await namesIn(folder)).map(async (name): Promise<StoredFile | undefined> => {
      const full = nodePath.join(folder, name);
      const stat = await fsp.lstat(full).catch((error) => (isMissing(error) ? undefined : Promise.reject(error)));
      if (!stat?.isFile()) return undefined;
      const writer = atomicTempWriter(name);
      if (writer === undefined) return STORED_NAME.test(name) ? { name, size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
      if (!processAlive(writer) || Date.now() - stat.mtimeMs > STRAY_TEMP_MS) await fsp.rm(full, { force: true });
      return undefined;
    }),
  );
  return found.filter((file): file is StoredFile => file !== undefined);
}

/** An area's files: `records` is one folder, `versions` is fanned out by the first two hex digits. */
async function listArea(root: string, area: HistoryArea): Promise<StoredFile[]> {
  if (area === 'records') return listFolder(nodePath.join(root, area));
  const fans = (await namesIn(nodePath.join(root, area))).filter((fan) => FAN.test(fan));
  return (await Promise.all(fans.map((fan) => listFolder(nodePath.join(root, area, fan))))).flat();
}

/** A regular file's bytes, opened without following a link or blocking; undefined when it is missing. */
async function readRegular(file: string): Promise<Uint8Array | undefined> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw Object.assign(new Error(`${file} is not a regular file`), { code: stat.isDirectory() ? 'EISDIR' : 'EFTYPE' });
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** A free name in `folder` for a file set aside: its own, or with the time after it. */
function asideName(folder: string, name: string): string {
  const plain = nodePath.join(folder, name);
  return fs.existsSync(plain) ? nodePath.join(folder, `${name}.${Date.now()}`) : plain;
}

export function createNodeHistoryStorage(dir: string): HistoryStorage {
  const root = nodePath.resolve(dir);
  const checked = (name: string): string => {
    if (!STORED_NAME.test(name) || name.length > 200) throw new Error(`not a history file name: ${JSON.stringify(name)}`);
    return name;
  };
  const folderOf = (area: HistoryArea, name: string): string =>
    area === 'versions' ? nodePath.join(root, area, checked(name).slice(0, 2)) : (checked(name), nodePath.join(root, area));
  const pathOf = (area: HistoryArea, name: string): string => nodePath.join(folderOf(area, name), name);
  return {
    // Async, so a name check that fails is a rejection like every other failure of the port.
    list: async (area) => listArea(root, area),
    names: async (area) =>
      area === 'records'
        ? (await namesIn(nodePath.join(root, area))).filter((name) => STORED_NAME.test(name))
        : (await listArea(root, area)).map((file) => file.name),
    read: async (area, name) => readRegular(pathOf(area, name)),
    write: async (area, name, data) => writeFiles([{ folder: folderOf(area, name), name, data }]),
    writeAll: async (files) => writeFiles(files.map(({ area, name, data }) => ({ folder: folderOf(area, name), name, data }))),
    async stat(area, name) {
      try {
        const stat = fs.lstatSync(pathOf(area, name));
        return stat.isFile() ? { name, size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async remove(area, name) {
      try {
        fs.unlinkSync(pathOf(area, name));
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
    async setAside(area, name) {
      const folder = nodePath.join(root, 'damaged', area);
      fs.mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
      fs.renameSync(pathOf(area, name), asideName(folder, name));
    },
    exclusive: (work) => withFolderLock(root, work),
  };
}
