/** Shared helpers for integration tests: the extension's API, the workspace folder, fresh files. */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'readgate.readgate';

export interface PublicApi {
  apiVersion: 1;
  openSession(options?: { id?: string; label?: string }): ApiSession;
  onDidChangeLedger: vscode.Event<{ sessionId: string; uri: vscode.Uri }>;
  persistToolResult(options: { sessionId: string; callId: string; toolName: string; text: string }): Promise<{ text: string; persisted: boolean; uri?: vscode.Uri }>;
  history(filter?: { sessionId?: string; path?: vscode.Uri | string }): Promise<HistoryRecord[]>;
  revert(target: { changeId: string } | { sessionId: string }, options?: { explanation?: string; signal?: AbortSignal }): Promise<{ ok: boolean; code?: string; message?: string }>;
}

/** A change record as the extension API returns it. */
export interface HistoryRecord {
  id: string;
  time: number;
  sessionId: string;
  label: string;
  surface: string;
  tool: string;
  explanation?: string;
  approvedBy: string;
  revertOf?: string;
  files: { path: string; kind: string; from?: string; before: string | null; after: string | null }[];
}

export interface ApiSession extends vscode.Disposable {
  readonly id: string;
  read(uri: vscode.Uri | string, options?: { offset?: number; limit?: number; force?: boolean }): Promise<{ ok: boolean; code?: string; kind?: string; text?: string; message?: string; version?: string }>;
  edit(uri: vscode.Uri | string, edits: { oldString: string; newString: string; replaceAll?: boolean }[], options?: { expectedVersion?: string; explanation?: string }): Promise<{ ok: boolean; code?: string; text?: string; message?: string }>;
  write(uri: vscode.Uri | string, content: string, options?: { expectedVersion?: string; explanation?: string }): Promise<{ ok: boolean; code?: string; message?: string }>;
  multiEdit(changes: { uri: vscode.Uri | string; edits?: { oldString: string; newString: string }[]; expectedVersion?: string; delete?: true; moveTo?: vscode.Uri | string }[], options?: { explanation?: string }): Promise<{ ok: boolean; code?: string; message?: string }>;
  delete(uri: vscode.Uri | string, options?: { expectedVersion?: string; explanation?: string }): Promise<{ ok: boolean; code?: string; message?: string }>;
  rename(from: vscode.Uri | string, to: vscode.Uri | string, options?: { expectedVersion?: string; explanation?: string }): Promise<{ ok: boolean; code?: string; message?: string }>;
  check(uri: vscode.Uri | string): Promise<'unknown' | 'stale' | 'fresh'>;
  clear(): void;
}

export async function api(): Promise<PublicApi> {
  const extension = vscode.extensions.getExtension<PublicApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not loaded`);
  return extension.activate();
}

export function workspaceRoot(): string {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the tests need a workspace folder');
  return folder.uri.fsPath;
}

let counter = 0;

/** Writes a file with a unique name in the workspace folder and returns its absolute path. */
export function freshFile(content: string, extension = '.txt'): string {
  const file = path.join(workspaceRoot(), `t${process.pid}-${Date.now()}-${counter++}${extension}`);
  fs.writeFileSync(file, content);
  return file;
}

export const numbered = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

export function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

/** The version a read's header or a change's result names (token-less calls pass it as expectedVersion). */
export function versionIn(text: string): string {
  const match = /(?:· version|new version) ([0-9a-f]{16})/.exec(text);
  if (!match) throw new Error(`no version in: ${text.slice(0, 200)}`);
  return match[1];
}

/** The message of a rejected promise (tools refuse by throwing). */
export async function rejection(promise: Thenable<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected the call to be refused, but it succeeded');
}

/**
 * Approves every change that waits for review until disposed (through the panel's message protocol), and
 * counts them: for suites about something else whose changes are reviewed anyway (files outside the workspace).
 */
export function autoApprove(): vscode.Disposable & { readonly approved: number } {
  let approved = 0;
  let running = true;
  void (async () => {
    while (running) {
      const views = (await vscode.commands.executeCommand<{ id: string; revision: number }[]>('readgate._test.approval', 'pending')) ?? [];
      for (const view of views) {
        await vscode.commands.executeCommand('readgate._test.approval', 'message', { type: 'approve', id: view.id, revision: view.revision, rejectedHunks: {} });
        approved++;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })();
  return {
    get approved() {
      return approved;
    },
    dispose() {
      running = false;
    },
  };
}

/** A review request as the approval panel's test hook shows it. */
export interface ReviewView {
  id: string;
  revision: number;
  operation: string;
  sessionLabel: string;
  explanation?: string;
  notice?: string;
  /** The user's own change (Apply Patch). */
  own?: boolean;
  files: { path: string; deleted?: boolean; movedTo?: string; hunks: { index: number }[] }[];
}

export const REVIEW_HOOK = 'readgate._test.approval';

/** The changes waiting for review, oldest first. */
export async function pendingReviews(): Promise<ReviewView[]> {
  return (await vscode.commands.executeCommand<ReviewView[]>(REVIEW_HOOK, 'pending')) ?? [];
}

/** The first change waiting for review, once one arrives (5 s at most). */
export async function nextReview(): Promise<ReviewView> {
  for (let i = 0; i < 200; i++) {
    const [first] = await pendingReviews();
    if (first) return first;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no approval request arrived');
}

/**
 * Starts TypeScript's server and waits until it answers, as in a TypeScript project where it runs before an agent's
 * first change (a cold start takes longer than a change's result waits for its problems).
 */
export async function warmTypeScript(): Promise<void> {
  const warm = await vscode.workspace.openTextDocument(vscode.Uri.file(freshFile('export const warm = 1;\n', '.ts')));
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    const answer = await Promise.resolve(vscode.commands.executeCommand<{ success?: boolean }>('typescript.tsserverRequest', 'semanticDiagnosticsSync', { file: warm.uri })).then(undefined, () => undefined);
    if (answer?.success) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('TypeScript did not answer within 45 s');
}
