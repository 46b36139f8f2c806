/**
 * Which change record a problems report belongs to. The problems section reports per call (its session, when it
 * started and ended, each file it wrote); the history records per change. A record belongs to a report of its
 * session whose span holds the record's time (the history takes it during the call; a small slack for clocks
 * read a moment apart), when every file it wrote or moved is among the report's (a deleted file has no problems
 * to report). A record within the slack of two reports goes to the nearer one: an agent's calls on one file can
 * follow each other within milliseconds. Pure: records and reports in, marks out, whichever came first.
 */
import type { ChangeRecord } from '../../core/index';
import type { ChangeProblems, FileProblemCounts } from './problemMarks';

/** One call's report, its files named by their guard paths. */
export interface CallProblems {
  sessionId: string;
  /** The call's start and end, ms since the epoch. */
  started: number;
  ended: number;
  files: FileProblemCounts[];
}

/** How far outside a call's span a record's time may be. */
export const JOIN_SLACK_MS = 250;

const distance = (time: number, report: CallProblems): number =>
  time < report.started ? report.started - time : time > report.ended ? time - report.ended : 0;

/** The files a record wrote or moved (what a report can say anything about). */
const writtenPaths = (record: ChangeRecord): string[] => record.files.filter((file) => file.kind !== 'delete').map((file) => file.path);

/** The report a record belongs to: its session's nearest one within the slack that has all its files. */
function reportOf(record: ChangeRecord, reports: readonly CallProblems[], slackMs: number): CallProblems | undefined {
  const paths = writtenPaths(record);
  if (paths.length === 0) return undefined;
  let best: CallProblems | undefined;
  let bestDistance = Infinity;
  for (const report of reports) {
    const away = distance(record.time, report);
    if (report.sessionId !== record.sessionId || away > slackMs || away >= bestDistance) continue;
    const reported = new Set(report.files.map((file) => file.path));
    if (paths.every((path) => reported.has(path))) [best, bestDistance] = [report, away];
  }
  return best;
}

/** A record's mark from its report: the report's counts for the record's files. */
function markOf(record: ChangeRecord, report: CallProblems): ChangeProblems {
  const paths = new Set(writtenPaths(record));
  const files = report.files.filter((file) => paths.has(file.path));
  const sum = (count: (file: FileProblemCounts) => number): number => files.reduce((total, file) => total + count(file), 0);
  return {
    errors: sum((file) => file.errors),
    warnings: sum((file) => file.warnings),
    resolved: sum((file) => file.resolved),
    files: files.filter((file) => file.errors + file.warnings + file.resolved > 0).map((file) => ({ ...file })),
  };
}

export interface Joined {
  /** Record id → its mark, for every record that belongs to a report (a mark may say nothing). */
  marks: Map<string, ChangeProblems>;
  /** The reports whose files the records cover all of: nothing more will join them. */
  settled: Set<CallProblems>;
}

/** Joins reports to records (in any order: a record without its report yet, or a report without its record, waits). */
export function joinReports(records: readonly ChangeRecord[], reports: readonly CallProblems[], slackMs = JOIN_SLACK_MS): Joined {
  const marks = new Map<string, ChangeProblems>();
  const covered = new Map<CallProblems, Set<string>>();
  for (const record of records) {
    const report = reportOf(record, reports, slackMs);
    if (!report) continue;
    marks.set(record.id, markOf(record, report));
    const paths = covered.get(report) ?? new Set<string>();
    for (const path of writtenPaths(record)) paths.add(path);
    covered.set(report, paths);
  }
  const settled = new Set([...covered].filter(([report, paths]) => report.files.every((file) => paths.has(file.path))).map(([report]) => report));
  return { marks, settled };
}
