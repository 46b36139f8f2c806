/**
 * The problems section of an agent's change result (`readgate.problems.afterChange`): for each file the change
 * wrote, wait until its language service has reported on the new content (at most `readgate.problems.waitMs`,
 * never for a file no service reports on; a file that is not open is opened, unseen, so its service checks it),
 * then compare its problems before and after through the change's line changes (`compareProblems`) and say
 * what the change introduced and resolved (`problemsSection`). Reported per call to listeners (the Agent
 * Changes view and the statistics).
 */
import * as vscode from 'vscode';
import { computeLineChanges, type FileProblems, type Problem, type ProblemSeverity, compareProblems, problemsSection } from '../../core/index';
import type { Config } from '../config';
import type { Log } from '../log';
import { Disposable } from '../util/dispose';
import type { CapturedCall, CapturedFile } from './changeCapture';
import type { LanguageServices } from './languageServices';
import { beforeDeadline } from './diagnosticsWatch';
import { problemOf } from './problemOf';

/** One call's problems, for the views: per file, what it introduced and resolved. */
export interface ProblemsReport {
  sessionId: string;
  /** The call's start and end, to find its change in the history. */
  started: number;
  ended: number;
  files: Array<{ uri: vscode.Uri; introducedErrors: number; introducedWarnings: number; resolved: number }>;
}

export class ProblemsReporter extends Disposable {
  private readonly _onDidReport = this._register(new vscode.EventEmitter<ProblemsReport>());
  readonly onDidReport = this._onDidReport.event;

  constructor(
    private readonly config: Config,
    private readonly services: LanguageServices,
    private readonly log: Log,
  ) {
    super();
  }

  /**
   * The section for a call's changed files ('' when turned off or nothing was changed), within `maxChars`.
   * Disposes the call's watches.
   */
  async section(sessionId: string, call: CapturedCall<unknown>, maxChars = Infinity): Promise<string> {
    try {
      const setting = this.config.current.problemsAfterChange;
      if (setting === 'off' || call.files.length === 0) return '';
      const counted: ReadonlySet<ProblemSeverity> = new Set(setting === 'errorsAndWarnings' ? ['error', 'warning'] : ['error']);
      const deadline = Date.now() + this.config.current.problemsWaitMs;
      const checked = await Promise.all(call.files.map((file) => this.check(file, counted, deadline)));
      this._onDidReport.fire({ sessionId, started: call.started, ended: call.ended, files: checked.map((each) => each.counts) });
      return problemsSection(
        checked.map((each) => each.problems),
        maxChars,
      );
    } catch (error) {
      this.log.warn('[problems] could not report the problems of a change', { error: (error as Error).message });
      return '';
    } finally {
      for (const file of call.files) file.release();
    }
  }

  private async check(
    file: CapturedFile,
    counted: ReadonlySet<ProblemSeverity>,
    deadline: number,
  ): Promise<{ problems: FileProblems; counts: ProblemsReport['files'][number] }> {
    const path = vscode.workspace.asRelativePath(file.uri, false);
    const none = { uri: file.uri, introducedErrors: 0, introducedWarnings: 0, resolved: 0 };
    const openedAt = Date.now();
    const document = await vscode.workspace.openTextDocument(file.uri).then(undefined, () => undefined);
    const service = document && this.services.serviceFor(document);
    if (!document || !service) return { problems: { path, status: 'unhandled' }, counts: none };
    const waitedMs = this.config.current.problemsWaitMs;
    const pending = { problems: { path, status: 'pending' as const, service: service.name, waitedMs }, counts: none };
    // Since when the document holds the change: since it was opened, for a file that was not open (opening
    // read the new content); else since its text changed (the change written into it, or VS Code reloading it).
    const since = file.versionBefore === undefined ? openedAt : await file.watch.contentChanged(deadline);
    if (since === undefined || file.problemsBefore === undefined) return pending;
    let after: Problem[] | undefined;
    if (service.ask) after = await beforeDeadline(service.ask(document), deadline);
    else if (await file.watch.settled(since, deadline)) after = vscode.languages.getDiagnostics(file.uri).map(problemOf);
    else return { problems: { path, status: 'quiet', service: service.name, waitedMs }, counts: none };
    if (!after) return pending;
    const pick = (problems: readonly Problem[]): Problem[] => problems.filter((problem) => counted.has(problem.severity));
    const changes = computeLineChanges(file.before, document.getText());
    const { introduced, resolved } = compareProblems(pick(file.problemsBefore), pick(after), changes);
    const counts = {
      uri: file.uri,
      introducedErrors: introduced.filter((p) => p.severity === 'error').length,
      introducedWarnings: introduced.filter((p) => p.severity === 'warning').length,
      resolved: resolved.length,
    };
    return { problems: { path, status: 'checked', service: service.name, introduced, resolved: resolved.length, changes }, counts };
  }
}
