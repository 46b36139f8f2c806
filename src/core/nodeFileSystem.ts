/**
 * The default FileSystem port on Node's `fs`, for headless use and the adapter's local files.
 *
 * Synchronous calls inside async functions on purpose: a guarded read is a handful of stats and one read,
 * and the thread-pool round trip of `fs.promises` (~17 µs a call) would cost more than the work itself.
 * Writes are atomic (temp file in the same directory + fsync + rename, mode kept) unless `inPlace`, which
 * rewrites a multiply-linked file so every name sees the change.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ChunkReader, FileKind, FileStat, FileSystem, WriteOptions } from './ports';
import { identityOf } from './version/fileIdentity';

function kindOf(stats: fs.Stats): FileKind {
  if (stats.isFile()) return 'file';
  if (stats.isDirectory()) return 'directory';
  if (stats.isSymbolicLink()) return 'symlink';
  if (stats.isFIFO()) return 'fifo';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice()) return 'characterDevice';
  if (stats.isBlockDevice()) return 'blockDevice';
  return 'other';
}

function toFileStat(stats: fs.Stats, filePath: string): FileStat {
  return {
    kind: kindOf(stats),
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    ctimeMs: stats.ctimeMs,
    mode: stats.mode & 0o7777,
    nlink: stats.nlink,
    identity: identityOf(stats.dev, stats.ino, path.normalize(filePath)),
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

let tempCounter = 0;

function tempNameFor(target: string): string {
  // Same directory (rename must not cross devices), hidden, unique per process and call.
  return path.join(path.dirname(target), `.${path.basename(target)}.readgate-${process.pid}-${Date.now().toString(36)}-${(tempCounter++).toString(36)}.tmp`);
}

function writeAtomic(target: string, data: Uint8Array, mode: number | undefined): void {
  const temp = tempNameFor(target);
  const fd = fs.openSync(temp, 'wx', mode ?? 0o666);
  try {
    try {
      fs.writeSync(fd, data, 0, data.length, 0);
      // open() applies the umask; the old file's mode must survive exactly.
      if (mode !== undefined) fs.fchmodSync(fd, mode);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    try {
      fs.unlinkSync(temp);
    } catch {
      // already gone
    }
    throw error;
  }
}

function writeInPlace(target: string, data: Uint8Array): void {
  const fd = fs.openSync(target, 'r+');
  try {
    fs.writeSync(fd, data, 0, data.length, 0);
    fs.ftruncateSync(fd, data.length);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

export function createNodeFileSystem(): FileSystem {
  return {
    async lstat(filePath) {
      try {
        return toFileStat(fs.lstatSync(filePath), filePath);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async stat(filePath) {
      try {
        return toFileStat(fs.statSync(filePath), filePath);
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async readlink(filePath) {
      return fs.readlinkSync(filePath);
    },
    async realpath(filePath) {
      return fs.realpathSync.native(filePath);
    },
    async readFile(filePath) {
      return fs.readFileSync(filePath);
    },
    async openChunkReader(filePath): Promise<ChunkReader> {
      // O_NONBLOCK: a FIFO swapped in after our stat must not block the extension host.
      const fd = fs.openSync(filePath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      return {
        async read(buffer, position) {
          return fs.readSync(fd, buffer, 0, buffer.length, position);
        },
        async close() {
          fs.closeSync(fd);
        },
      };
    },
    async writeFile(filePath, data, options: WriteOptions = {}) {
      if (options.inPlace) writeInPlace(filePath, data);
      else writeAtomic(filePath, data, options.mode);
    },
    async unlink(filePath) {
      fs.unlinkSync(filePath);
    },
    async mkdirp(dir) {
      fs.mkdirSync(dir, { recursive: true });
    },
    async rmdir(dir) {
      fs.rmdirSync(dir);
    },
    async readdir(dir) {
      return fs.readdirSync(dir);
    },
    homedir() {
      return os.homedir();
    },
  };
}
