/**
 * The extension's public API, returned by `activate()`: explicit guard sessions for other
 * extensions, with `Uri` or string paths and exactly the library's result shapes and codes, plus an event for
 * ledger changes, and the change history (records, and reverts the user reviews). Other extensions get it with
 * `vscode.extensions.getExtension('readgate.readgate')?.activate()` and must check `apiVersion` first.
 */
import { randomUUID } from 'crypto';
import * as vscode from 'vscode';
import type { ChangeRecord, Edit, Guard, MultiEditChange, MutationResult, ReadResult, RevertTarget, ToolResultStore } from '../core/index';
import type { AgentProblems } from './problems/agentProblems';
import type { SessionLabels } from './sessions/sessionLabels';
import { Disposable } from './util/dispose';
import { API_PREFIX, apiSessionId } from './sessions/sessionKeys';
import { toGuardPath } from './util/paths';
import { fromVirtualPath, showVirtualPaths } from './util/virtualPaths';

/** One file of the API's multiEdit: `MultiEditChange` with URIs. */
export interface ApiChange {
  uri: vscode.Uri | string;
  edits?: Edit[];
  expectedVersion?: string;
  delete?: true;
  moveTo?: vscode.Uri | string;
}

export interface ReadGateSession extends vscode.Disposable {
  readonly id: string;
  read(uri: vscode.Uri | string, options?: { offset?: number; limit?: number; force?: boolean }): Promise<ReadResult>;
  edit(uri: vscode.Uri | string, edits: Edit[], options?: { expectedVersion?: string; explanation?: string }): Promise<MutationResult>;
  write(uri: vscode.Uri | string, content: string, options?: { expectedVersion?: string; explanation?: string }): Promise<MutationResult>;
  /**
   * `expectedVersion` per file authorizes its change at exactly that version, as for `edit`. A change may
   * instead delete its file (`delete: true`) or move it (`moveTo`, with or without edits); all or none.
   */
  multiEdit(changes: ApiChange[], options?: { explanation?: string }): Promise<MutationResult>;
  /** Removes a file the session has fully seen in its current version (reviewed like any change). */
  delete(uri: vscode.Uri | string, options?: { expectedVersion?: string; explanation?: string }): Promise<MutationResult>;
  /** Moves a file the session has fully seen to a path that does not exist (reviewed like any change). */
  rename(from: vscode.Uri | string, to: vscode.Uri | string, options?: { expectedVersion?: string; explanation?: string }): Promise<MutationResult>;
  check(uri: vscode.Uri | string): Promise<'unknown' | 'stale' | 'fresh'>;
  clear(): void;
}

export interface ReadGateApi {
  readonly apiVersion: 1;
  /**
   * A session of its own: what it has seen is shared with no other session. An `id` you choose names the
   * session: every `openSession` with the same id shares it (and its ledger), until one of them is disposed.
   * Ids starting with `palette:` are the user's own actions and reserved: such an id gets `api:` in front.
   */
  openSession(options?: { id?: string; label?: string }): ReadGateSession;
  readonly onDidChangeLedger: vscode.Event<{ sessionId: string; uri: vscode.Uri }>;
  /**
   * Keeps an oversized tool result out of a model's context: over the threshold (28,000 characters) it is saved
   * (mode 0600) in ReadGate's storage and a ~2 KB preview stub naming the file is returned, which
   * `readgate_read` can read back. Shorter results, ReadGate's own read results and stubs come back unchanged.
   */
  persistToolResult(options: {
    sessionId: string;
    callId: string;
    toolName: string;
    text: string;
  }): Promise<{ text: string; persisted: boolean; uri?: vscode.Uri }>;
  /**
   * Every change applied through ReadGate in this workspace (any agent, any surface), newest first; `path` also
   * finds a file's changes under an older name. Paths of virtual workspaces are shown as their URIs.
   */
  history(filter?: { sessionId?: string; path?: vscode.Uri | string }): Promise<ChangeRecord[]>;
  /**
   * Reverts one change or everything a session did, keeping later edits of other lines (a three-way merge). The
   * user reviews it in the panel like any change; lines changed since are shown as conflicts there and written
   * only if the user takes the merged parts, else `REVERT_CONFLICT`. The revert is recorded (`revertOf`).
   */
  revert(target: RevertTarget, options?: { explanation?: string; signal?: AbortSignal }): Promise<MutationResult>;
}

/** A record as callers see it: virtual workspace paths as the URIs they stand for. */
function shownRecord(record: ChangeRecord): ChangeRecord {
  return {
    ...record,
    files: record.files.map((file) => ({
      ...file,
      path: showVirtualPaths(file.path),
      ...(file.from !== undefined ? { from: showVirtualPaths(file.from) } : {}),
    })),
  };
}

/** Results as callers see them: virtual workspace paths shown as the URIs they stand for. */
function shown<T extends ReadResult | MutationResult>(result: T): T {
  const copy = { ...result } as Record<string, unknown>;
  if (typeof copy.text === 'string') copy.text = showVirtualPaths(copy.text);
  if (typeof copy.message === 'string') copy.message = showVirtualPaths(copy.message);
  if (Array.isArray(copy.files)) {
    copy.files = (copy.files as { path: string; diff: string; movedTo?: string }[]).map((file) => ({
      ...file,
      path: showVirtualPaths(file.path),
      diff: showVirtualPaths(file.diff),
      ...(file.movedTo ? { movedTo: showVirtualPaths(file.movedTo) } : {}),
    }));
  }
  return copy as T;
}

const disposedRefusal = { ok: false as const, code: 'CANCELLED' as const, message: 'This ReadGate session was disposed; open a new one.' };

class ApiSession implements ReadGateSession {
  private disposed = false;

  constructor(
    private readonly guard: Guard,
    readonly id: string,
    private readonly onDispose: () => void,
    private readonly problems?: AgentProblems,
  ) {}

  private get session() {
    return this.guard.session(this.id);
  }

  /** A change of this session: its result ends with the problems it introduced. */
  private change(work: () => Promise<MutationResult>): Promise<MutationResult> {
    return this.problems ? this.problems.run(this.id, this.session.maxResultChars(), work) : work();
  }

  async read(uri: vscode.Uri | string, options?: { offset?: number; limit?: number; force?: boolean }): Promise<ReadResult> {
    if (this.disposed) return disposedRefusal;
    const path = toGuardPath(uri);
    return typeof path === 'string' ? shown(await this.session.read(path, options)) : path;
  }

  async edit(uri: vscode.Uri | string, edits: Edit[], options?: { expectedVersion?: string; explanation?: string }): Promise<MutationResult> {
    if (this.disposed) return disposedRefusal;
    const path = toGuardPath(uri);
    return typeof path === 'string' ? shown(await this.change(() => this.session.edit(path, edits, options))) : path;
  }

  async write(uri: vscode.Uri | string, content: string, options?: { expectedVersion?: string; explanation?: string }): Promise<MutationResult> {
    if (this.disposed) return disposedRefusal;
    const path = toGuardPath(uri);
    return typeof path === 'string' ? shown(await this.change(() => this.session.write(path, content, options))) : path;
  }

  async multiEdit(changes: ApiChange[], options?: { explanation?: string }): Promise<MutationResult> {
    if (this.disposed) return disposedRefusal;
    if (!Array.isArray(changes)) return shown(await this.session.multiEdit(changes, options));
    const resolved: MultiEditChange[] = [];
    for (const change of changes) {
      const path = toGuardPath(change?.uri);
      if (typeof path !== 'string') return path;
      // Each field read once; the guard checks them.
      const { edits, expectedVersion, delete: remove, moveTo } = change as { edits?: unknown; expectedVersion?: unknown; delete?: unknown; moveTo?: unknown };
      const destination = moveTo === undefined ? undefined : toGuardPath(moveTo as vscode.Uri | string);
      if (destination !== undefined && typeof destination !== 'string') return destination;
      resolved.push({
        path,
        ...(edits !== undefined ? { edits: edits as Edit[] } : {}),
        ...(expectedVersion !== undefined ? { expectedVersion: expectedVersion as string } : {}),
        ...(remove !== undefined ? { delete: remove as true } : {}),
        ...(destination !== undefined ? { moveTo: destination } : {}),
      });
    }
    return shown(await this.change(() => this.session.multiEdit(resolved, options)));
  }

  async delete(uri: vscode.Uri | string, options?: { expectedVersion?: string; explanation?: string }): Promise<MutationResult> {
    if (this.disposed) return disposedRefusal;
    const path = toGuardPath(uri);
    return typeof path === 'string' ? shown(await this.change(() => this.session.delete(path, options))) : path;
  }

  async rename(from: vscode.Uri | string, to: vscode.Uri | string, options?: { expectedVersion?: string; explanation?: string }): Promise<MutationResult> {
    if (this.disposed) return disposedRefusal;
    const source = toGuardPath(from);
    if (typeof source !== 'string') return source;
    const destination = toGuardPath(to);
    return typeof destination === 'string' ? shown(await this.change(() => this.session.rename(source, destination, options))) : destination;
  }

  async check(uri: vscode.Uri | string): Promise<'unknown' | 'stale' | 'fresh'> {
    if (this.disposed) return 'unknown';
    const path = toGuardPath(uri);
    return typeof path === 'string' ? this.session.check(path) : 'unknown';
  }

  clear(): void {
    if (!this.disposed) this.session.clear();
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.guard.dropSession(this.id);
    this.onDispose();
  }
}

/** Owns the API object's event emitter and the guard subscription that feeds it. */
export class Api extends Disposable implements ReadGateApi {
  readonly apiVersion = 1 as const;
  private readonly _onDidChangeLedger = this._register(new vscode.EventEmitter<{ sessionId: string; uri: vscode.Uri }>());
  readonly onDidChangeLedger = this._onDidChangeLedger.event;

  constructor(
    private readonly guard: Guard,
    private readonly labels: SessionLabels,
    private readonly toolResults: ToolResultStore,
    private readonly problems?: AgentProblems,
  ) {
    super();
    const unsubscribe = guard.onDidChangeLedger((change) =>
      this._onDidChangeLedger.fire({ sessionId: change.sessionId, uri: fromVirtualPath(change.path) ?? vscode.Uri.file(change.path) }),
    );
    this._register(new vscode.Disposable(unsubscribe));
  }

  openSession(options: { id?: string; label?: string } = {}): ReadGateSession {
    const id = apiSessionId(options?.id, randomUUID);
    this.labels.set(id, typeof options?.label === 'string' ? options.label : undefined);
    return new ApiSession(this.guard, id, () => this.labels.delete(id), this.problems);
  }

  async persistToolResult(options: {
    sessionId: string;
    callId: string;
    toolName: string;
    text: string;
  }): Promise<{ text: string; persisted: boolean; uri?: vscode.Uri }> {
    const { sessionId, callId, toolName, text } = options ?? ({} as typeof options);
    if (typeof text !== 'string') return { text: String(text), persisted: false };
    const outcome = await this.toolResults.persist(String(sessionId), String(callId), String(toolName), text);
    return outcome.persisted ? { text: outcome.text, persisted: true, uri: vscode.Uri.file(outcome.path) } : { text: outcome.text, persisted: false };
  }

  async history(filter?: { sessionId?: string; path?: vscode.Uri | string }): Promise<ChangeRecord[]> {
    const { sessionId, path } = (filter ?? {}) as { sessionId?: unknown; path?: unknown };
    const guardPath = path === undefined ? undefined : toGuardPath(path);
    if (guardPath !== undefined && typeof guardPath !== 'string') throw new TypeError(`ReadGate: history's path: ${guardPath.message}`);
    const records = await this.guard.history({
      ...(sessionId !== undefined ? { sessionId: sessionId as string } : {}),
      ...(guardPath !== undefined ? { path: guardPath } : {}),
    });
    return records.map(shownRecord);
  }

  /** In a session of its own, an extension's (never the user's own `palette:`), dropped once decided. */
  async revert(target: RevertTarget, options?: { explanation?: string; signal?: AbortSignal }): Promise<MutationResult> {
    const sessionId = `${API_PREFIX}revert:${randomUUID()}`;
    const label = 'an extension';
    const { explanation, signal } = (options ?? {}) as { explanation?: string; signal?: AbortSignal };
    this.labels.set(sessionId, label);
    try {
      return shown(
        await this.guard.revert(target, {
          ...(explanation !== undefined ? { explanation } : {}),
          ...(signal !== undefined ? { signal } : {}),
          sessionId,
          surface: 'api',
          label,
        }),
      );
    } finally {
      this.guard.dropSession(sessionId);
      this.labels.delete(sessionId);
    }
  }

  /** The object other extensions see: only the contract, no internals. */
  toPublic(): ReadGateApi {
    return Object.freeze({
      apiVersion: this.apiVersion,
      openSession: (options?: { id?: string; label?: string }) => this.openSession(options),
      onDidChangeLedger: this.onDidChangeLedger,
      persistToolResult: (options: { sessionId: string; callId: string; toolName: string; text: string }) => this.persistToolResult(options),
      history: (filter?: { sessionId?: string; path?: vscode.Uri | string }) => this.history(filter),
      revert: (target: RevertTarget, options?: { explanation?: string; signal?: AbortSignal }) => this.revert(target, options),
    });
  }
}
