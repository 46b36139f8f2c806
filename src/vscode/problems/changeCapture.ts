/**
 * What an agent's call changed, captured at the moment it was approved: each file's text and problems just
 * before the write, and the language services' reports on it from then on. The guard's approve port is the one
 * place every change passes right before it is written, on every surface; `run` ties the approvals to the call
 * that made them (AsyncLocalStorage follows the call through the guard's awaits, so concurrent calls never mix).
 */
import { AsyncLocalStorage } from 'async_hooks';
import * as vscode from 'vscode';
import type { ApprovalDecision, ApprovalRequest, Problem } from '../../core/index';
import { guardPathToUri } from '../util/paths';
import { openInBackgroundTab } from './backgroundTab';
import { beforeDeadline, DiagnosticsWatch } from './diagnosticsWatch';
import type { LanguageServices } from './languageServices';
import { problemOf } from './problemOf';

export interface CapturedFile {
  /** Where the file is after the change (a moved file's new place). */
  uri: vscode.Uri;
  /** The file's text just before the write ('' for a created file). */
  before: string;
  /** Its problems then (none for a created file); undefined when its service could not say in time. */
  problemsBefore: readonly Problem[] | undefined;
  /** The open document's version then; undefined when the file was not open. */
  versionBefore: number | undefined;
  /** Its problem reports from the approval on. */
  watch: DiagnosticsWatch;
  /** Ends the watch and closes a background tab opened for it. */
  release(): void;
}

export interface CapturedCall<T> {
  value: T;
  files: CapturedFile[];
  /** When the call started and ended (ms since the epoch). */
  started: number;
  ended: number;
}

function documentOf(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((document) => document.uri.toString() === key);
}

/** The longest the approval of a change waits for the problems of a file no service had checked yet. */
const BEFORE_WAIT_MS = 1_500;

export class ChangeCapture {
  private readonly storage = new AsyncLocalStorage<CapturedFile[]>();

  constructor(
    private readonly services: LanguageServices,
    private readonly enabled: () => boolean,
    private readonly waitMs: () => number,
  ) {}

  /** Runs one call; the files its approved changes touch are captured. The caller releases them. */
  async run<T>(work: () => Promise<T>): Promise<CapturedCall<T>> {
    const files: CapturedFile[] = [];
    const started = Date.now();
    try {
      const value = await this.storage.run(files, work);
      return { value, files, started, ended: Date.now() };
    } catch (error) {
      for (const file of files) file.release();
      throw error;
    }
  }

  /** The approve port, wrapped: an approved change's files are captured right before the write. */
  wrap(approve: (request: ApprovalRequest) => Promise<ApprovalDecision>): (request: ApprovalRequest) => Promise<ApprovalDecision> {
    return async (request) => {
      const decision = await approve(request);
      const files = this.storage.getStore();
      if (!files || decision.approved !== true || !this.enabled()) return decision;
      // Still before the write: the files hold what they held when the change was approved.
      files.push(...(await Promise.all(request.files.filter((file) => !file.deleted).map((file) => this.capture(file)))));
      return decision;
    };
  }

  private async capture(file: ApprovalRequest['files'][number]): Promise<CapturedFile> {
    const uri = guardPathToUri(file.movedTo ?? file.path);
    const watch = new DiagnosticsWatch(uri);
    const held: vscode.Disposable[] = [watch];
    const release = (): void => void held.forEach((each) => each.dispose());
    if (file.created) return { uri, before: '', problemsBefore: [], versionBefore: undefined, watch, release };
    const open = documentOf(guardPathToUri(file.path));
    // The editor's text is what the language services checked (a review may have taken a while); a file not open
    // is opened (not shown) so its service can say what it holds before the write.
    const document = open ?? (await vscode.workspace.openTextDocument(guardPathToUri(file.path)).then(undefined, () => undefined));
    const before = document?.getText() ?? file.before;
    // An open document (now also one just opened) holds the change only once VS Code has reloaded it.
    const versionBefore = file.movedTo ? undefined : document?.version;
    const problemsBefore = document ? await this.problemsOf(document, held) : [];
    return { uri, before, problemsBefore, versionBefore, watch, release };
  }

  /**
   * The document's problems now: asked of its service, or as it reported them; a service that reports only on
   * tabs gets the file in a background tab (kept in `held` until the check after the change), and a report.
   */
  private async problemsOf(document: vscode.TextDocument, held: vscode.Disposable[]): Promise<Problem[] | undefined> {
    const service = this.services.serviceFor(document);
    if (!service) return [];
    const deadline = Date.now() + Math.min(BEFORE_WAIT_MS, this.waitMs());
    if (service.ask) return beforeDeadline(service.ask(document), deadline);
    const watch = new DiagnosticsWatch(document.uri);
    const tab = await openInBackgroundTab(document.uri);
    held.push(tab);
    // A file a tab showed was checked already; one just put in a tab is, once its service reported on it.
    if (!tab.wasOpen) await watch.settled(0, deadline);
    watch.dispose();
    return vscode.languages.getDiagnostics(document.uri).map(problemOf);
  }
}
