/**
 * The buffer a guard lends to its whole-file reads, one read at a time (`FileSystem.readFile`'s `scratch`). A
 * guard reads the same files again and again and mostly keeps none of their bytes (a version it decoded before is
 * only hashed), so a fresh buffer for each read would only be garbage for the host to collect and fresh memory
 * for the kernel to map. A read while the buffer is lent out gets one of its own. The buffer of the largest file
 * read so far (at most about the in-memory limit) stays allocated while the guard lives.
 */
import type { FileSystem, ScratchSpace } from '../ports';
import { IN_MEMORY_MAX_BYTES } from './loadText';

/** Bigger buffers are not kept: files past the in-memory limit are streamed, so only a file that grew gets one. */
const MAX_KEPT_BYTES = IN_MEMORY_MAX_BYTES + 1;

export class ReadScratch {
  private space: ScratchSpace | undefined = {};

  /** Runs `use` with the file's bytes, which are valid only until `use` settles: the next read may reuse them. */
  async read<T>(fs: FileSystem, path: string, use: (bytes: Uint8Array) => Promise<T>): Promise<T> {
    const space = this.space;
    this.space = undefined;
    try {
      return await use(await fs.readFile(path, space));
    } finally {
      if (space) {
        if ((space.buffer?.length ?? 0) > MAX_KEPT_BYTES) delete space.buffer;
        this.space = space;
      }
    }
  }
}
