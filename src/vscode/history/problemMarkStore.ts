/**
 * The problems marks of the change history: hears the problems section's reports (one per agent call that changed
 * files) and joins each to the records its call made (`problemsJoin.ts`). A report can come before its record is
 * listed, so a report with something to say waits, for a few minutes at most, and is joined again whenever the
 * history hears of a change. The marks live in the workspace state (the newest `MAX_MARKS`), as the history
 * outlives a reload; listeners (the Agent Changes view) hear when one arrives.
 */
import * as vscode from 'vscode';
import type { ProblemsReport } from '../problems/problemsReporter';
import { Disposable } from '../util/dispose';
import { uriToGuardPath } from '../util/paths';
import type { HistorySource } from './historySource';
import { type ChangeProblems, hasProblems, MAX_MARKS, newestMarks, parseMarks } from './problemMarks';
import { type CallProblems, joinReports } from './problemsJoin';

const STATE_KEY = 'readgate.problemMarks';
/** How long a report is kept for the join: records of its call are listed within moments. */
const KEEP_MS = 5 * 60_000;
const MAX_RECENT = 500;

/** A report as the join takes it: its files named by guard paths. */
function callProblemsOf(report: ProblemsReport): CallProblems {
  const files = report.files.map((file) => ({
    path: uriToGuardPath(file.uri),
    errors: file.introducedErrors,
    warnings: file.introducedWarnings,
    resolved: file.resolved,
  }));
  return { sessionId: report.sessionId, started: report.started, ended: report.ended, files };
}

export class ProblemMarkStore extends Disposable {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this._onDidChange.event;
  private readonly marks: Map<string, ChangeProblems>;
  /** Every recent report, clean ones too: a record near two calls goes to the nearer one. */
  private recent: CallProblems[] = [];
  /** Recent reports with something to say whose records are not all listed yet. */
  private readonly waiting = new Set<CallProblems>();
  private joining: Promise<void> | undefined;
  private joinAgain = false;

  constructor(
    private readonly state: vscode.Memento,
    reports: vscode.Event<ProblemsReport>,
    private readonly history: HistorySource,
  ) {
    super();
    this.marks = new Map(parseMarks(state.get(STATE_KEY)));
    this._register(reports((report) => this.hear(report)));
    const unsubscribe = history.onDidRecord(() => {
      if (this.waiting.size > 0) this.join();
    });
    this._register(new vscode.Disposable(unsubscribe));
  }

  /** The mark of a change record, if its change introduced or resolved problems. */
  get(recordId: string): ChangeProblems | undefined {
    return this.marks.get(recordId);
  }

  private hear(report: ProblemsReport): void {
    const call = callProblemsOf(report);
    this.forgetOld(call.ended);
    this.recent.push(call);
    if (call.files.some(hasProblems)) {
      this.waiting.add(call);
      this.join();
    }
  }

  /** Joins the waiting reports, one pass at a time (a call during a pass runs another after it). */
  private join(): void {
    if (this.joining) {
      this.joinAgain = true;
      return;
    }
    this.joining = this.joinWaiting()
      .catch(() => undefined)
      .finally(() => {
        this.joining = undefined;
        if (this.joinAgain && !this.isDisposed) {
          this.joinAgain = false;
          this.join();
        }
      });
  }

  /** Drops the reports older than `KEEP_MS`, and the oldest beyond `MAX_RECENT` (a waiting one too: its records never came). */
  private forgetOld(now: number): void {
    if (this.recent.length < MAX_RECENT && (this.recent.length === 0 || now - this.recent[0].ended < KEEP_MS)) return;
    this.recent = this.recent.filter((call) => now - call.ended < KEEP_MS).slice(-MAX_RECENT);
    const kept = new Set(this.recent);
    for (const call of this.waiting) if (!kept.has(call)) this.waiting.delete(call);
  }

  private async joinWaiting(): Promise<void> {
    this.forgetOld(Date.now());
    let changed = false;
    for (const sessionId of new Set([...this.waiting].map((call) => call.sessionId))) {
      const records = await this.history.list({ sessionId });
      const { marks, settled } = joinReports(
        records,
        this.recent.filter((call) => call.sessionId === sessionId),
      );
      for (const call of settled) this.waiting.delete(call);
      for (const [id, mark] of marks) {
        if (!hasProblems(mark) || this.marks.has(id)) continue;
        this.marks.set(id, mark);
        changed = true;
      }
    }
    if (!changed || this.isDisposed) return;
    const kept = newestMarks(this.marks, MAX_MARKS);
    if (kept.length < this.marks.size) {
      this.marks.clear();
      for (const [id, mark] of kept) this.marks.set(id, mark);
    }
    this._onDidChange.fire();
    await this.state.update(STATE_KEY, kept);
  }
}
