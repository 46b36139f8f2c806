/**
 * Writing the history's files: each goes to a temp file beside its target (`atomicWrite.ts`'s temp name, opened
 * exclusively), and only once every temp file of the call holds its bytes and is synced are they renamed over
 * their names, then each folder is synced once, so a name only ever holds a complete file and a call's files are
 * durable together. A failure before the renames removes every temp file and changes nothing.
 *
 * Why one call for many files: the history stores a batch of records at once, and what bounds how far it falls
 * behind a busy process is the number of turns of the event loop a batch waits for, not the system calls. Data
 * and syncs run on the thread pool, all files of a round at once (one turn each); the calls that only touch
 * names (open, close, rename) run synchronously, microseconds each.
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';
import { promisify } from 'node:util';
import { errnoOf } from '../fileErrors';
import { atomicTempPath, cannotSyncFolder, openTempFile } from './atomicWrite';

const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;
/** Files open at once: a large batch goes in rounds, so a low open-file limit is not exhausted by it. */
const ROUND = 16;

const write = promisify(fs.write);
const fsync = promisify(fs.fsync);

export interface FileToWrite {
  folder: string;
  name: string;
  data: Uint8Array;
}

async function writeWhole(fd: number, data: Uint8Array): Promise<void> {
  for (let done = 0; done < data.byteLength;) {
    const { bytesWritten } = await write(fd, data, done, data.byteLength - done, null);
    if (bytesWritten <= 0) throw Object.assign(new Error('the disk took no bytes'), { code: 'EIO' });
    done += bytesWritten;
  }
}

/** Writes and syncs one round of temp files; on any failure closes and removes all of them. */
async function writeRound(files: readonly FileToWrite[], temps: readonly string[]): Promise<void> {
  const fds: number[] = [];
  try {
    for (const temp of temps) fds.push(openTempFile(temp, FILE_MODE));
    await Promise.all(files.map((file, i) => writeWhole(fds[i], file.data)));
    await Promise.all(fds.map((fd) => fsync(fd)));
    while (fds.length) fs.closeSync(fds.pop()!);
  } catch (error) {
    for (const fd of fds) fs.close(fd, () => undefined);
    for (const temp of temps) fs.rmSync(temp, { force: true });
    throw error;
  }
}

/** Syncs each folder, so the renames into it survive a power loss; a file system that cannot is not an error. */
async function syncFolders(folders: readonly string[]): Promise<void> {
  await Promise.all(
    folders.map(async (folder) => {
      const fd = fs.openSync(folder, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
      try {
        await fsync(fd);
      } catch (error) {
        if (!cannotSyncFolder(errnoOf(error))) throw error;
      } finally {
        fs.closeSync(fd);
      }
    }),
  );
}

/** Writes every file whole, all durable when it resolves; see the header for what a failure leaves. */
export async function writeFiles(files: readonly FileToWrite[]): Promise<void> {
  const folders = [...new Set(files.map((file) => file.folder))];
  for (const folder of folders) fs.mkdirSync(folder, { recursive: true, mode: FOLDER_MODE });
  const temps = files.map((file) => atomicTempPath(nodePath.join(file.folder, file.name)));
  for (let at = 0; at < files.length; at += ROUND) {
    try {
      await writeRound(files.slice(at, at + ROUND), temps.slice(at, at + ROUND));
    } catch (error) {
      for (const temp of temps.slice(0, at)) fs.rmSync(temp, { force: true });
      throw error;
    }
  }
  try {
    for (const [i, file] of files.entries()) fs.renameSync(temps[i], nodePath.join(file.folder, file.name));
  } catch (error) {
    for (const temp of temps) fs.rmSync(temp, { force: true });
    throw error;
  }
  await syncFolders(folders);
}
