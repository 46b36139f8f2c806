/**
 * The default FileSystem port on Node's `fs`, for headless use and the adapter's local files.
 *
 * Synchronous calls inside async functions on purpose: a guarded read is a handful of stats and one read,
 * and the thread-pool round trip of `fs.promises` (~17 µs a call) would cost more than the work itself; and the
 * last check before a write must run with no await before the replacing call (`nodeFs/safeWrite.ts`). Reads
 * never block on a FIFO or device swapped in after a stat (`nodeFs/openRegular.ts`). Every call goes through a
 * `Syscalls` object, which tests replace to inject faults at any single step.
 */
import * as os from 'node:os';
import type { BatchWrite, ChunkReader, FileStat, FileSystem, PassOutcome, WriteOptions } from './ports';
import { isMissing } from './fileErrors';
import { toFileStat } from './nodeFs/fileKinds';
import { openRegularFile, readRegularFile } from './nodeFs/openRegular';
import { checkExpectation, makeFoldersSafely, removeFileSafely, writeFileSafely } from './nodeFs/safeWrite';
import { nodeSyscalls, type Syscalls } from './nodeFs/syscalls';

export interface NodeFileSystemOptions {
  /** The system calls to make (default: Node's `fs`); tests wrap them to inject faults and races. */
  syscalls?: Syscalls;
  /** Hears what went wrong after a call returned (another writer's late change to a replaced file). */
  warn?: (message: string) => void;
  /** When a replaced file is looked at again for late appends, in ms (default 2, 20, 200); empty: never. */
  lateChecksMs?: readonly number[];
}

export function createNodeFileSystem(options: NodeFileSystemOptions = {}): FileSystem {
  const sys = options.syscalls ?? nodeSyscalls;
  const warn = options.warn ?? ((message: string) => process.emitWarning(`ReadGate: ${message}`));
  const statWith = (call: (path: string) => import('node:fs').Stats, filePath: string): FileStat | undefined => {
    try {
      return toFileStat(call(filePath), filePath);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  };
  return {
    verifiesExpectations: true,
    async lstat(filePath) {
      return statWith((p) => sys.lstatSync(p), filePath);
    },
    async stat(filePath) {
      return statWith((p) => sys.statSync(p), filePath);
    },
    async readlink(filePath) {
      return sys.readlinkSync(filePath);
    },
    async realpath(filePath) {
      return sys.realpathSync(filePath);
    },
    async readFile(filePath, scratch) {
      return readRegularFile(sys, filePath, scratch);
    },
    async openChunkReader(filePath): Promise<ChunkReader> {
      return chunkReader(sys, filePath);
    },
    async writeFile(filePath, data, writeOptions: WriteOptions = {}) {
      return toFileStat(
        writeFileSafely(sys, filePath, data, { ...writeOptions, warn, ...(options.lateChecksMs ? { lateChecksMs: options.lateChecksMs } : {}) }),
        filePath,
      );
    },
    async writeInOnePass(writes) {
      return writeInOnePass(sys, writes, (write) => ({ ...write.options, warn, ...(options.lateChecksMs ? { lateChecksMs: options.lateChecksMs } : {}) }));
    },
    async unlink(filePath, expect) {
      removeFileSafely(sys, filePath, expect);
    },
    async mkdirp(dir, expect) {
      makeFoldersSafely(sys, dir, expect);
    },
    async rmdir(dir) {
      sys.rmdirSync(dir);
    },
    async readdir(dir) {
      return sys.readdirSync(dir);
    },
    homedir() {
      return os.homedir();
    },
  };
}

/** See `FileSystem.writeInOnePass`: synchronous from the first check to the last replacement. */
function writeInOnePass(sys: Syscalls, writes: readonly BatchWrite[], optionsOf: (write: BatchWrite) => WriteOptions): PassOutcome {
  for (let i = 0; i < writes.length; i++) {
    const expect = writes[i].options.expect;
    try {
      if (expect) checkExpectation(sys, writes[i].path, expect);
    } catch (error) {
      return { done: 0, failed: i, error };
    }
  }
  const written: (FileStat | undefined)[] = [];
  for (let i = 0; i < writes.length; i++) {
    const write = writes[i];
    try {
      if (write.remove) removeFileSafely(sys, write.path, write.options.expect);
      written.push(write.remove ? undefined : toFileStat(writeFileSafely(sys, write.path, write.data, optionsOf(write)), write.path));
    } catch (error) {
      return { done: i, failed: i, error, written };
    }
  }
  return { done: writes.length, written };
}

function chunkReader(sys: Syscalls, filePath: string): ChunkReader {
  const { fd } = openRegularFile(sys, filePath);
  return {
    async read(buffer, position) {
      return sys.readSync(fd, buffer, 0, buffer.length, position);
    },
    async close() {
      sys.closeSync(fd);
    },
  };
}
