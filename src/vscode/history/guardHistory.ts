/**
 * The change history port over the guard and the history store the extension created for it: records and the
 * export through the guard (which waits for changes still being stored), a version's bytes from the store,
 * reverts through `Guard.revert` (planned by the core, reviewed in the panel like any change) in a session of
 * the user's own (`palette:revert:<uuid>`, so the panel words it "Your revert" and gives it focus): a change, a
 * session, or one file to before a session (`{ sessionId, path }`).
 *
 * When a change is on record: the guard has no event for it, so the port fires after every ledger change (an
 * applied change teaches its session's ledger; reads do too, and a listing is cheap), after every write of the
 * guard's file system (a tool call without a chat session teaches no ledger anyone hears), and after each revert
 * of its own. A listing waits for changes still being stored, so one made just before is listed. Listeners are
 * debounced by the view. What files hold now (`versionsNow`, whether a revert still holds) is read through the
 * guard's file system, so an unsaved buffer counts as the guard counts it.
 */
import { createHash, randomUUID } from 'crypto';
import * as vscode from 'vscode';
import type { FileSystem, Guard, RevertTarget as GuardRevertTarget, History, MutationResult } from '../../core/index';
import { Disposable } from '../util/dispose';
import { REVERT_PREFIX } from '../sessions/sessionKeys';
import type { HistoryFilter, HistorySource, RevertTarget } from './historySource';

/** Files larger than this are not hashed to tell whether a revert still holds (their revert counts as in effect). */
const MAX_COMPARED_BYTES = 32 * 1024 * 1024;

export class GuardHistory extends Disposable implements HistorySource {
  private readonly _onDidRecord = this._register(new vscode.EventEmitter<void>());

  /**
   * `onDidWrite`: the guard's file system's announcement of each write it is about to make; `files`: that file
   * system, which reads an unsaved buffer's text as the guard does (for `versionsNow`).
   */
  constructor(
    private readonly guard: Guard,
    private readonly store: History,
    onDidWrite: vscode.Event<unknown>,
    private readonly files?: Pick<FileSystem, 'stat' | 'readFile'>,
  ) {
    super();
    this._register(new vscode.Disposable(guard.onDidChangeLedger(() => this._onDidRecord.fire())));
    this._register(onDidWrite(() => this._onDidRecord.fire()));
    // A change is listed once its record is stored, which is after the write: a listing taken in between lacks it.
    this._register(new vscode.Disposable(store.onDidRecord(() => this._onDidRecord.fire())));
  }

  list(filter?: HistoryFilter): ReturnType<Guard['history']> {
    return this.guard.history(filter);
  }

  versionBytes(versionId: string): Promise<Uint8Array | undefined> {
    return this.store.versionBytes(versionId);
  }

  async versionsNow(paths: readonly string[]): Promise<Map<string, string | null>> {
    const versions = new Map<string, string | null>();
    const files = this.files;
    if (!files) return versions;
    await Promise.all(
      paths.map(async (path) => {
        try {
          const stat = await files.stat(path);
          if (!stat) versions.set(path, null);
          else if (stat.kind === 'file' && stat.size <= MAX_COMPARED_BYTES) {
            versions.set(
              path,
              createHash('sha256')
                .update(await files.readFile(path))
                .digest('hex'),
            );
          }
        } catch {
          // Unknown: left out, so the revert is not taken for undone.
        }
      }),
    );
    return versions;
  }

  exportJsonLines(write: (line: string) => void | Promise<void>, options: { contents: boolean }): Promise<number> {
    return this.guard.exportHistory(write, { contents: options.contents });
  }

  revert(target: RevertTarget, options: { explanation: string; signal?: AbortSignal }): Promise<MutationResult> {
    return this.revertInOwnSession(target, options);
  }

  revertFile(sessionId: string, path: string, options: { explanation: string; signal?: AbortSignal }): Promise<MutationResult> {
    return this.revertInOwnSession({ sessionId, path }, options);
  }

  /** `Guard.revert` in a session of the user's own, dropped afterwards; listeners hear of it either way. */
  private async revertInOwnSession(target: GuardRevertTarget, options: { explanation: string; signal?: AbortSignal }): Promise<MutationResult> {
    const sessionId = `${REVERT_PREFIX}${randomUUID()}`;
    try {
      return await this.guard.revert(target, { ...options, sessionId, surface: 'palette', label: 'Your revert' });
    } finally {
      this.guard.dropSession(sessionId);
      this._onDidRecord.fire();
    }
  }

  onDidRecord(listener: () => void): () => void {
    const subscription = this._onDidRecord.event(listener);
    return () => subscription.dispose();
  }
}
