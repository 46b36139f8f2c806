/**
 * The guard's file system inside VS Code: what the user sees is the truth. For a file open in an editor with
 * unsaved changes, reads return the buffer (encoded in the document's encoding) and its document version is
 * folded into the file's version; changes to an open document go through a `WorkspaceEdit` (one undo step),
 * and the document is saved afterwards only if it had no unsaved changes before. Everything else is the
 * local disk through the core's Node file system (atomic writes, modes, links).
 *
 * Not here: deciding anything. This is a port implementation; policy stays in the core.
 */
import * as fs from 'fs';
import * as vscode from 'vscode';
import {
  type BatchWrite,
  type ChunkReader,
  type ScratchSpace,
  createNodeFileSystem,
  decodeText,
  encodeText,
  type FileStat,
  type FileSystem,
  type FolderExpectation,
  type TextCodec,
  type WriteExpectation,
  type WriteOptions,
  writeConflict,
} from '../../core/index';
import { fromVirtualPath, isVirtualPath } from '../util/virtualPaths';
import { Disposable } from '../util/dispose';
import { WorkspaceFileSystem } from './workspaceFileSystem';

/** Encodings the core detects and handles byte-exactly by itself. */
const CORE_ENCODINGS = new Set(['utf8', 'utf8bom', 'utf16le', 'utf16be']);

/**
 * A document's UTF-8 (VS Code's `utf8` and `utf8bom` are the core's names): encoded and decoded by the core,
 * without a round trip to the workbench. Other encodings go through `workspace.encode`/`decode`.
 */
function isUtf8(encoding: string): encoding is 'utf8' | 'utf8bom' {
  return encoding === 'utf8' || encoding === 'utf8bom';
}

function realpathOrSelf(path: string): string {
  try {
    return fs.realpathSync.native(path);
  } catch {
    return path;
  }
}

/**
 * The bytes the document would save as, in its own encoding. Text the core will not encode exactly (a lone
 * surrogate in UTF-8) goes to the editor, which writes it as VS Code would save it.
 */
async function encodeForDocument(document: vscode.TextDocument): Promise<Uint8Array> {
  const text = document.getText();
  const own = isUtf8(document.encoding) ? encodeText(text, document.encoding) : undefined;
  return own?.ok ? own.bytes : vscode.workspace.encode(text, { encoding: document.encoding });
}

/** The text `bytes` hold in the document's encoding (the inverse of `encodeForDocument`). */
async function decodeForDocument(document: vscode.TextDocument, bytes: Uint8Array): Promise<string> {
  return isUtf8(document.encoding) ? decodeText(bytes, document.encoding) : vscode.workspace.decode(bytes, { encoding: document.encoding });
}

/** The smallest single replacement that turns `before` into `after` (keeps cursors and folding stable). */
function minimalReplacement(document: vscode.TextDocument, after: string): { range: vscode.Range; text: string } | undefined {
  const before = document.getText();
  if (before === after) return undefined;
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { range: new vscode.Range(document.positionAt(start), document.positionAt(before.length - end)), text: after.slice(start, after.length - end) };
}

/** Whether a document's buffer holds exactly the bytes the guard planned against (true when it named none). */
async function showsExpected(document: vscode.TextDocument, expected: { bytes: Uint8Array } | undefined): Promise<boolean> {
  if (!expected) return true;
  const shown = Buffer.from(await encodeForDocument(document));
  return Buffer.compare(shown, Buffer.from(expected.bytes.buffer, expected.bytes.byteOffset, expected.bytes.byteLength)) === 0;
}

export class EditorFileSystem extends Disposable implements FileSystem {
  /** Disk writes verify through the Node port; a document's edit is checked against its text just before it is applied. */
  readonly verifiesExpectations = true;
  /** The last buffer encoded: kept only until another document or version is read. */
  private encoded: { document: vscode.TextDocument; version: number; bytes: Uint8Array } | undefined;
  private readonly local: FileSystem;
  private readonly virtual = new WorkspaceFileSystem();

  /** Local files through Node's fs; virtual workspaces' files through workspace.fs. */
  private backend(path: string): Omit<FileSystem, 'homedir'> {
    return isVirtualPath(path) ? this.virtual : this.local;
  }

  private readonly _onWillWrite = this._register(new vscode.EventEmitter<string>());
  /** Fires with every path this file system is about to change, so watchers can tell our edits apart. */
  readonly onWillWrite = this._onWillWrite.event;

  private readonly _onDidWrite = this._register(new vscode.EventEmitter<string>());
  /**
   * Fires with every path this file system changed (or tried to), once the write is over: ReadGate's own writes
   * (a revert among them) raise no watcher event, and views that show what sessions saw must still redraw.
   */
  readonly onDidWrite = this._onDidWrite.event;

  /** Runs a write of `paths`, then says they were written, whatever the outcome. */
  private async writing<T>(paths: readonly string[], write: () => Promise<T>): Promise<T> {
    for (const path of paths) this._onWillWrite.fire(path);
    try {
      return await write();
    } finally {
      for (const path of paths) this._onDidWrite.fire(path);
    }
  }

  /** `warn` hears what went wrong after a write returned (another writer's late change to a replaced file). */
  constructor(warn?: (message: string) => void) {
    super();
    this.local = createNodeFileSystem(warn ? { warn } : {});
  }

  /** The open document showing `path` (directly or through a link), if any. */
  openDocument(path: string): vscode.TextDocument | undefined {
    const virtual = fromVirtualPath(path)?.toString();
    if (virtual) return vscode.workspace.textDocuments.find((document) => !document.isClosed && document.uri.toString() === virtual);
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme !== 'file' || document.isClosed) continue;
      const own = document.uri.fsPath;
      if (own === path || realpathOrSelf(own) === path) return document;
    }
    return undefined;
  }

  async lstat(path: string): Promise<FileStat | undefined> {
    return this.backend(path).lstat(path);
  }

  async stat(path: string): Promise<FileStat | undefined> {
    const stat = await this.backend(path).stat(path);
    const document = stat?.kind === 'file' ? this.openDocument(path) : undefined;
    if (!stat || !document?.isDirty) return stat;
    // The size is the buffer's, so the core picks loading or streaming by what it will really read.
    return { ...stat, size: (await this.bufferBytes(document)).length, revision: `document-v${document.version}` };
  }

  readlink(path: string): Promise<string> {
    return this.backend(path).readlink(path);
  }

  realpath(path: string): Promise<string> {
    return this.backend(path).realpath(path);
  }

  async readFile(path: string, scratch?: ScratchSpace): Promise<Uint8Array> {
    const document = this.openDocument(path);
    return document?.isDirty ? this.bufferBytes(document) : this.backend(path).readFile(path, scratch);
  }

  /** A file with unsaved changes is read from its buffer at every size (a big one is streamed from memory). */
  async openChunkReader(path: string): Promise<ChunkReader> {
    const document = this.openDocument(path);
    if (!document?.isDirty) return this.backend(path).openChunkReader(path);
    const bytes = await this.bufferBytes(document);
    return {
      read: async (buffer, position) => {
        const part = bytes.subarray(Math.min(position, bytes.length), Math.min(position + buffer.length, bytes.length));
        buffer.set(part);
        return part.length;
      },
      close: async () => undefined,
    };
  }

  /** The bytes of a document's buffer, encoded once per document version (a call stats, then reads, the same version). */
  private async bufferBytes(document: vscode.TextDocument): Promise<Uint8Array> {
    const cached = this.encoded;
    if (cached && cached.document === document && cached.version === document.version) return cached.bytes;
    const bytes = await encodeForDocument(document);
    this.encoded = { document, version: document.version, bytes };
    return bytes;
  }

  /**
   * The open document that writes to `path` must go through, or undefined to write bytes to disk. A document
   * without unsaved changes whose text does not encode back to exactly the bytes on disk (a file VS Code
   * decoded with the wrong encoding, or mixed or lone-CR line endings it normalized) is written on disk instead: saving
   * it would rewrite every other byte. VS Code then reloads it.
   */
  private async editableDocument(path: string): Promise<vscode.TextDocument | undefined> {
    const document = this.openDocument(path);
    if (!document || document.isDirty) return document;
    const [shown, onDisk] = await Promise.all([encodeForDocument(document), this.backend(path).readFile(path)]);
    return Buffer.compare(Buffer.from(shown), Buffer.from(onDisk)) === 0 ? document : undefined;
  }

  writeFile(path: string, data: Uint8Array, options?: WriteOptions): Promise<FileStat | void> {
    return this.writing([path], () => this.writeOne(path, data, options));
  }

  private async writeOne(path: string, data: Uint8Array, options?: WriteOptions): Promise<FileStat | void> {
    const document = await this.editableDocument(path);
    // `options.mode` (a replaced file's mode, or the recorded mode of a deleted file a revert brings back) goes
    // through to the Node port for files on disk; a virtual workspace's file system has no modes and ignores it.
    if (!document) return this.backend(path).writeFile(path, data, options);
    // The buffer must still hold exactly what the guard planned against: typing during review is never overwritten.
    if (!(await showsExpected(document, options?.expect?.current))) throw writeConflict('changed', `${path} changed in the editor`);
    const wasDirty = document.isDirty;
    const replacement = minimalReplacement(document, await decodeForDocument(document, data));
    if (replacement) {
      const edit = new vscode.WorkspaceEdit();
      edit.replace(document.uri, replacement.range, replacement.text);
      if (!(await vscode.workspace.applyEdit(edit))) {
        throw Object.assign(new Error('the editor refused the edit because the document changed'), { code: 'EDITOR_EDIT_REFUSED' });
      }
    }
    // A document that had no unsaved changes is saved, so disk and editor agree as before; one the user was
    // editing stays unsaved, for the user to save.
    if (!wasDirty && !(await document.save())) throw Object.assign(new Error('the editor could not save the document'), { code: 'EDITOR_SAVE_FAILED' });
  }

  /**
   * Several files as one change: open documents through one `WorkspaceEdit` (one undo step across them),
   * files on disk atomically. Removals (a deletion, or a moved file's old name) are made on disk, only while the
   * file holds the expected bytes, after the disk writes and before the editor's part. All or nothing: if a
   * removal fails or the editor refuses its part, the disk files are restored and removed files put back where
   * their name is still free.
   */
  writeBatch(writes: BatchWrite[]): Promise<void> {
    return this.writing(
      writes.map((write) => write.path),
      () => this.writeAll(writes),
    );
  }

  /** One file of a batch written (or removed) on disk; answers how to undo it if a later part fails. */
  private async writeOnDisk(write: BatchWrite): Promise<() => Promise<void>> {
    const backend = this.backend(write.path);
    if (write.remove) {
      const [before, stat] = await Promise.all([backend.readFile(write.path), backend.stat(write.path)]);
      await backend.unlink(write.path, write.options.expect);
      // Put back only where the name is still free: nothing created there since is replaced.
      const folders = write.options.expect?.folders ?? [];
      return async () => void (await backend.writeFile(write.path, before, { ...(stat ? { mode: stat.mode } : {}), expect: { folders } }));
    }
    const before = write.created ? undefined : await backend.readFile(write.path);
    await backend.writeFile(write.path, write.data, write.options);
    // Undone only while the file still holds what this batch wrote: never someone else's later change.
    const ours = { current: { bytes: write.data }, folders: write.options.expect?.folders ?? [] };
    return async () => void (await (before ? backend.writeFile(write.path, before, { ...write.options, expect: ours }) : backend.unlink(write.path, ours)));
  }

  private async writeAll(writes: BatchWrite[]): Promise<void> {
    const inEditor: { document: vscode.TextDocument; wasDirty: boolean; text: string }[] = [];
    const onDisk: BatchWrite[] = [];
    // Files to remove that are open: the editor deletes them (one undo step with the rest), after checking
    // each still shows exactly what the guard planned against.
    const closing: vscode.TextDocument[] = [];
    for (const write of writes) {
      const document = write.created ? undefined : write.remove ? this.openDocument(write.path) : await this.editableDocument(write.path);
      if (document && write.remove) {
        if (!(await showsExpected(document, write.options.expect?.current))) throw writeConflict('changed', `${write.path} changed in the editor`);
        closing.push(document);
      } else if (document) inEditor.push({ document, wasDirty: document.isDirty, text: await decodeForDocument(document, write.data) });
      else onDisk.push(write);
    }
    const restore: (() => Promise<void>)[] = [];
    try {
      for (const write of onDisk) restore.push(await this.writeOnDisk(write));
      const edit = new vscode.WorkspaceEdit();
      for (const { document, text } of inEditor) {
        const replacement = minimalReplacement(document, text);
        if (replacement) edit.replace(document.uri, replacement.range, replacement.text);
      }
      for (const document of closing) edit.deleteFile(document.uri);
      // `size` counts text changes only, not file operations.
      if ((edit.size > 0 || closing.length > 0) && !(await vscode.workspace.applyEdit(edit))) {
        throw Object.assign(new Error('the editor refused the edit because a document changed'), { code: 'EDITOR_EDIT_REFUSED' });
      }
    } catch (error) {
      for (const undo of restore.reverse()) await undo().catch(() => undefined);
      throw error;
    }
    const unsaved = [];
    for (const { document, wasDirty } of inEditor) if (!wasDirty && !(await document.save())) unsaved.push(vscode.workspace.asRelativePath(document.uri));
    if (unsaved.length) throw Object.assign(new Error(`the change was applied but ${unsaved.join(', ')} could not be saved`), { code: 'EDITOR_SAVE_FAILED' });
  }

  /**
   * The editor's encoding for a file that is not UTF-8: the open document's, else the `files.encoding`
   * setting for it. The core uses it only if it round-trips the file's bytes exactly.
   */
  async codecFor(path: string): Promise<TextCodec | undefined> {
    const uri = fromVirtualPath(path) ?? vscode.Uri.file(path);
    const encoding = this.openDocument(path)?.encoding ?? vscode.workspace.getConfiguration('files', uri).get<string>('encoding');
    if (!encoding || CORE_ENCODINGS.has(encoding)) return undefined;
    return {
      name: encoding,
      decode: async (bytes) => vscode.workspace.decode(bytes, { encoding }),
      encode: async (text) => vscode.workspace.encode(text, { encoding }),
    };
  }

  unlink(path: string, expect?: WriteExpectation): Promise<void> {
    return this.writing([path], () => this.backend(path).unlink(path, expect));
  }

  mkdirp(path: string, expect?: { folders: readonly FolderExpectation[] }): Promise<void> {
    return this.backend(path).mkdirp(path, expect);
  }

  /** Removes an empty directory a failed create made (never a non-empty one). */
  async rmdir(path: string): Promise<void> {
    await this.backend(path).rmdir?.(path);
  }

  readdir(path: string): Promise<string[]> {
    return this.backend(path).readdir(path);
  }

  homedir(): string {
    return this.local.homedir();
  }
}
