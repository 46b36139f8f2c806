/**
 * Live invalidation hints: file-system watchers per workspace folder, document changes, saves and workbench
 * file operations are turned into noted changes (`onDidNoteChange`: path and who), which the guard host tells
 * the guard, so refusals and the Sessions view can say who changed a file. Hints only: the guard always
 * re-verifies by content, because watchers drop events under load. Our own edits are announced beforehand
 * (the editor file system's `onWillWrite`) and never reported as foreign changes.
 * A git checkout of many files is noted in bulk and logged once. This is the extension's one workspace watcher:
 * `onDidObserveChange` reports every change seen, unfiltered, to owners that recheck by content anyway (the
 * approval gate).
 */
import * as path from 'path';
import * as vscode from 'vscode';
import type { ChangeSource } from '../../core/index';
import type { Log } from '../log';
import { Disposable, disposeAll } from '../util/dispose';
import { attributeChange } from './changeAttribution';

/** A change to a file and who made it, as far as the events tell. */
export interface NotedChange {
  readonly path: string;
  readonly source: ChangeSource;
}

/** How long after our own write its echo events are ignored, and how long git activity colours events. */
const OWN_EDIT_WINDOW_MS = 3000;
const GIT_WINDOW_MS = 3000;
/** VS Code reloads a clean document within this after its file changed on disk; its dirty flag settles within the second. */
const RELOAD_WINDOW_MS = 3000;
const RELOAD_SETTLE_MS = 150;
/** A save (participants included) is over within this; its file-system echo arrives within the second. */
const SAVE_WINDOW_MS = 5000;
const SAVE_ECHO_MS = 1000;

export class ChangeWatcher extends Disposable {
  private readonly ownEdits = new Map<string, number>();
  /** Files being saved, with when the save started (a save that never completes expires). */
  private readonly savingSince = new Map<string, number>();
  private gitActiveUntil = 0;
  /** When each file last changed on disk and who the watcher's event named, to tell reloads from typing. */
  private readonly diskChanges = new Map<string, { at: number; source: ChangeSource }>();
  /** Pending looks at whether a document change was a reload (one per file). */
  private readonly reloadChecks = new Map<string, NodeJS.Timeout>();
  /** Files noted as changed outside ReadGate lately: a git event arriving after them makes them git's. */
  private readonly recentExternal = new Map<string, number>();
  private burst = { count: 0, timer: undefined as NodeJS.Timeout | undefined, git: 0 };
  private folderWatchers: vscode.Disposable[] = [];
  private readonly _onDidNoteChange = this._register(new vscode.EventEmitter<NotedChange>());
  /** Fires with every change attributed to someone other than ReadGate (the guard notes it; views refresh). */
  readonly onDidNoteChange = this._onDidNoteChange.event;
  private readonly _onDidObserveChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  /**
   * Fires with every file change seen, before any filtering: ReadGate's own edits, typing in a buffer, saves and
   * files of virtual workspace folders included. A pending change must be rechecked whoever moved its file.
   */
  readonly onDidObserveChange = this._onDidObserveChange.event;

  /** `onWillWrite`: the paths ReadGate's own file system is about to change. */
  constructor(
    private readonly log: Log,
    onWillWrite: vscode.Event<string>,
  ) {
    super();
    this._register(onWillWrite((file) => this.expectOwnEdit(file)));
    this.watchFolders();
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.watchFolders()));
    this._register(
      new vscode.Disposable(() => {
        disposeAll(this.folderWatchers);
        if (this.burst.timer) clearTimeout(this.burst.timer);
        for (const timer of this.reloadChecks.values()) clearTimeout(timer);
      }),
    );
    this._register(vscode.workspace.onWillSaveTextDocument((event) => this.savingSince.set(event.document.uri.fsPath, Date.now())));
    // The file event of the save itself arrives after did-save: keep the mark a moment longer.
    this._register(vscode.workspace.onDidSaveTextDocument((document) => this.savingSince.set(document.uri.fsPath, Date.now() - SAVE_WINDOW_MS + SAVE_ECHO_MS)));
    this._register(vscode.workspace.onDidChangeTextDocument((event) => this.documentChanged(event)));
    this._register(
      vscode.workspace.onDidRenameFiles((event) => {
        for (const { oldUri, newUri } of event.files) {
          this.note(oldUri.fsPath, attributeChange({ kind: 'workbench', operation: 'renamed', detail: `to ${vscode.workspace.asRelativePath(newUri)}` }));
          this.note(newUri.fsPath, attributeChange({ kind: 'workbench', operation: 'renamed', detail: `from ${vscode.workspace.asRelativePath(oldUri)}` }));
        }
      }),
    );
    this._register(
      vscode.workspace.onDidDeleteFiles((event) => {
        for (const uri of event.files) this.note(uri.fsPath, attributeChange({ kind: 'workbench', operation: 'deleted' }));
      }),
    );
  }

  /** A document's text changed: observed always; noted as someone else's unless it is ReadGate's own edit. */
  private documentChanged(event: vscode.TextDocumentChangeEvent): void {
    if (event.contentChanges.length === 0) return;
    this._onDidObserveChange.fire(event.document.uri);
    if (event.document.uri.scheme !== 'file') return;
    const file = event.document.uri.fsPath;
    if (this.isOwn(file)) return;
    const reason = event.reason === vscode.TextDocumentChangeReason.Undo ? 'undo' : event.reason === vscode.TextDocumentChangeReason.Redo ? 'redo' : undefined;
    this.note(file, attributeChange({ kind: 'document', duringSave: this.isSaving(file), reason }));
    // A clean document that changes right after its file changed on disk may be VS Code reloading it. The dirty
    // flag tells, but it lags on the first keystroke: look again a moment later, and if the document stayed
    // clean it was a reload, whose author the file event named. No disk read and no look at the text, so
    // typing costs nothing.
    const onDisk = this.diskChanges.get(file);
    if (!reason && !this.isSaving(file) && !event.document.isDirty && onDisk && Date.now() - onDisk.at <= RELOAD_WINDOW_MS && !this.reloadChecks.has(file)) {
      const document = event.document;
      this.reloadChecks.set(
        file,
        setTimeout(() => {
          this.reloadChecks.delete(file);
          if (!document.isDirty && !this.isDisposed) this.note(file, onDisk.source);
        }, RELOAD_SETTLE_MS),
      );
    }
  }

  private isSaving(file: string): boolean {
    const since = this.savingSince.get(file);
    if (since === undefined) return false;
    if (Date.now() - since > SAVE_WINDOW_MS) {
      this.savingSince.delete(file);
      return false;
    }
    return true;
  }

  private expectOwnEdit(file: string): void {
    this.ownEdits.set(file, Date.now() + OWN_EDIT_WINDOW_MS);
  }

  private isOwn(file: string): boolean {
    const until = this.ownEdits.get(file);
    if (until === undefined) return false;
    if (until < Date.now()) {
      this.ownEdits.delete(file);
      return false;
    }
    return true;
  }

  private watchFolders(): void {
    disposeAll(this.folderWatchers);
    this.folderWatchers = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const local = folder.uri.scheme === 'file';
      const files = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '**/*'));
      const onFile = (event: 'created' | 'changed' | 'deleted') => (uri: vscode.Uri) => {
        this._onDidObserveChange.fire(uri);
        if (local) this.onFileEvent(uri.fsPath, event);
      };
      files.onDidCreate(onFile('created'));
      files.onDidChange(onFile('changed'));
      files.onDidDelete(onFile('deleted'));
      this.folderWatchers.push(files);
      // Attribution (git, own edits, saves) is for local files only; virtual folders just report changes.
      if (!local) continue;
      // HEAD and the index move on checkout, merge, reset and stash: file events around them are git's.
      // Repositories nested in the folder count too.
      const git = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, '{.git,**/.git}/{HEAD,index}'));
      const onGit = () => {
        const now = Date.now();
        this.gitActiveUntil = now + GIT_WINDOW_MS;
        // Watchers deliver in batches, so a checkout's file events may come before its HEAD or index event.
        for (const [file, at] of this.recentExternal) {
          if (now - at <= GIT_WINDOW_MS) this.note(file, attributeChange({ kind: 'file', event: 'changed', gitActive: true }));
        }
        this.recentExternal.clear();
      };
      git.onDidChange(onGit);
      git.onDidCreate(onGit);
      this.folderWatchers.push(git);
    }
  }

  private onFileEvent(file: string, event: 'created' | 'changed' | 'deleted'): void {
    if (file.includes(`${path.sep}.git${path.sep}`) || this.isOwn(file)) return;
    // With unsaved changes the buffer is what the guard reads; a change on disk behind it is not what moved.
    if (vscode.workspace.textDocuments.some((document) => document.isDirty && document.uri.scheme === 'file' && document.uri.fsPath === file)) return;
    // A change VS Code itself made by saving an open document is the user's save, already reported.
    if (event === 'changed' && this.isSaving(file)) return;
    const gitActive = Date.now() < this.gitActiveUntil;
    const source = attributeChange({ kind: 'file', event, gitActive });
    this.note(file, source);
    this.markDiskChange(file, source);
    if (!gitActive && event !== 'deleted') this.rememberExternal(file);
    this.countBurst(gitActive);
  }

  private note(file: string, source: ChangeSource): void {
    this._onDidNoteChange.fire({ path: file, source });
  }

  private markDiskChange(file: string, source: ChangeSource): void {
    const now = Date.now();
    this.diskChanges.delete(file);
    this.diskChanges.set(file, { at: now, source });
    for (const [old, { at }] of this.diskChanges) {
      if (now - at <= RELOAD_WINDOW_MS && this.diskChanges.size <= 10_000) break;
      this.diskChanges.delete(old);
    }
  }

  private rememberExternal(file: string): void {
    const now = Date.now();
    this.recentExternal.delete(file);
    this.recentExternal.set(file, now);
    // Bounded: only the last few seconds matter.
    for (const [old, at] of this.recentExternal) {
      if (now - at <= GIT_WINDOW_MS && this.recentExternal.size <= 10_000) break;
      this.recentExternal.delete(old);
    }
  }

  /** Bursts (a checkout of many files) are logged once, not file by file. */
  private countBurst(git: boolean): void {
    this.burst.count++;
    if (git) this.burst.git++;
    if (this.burst.timer) return;
    this.burst.timer = setTimeout(() => {
      const { count, git: byGit } = this.burst;
      this.burst = { count: 0, timer: undefined, git: 0 };
      this.log.debug('[watch] files changed outside ReadGate', { files: count, byGit });
    }, 500);
  }
}
