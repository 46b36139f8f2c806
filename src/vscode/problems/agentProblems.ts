/**
 * Owns what it takes to tell an agent the problems its change introduced: the capture at approval
 * (`changeCapture.ts`), which language service reports on which file (`languageServices.ts`) and the section
 * (`problemsReporter.ts`). Every agent surface in the window runs its calls through `run`: the language model
 * tools (and so `@readgate`), the MCP server (and so the bridge) and the extension API's sessions.
 */
import type { ApprovalDecision, ApprovalRequest } from '../../core/index';
import type { Config } from '../config';
import type { Log } from '../log';
import { Disposable } from '../util/dispose';
import { ChangeCapture } from './changeCapture';
import { LanguageServices } from './languageServices';
import { ProblemsReporter } from './problemsReporter';

/** A result that may carry text (a change's), or a refusal. */
type Outcome = { ok: true; text: string } | { ok: false };

export class AgentProblems extends Disposable {
  private readonly capture: ChangeCapture;
  private readonly reporter: ProblemsReporter;

  constructor(config: Config, log: Log) {
    super();
    const services = this._register(new LanguageServices());
    this.capture = new ChangeCapture(
      services,
      () => config.current.problemsAfterChange !== 'off',
      () => config.current.problemsWaitMs,
    );
    this.reporter = this._register(new ProblemsReporter(config, services, log));
  }

  get onDidReport(): ProblemsReporter['onDidReport'] {
    return this.reporter.onDidReport;
  }

  /** The guard's approve port, wrapped so an approved change's files are captured right before the write. */
  wrapApprove(approve: (request: ApprovalRequest) => Promise<ApprovalDecision>): (request: ApprovalRequest) => Promise<ApprovalDecision> {
    return this.capture.wrap(approve);
  }

  /**
   * Runs one call of session `sessionId`; when it changed files, its result ends with the problems section,
   * the whole within `maxChars` (the session's result budget).
   */
  async run<R extends Outcome>(sessionId: string, maxChars: number | undefined, work: () => Promise<R>): Promise<R> {
    const call = await this.capture.run(work);
    const result = call.value;
    if (!result.ok) {
      for (const file of call.files) file.release();
      return result;
    }
    // A read changes nothing: no section, and no need to measure its (possibly large) text.
    if (call.files.length === 0) return result;
    const text = (result as { text: string }).text;
    const room = maxChars === undefined ? Infinity : maxChars - Buffer.byteLength(text, 'utf8') - 2;
    const section = await this.reporter.section(sessionId, call, room);
    return section ? { ...result, text: `${text}\n\n${section}` } : result;
  }
}
