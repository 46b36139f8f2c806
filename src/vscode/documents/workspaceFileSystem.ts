/**
 * The FileSystem port for virtual workspaces: paths under `/.readgate-uri/…` (see `util/virtualPaths.ts`)
 * read and written through `workspace.fs`, whatever provider serves the scheme. Identity is the URI (there are
 * no inodes); there are no symlinks, modes or hard links; writes are whatever the provider makes of them.
 */
import * as vscode from 'vscode';
import { type ChunkReader, type FileKind, type FileStat, type FileSystem, type WriteExpectation, type WriteOptions, writeConflict } from '../../core/index';
import { fromVirtualPath } from '../util/virtualPaths';

function uriOf(path: string): vscode.Uri {
  const uri = fromVirtualPath(path);
  if (!uri) throw Object.assign(new Error(`not a virtual path: ${path}`), { code: 'EINVAL' });
  return uri;
}

function kindOf(type: vscode.FileType): FileKind {
  if (type & vscode.FileType.Directory) return 'directory';
  if (type & vscode.FileType.File) return 'file';
  return 'other';
}

function isNotFound(error: unknown): boolean {
  return error instanceof vscode.FileSystemError && (error.code === 'FileNotFound' || error.code === 'FileNotADirectory');
}

export class WorkspaceFileSystem implements Omit<FileSystem, 'homedir'> {
  async stat(path: string): Promise<FileStat | undefined> {
    const uri = uriOf(path);
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      return { kind: kindOf(stat.type), size: stat.size, mtimeMs: stat.mtime, ctimeMs: stat.ctime, mode: 0o644, nlink: 1, identity: `uri:${uri.toString()}` };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  lstat(path: string): Promise<FileStat | undefined> {
    // workspace.fs reports what a link points to; there is no link to follow or refuse here.
    return this.stat(path);
  }

  async readlink(path: string): Promise<string> {
    throw Object.assign(new Error(`${path} is not a symbolic link`), { code: 'EINVAL' });
  }

  async realpath(path: string): Promise<string> {
    return path;
  }

  async readFile(path: string): Promise<Uint8Array> {
    return vscode.workspace.fs.readFile(uriOf(path));
  }

  async openChunkReader(path: string): Promise<ChunkReader> {
    const bytes = await this.readFile(path);
    return {
      async read(buffer, position) {
        const count = Math.max(0, Math.min(buffer.length, bytes.length - position));
        buffer.set(bytes.subarray(position, position + count));
        return count;
      },
      async close() {},
    };
  }

  /**
   * `workspace.fs` is asynchronous and has no compare-and-replace, so the expectation is checked just before the
   * write, not atomically with it: the best a virtual file system allows.
   */
  private async verify(path: string, expect: WriteExpectation | undefined): Promise<void> {
    if (!expect) return;
    const exists = (await this.stat(path)) !== undefined;
    if (!expect.current) {
      if (exists) throw writeConflict('created', `${path} was created by someone else`);
      return;
    }
    if (!exists) throw writeConflict('deleted', `${path} was deleted`);
    if (Buffer.compare(Buffer.from(await this.readFile(path)), Buffer.from(expect.current.bytes)) !== 0) throw writeConflict('changed', `${path} changed`);
  }

  async writeFile(path: string, data: Uint8Array, options?: WriteOptions): Promise<void> {
    await this.verify(path, options?.expect);
    await vscode.workspace.fs.writeFile(uriOf(path), data);
  }

  async unlink(path: string, expect?: WriteExpectation): Promise<void> {
    await this.verify(path, expect);
    await vscode.workspace.fs.delete(uriOf(path));
  }

  async mkdirp(path: string): Promise<void> {
    await vscode.workspace.fs.createDirectory(uriOf(path));
  }

  /** Not recursive: a directory that is no longer empty stays (and the call rejects). */
  async rmdir(path: string): Promise<void> {
    await vscode.workspace.fs.delete(uriOf(path), { recursive: false, useTrash: false });
  }

  async readdir(path: string): Promise<string[]> {
    return (await vscode.workspace.fs.readDirectory(uriOf(path))).map(([name]) => name);
  }
}
