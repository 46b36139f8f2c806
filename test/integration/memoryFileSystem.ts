/** A minimal in-memory FileSystemProvider, to stand for a virtual workspace's file system in tests. */
import * as vscode from 'vscode';

interface Entry {
  type: vscode.FileType;
  data: Uint8Array;
  mtime: number;
  ctime: number;
}

export class MemoryFileSystem implements vscode.FileSystemProvider {
  private readonly entries = new Map<string, Entry>([['/', { type: vscode.FileType.Directory, data: new Uint8Array(), mtime: Date.now(), ctime: Date.now() }]]);
  private readonly emitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.emitter.event;

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => {});
  }

  private get(uri: vscode.Uri): Entry {
    const entry = this.entries.get(uri.path);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry;
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const { type, mtime, ctime, data } = this.get(uri);
    return { type, mtime, ctime, size: data.length };
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const prefix = uri.path.endsWith('/') ? uri.path : `${uri.path}/`;
    return [...this.entries.entries()]
      .filter(([path]) => path !== uri.path && path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
      .map(([path, entry]) => [path.slice(prefix.length), entry.type]);
  }

  createDirectory(uri: vscode.Uri): void {
    this.entries.set(uri.path, { type: vscode.FileType.Directory, data: new Uint8Array(), mtime: Date.now(), ctime: Date.now() });
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.get(uri).data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array): void {
    const existing = this.entries.get(uri.path);
    this.entries.set(uri.path, { type: vscode.FileType.File, data: content, mtime: Date.now(), ctime: existing?.ctime ?? Date.now() });
    this.emitter.fire([{ type: existing ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  delete(uri: vscode.Uri): void {
    this.get(uri);
    this.entries.delete(uri.path);
    this.emitter.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  rename(oldUri: vscode.Uri, newUri: vscode.Uri): void {
    this.entries.set(newUri.path, this.get(oldUri));
    this.entries.delete(oldUri.path);
  }
}
