/**
 * Owns the guard the whole extension shares: creates it from the settings and the workspace folders (the
 * roots, plus `readgate.paths.extraRoots`) and pushes every later change of either into it, so settings
 * apply live without a reload; tells it every change the change watcher notes. The guard is created once and
 * never replaced, so owners hold the `Guard` itself. Disposing it disposes the guard (every later call is
 * CANCELLED). The change history store, when there is one, is the guard's and takes its budget from the
 * settings too.
 */
import * as vscode from 'vscode';
import { type ApprovalDecision, type ApprovalRequest, createGuard, type FileSystem, type Guard, type GuardSettings, type History } from '../core/index';
import type { Config, ReadGateConfig } from './config';
import type { NotedChange } from './documents/changeWatcher';
import type { Log } from './log';
import { Disposable } from './util/dispose';
import { uriToGuardPath } from './util/paths';
import { looksLikeUri } from './util/virtualPaths';

function rootsOf(config: ReadGateConfig, internal: readonly string[]): string[] {
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => uriToGuardPath(folder.uri));
  const extra = config.extraRoots.flatMap((root) => {
    if (!looksLikeUri(root)) return [root];
    try {
      return [uriToGuardPath(vscode.Uri.parse(root, true))];
    } catch {
      return []; // not a valid URI: ignored like a relative path
    }
  });
  return [...new Set([...folders, ...extra, ...internal])];
}

function settingsOf(config: ReadGateConfig, internal: readonly string[]): Required<GuardSettings> {
  return {
    roots: rootsOf(config, internal),
    deny: [...config.deny],
    dedup: config.dedup,
    limits: { maxLines: config.maxLines, maxBytes: config.maxBytes, maxLineLength: config.maxLineLength, maxFileBytes: config.maxFileBytes },
    snapshotBudgetBytes: config.snapshotBudgetBytes,
  };
}

export class GuardHost extends Disposable {
  readonly guard: Guard;

  /**
   * `internalRoots`: ReadGate's own folders agents may read (saved oversized tool results); `onDidNoteChange`:
   * the change watcher's changes with who made them; `history`: the store every applied change is recorded in.
   */
  constructor(
    config: Config,
    log: Log,
    fileSystem: FileSystem,
    approve: (request: ApprovalRequest) => Promise<ApprovalDecision>,
    onDidNoteChange: vscode.Event<NotedChange>,
    internalRoots: readonly string[] = [],
    history?: History,
  ) {
    super();
    this.guard = createGuard({ ...settingsOf(config.current, internalRoots), approve, logger: log, fileSystem, ...(history ? { historyStore: history } : {}) });
    this._register(new vscode.Disposable(() => this.guard.dispose()));
    this._register(onDidNoteChange(({ path, source }) => this.guard.noteChange(path, source)));
    this._register(config.onDidChange((next) => this.guard.configure(settingsOf(next, internalRoots))));
    if (history) this._register(config.onDidChange((next) => void history.configure({ maxBytes: next.historyMaxBytes, maxAgeDays: next.historyMaxAgeDays })));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.guard.configure({ roots: rootsOf(config.current, internalRoots) })));
  }
}
