/**
 * A change's problems mark: what the problems section said the change introduced and resolved, kept per change
 * record for the Agent Changes view and the statistics; its words, and its stored form (the workspace state keeps
 * the newest marks, a bounded number). Pure, so the words and the bound are tested in plain Node.
 */
import { baseName } from './historyWords';

/** One file's counts: problems the change introduced (by severity) and resolved. */
export interface FileProblemCounts {
  /** The guard path of the file after the change. */
  path: string;
  errors: number;
  warnings: number;
  resolved: number;
}

/** What a change introduced and resolved: the sums over its files, and the files with any. */
export interface ChangeProblems {
  errors: number;
  warnings: number;
  resolved: number;
  files: FileProblemCounts[];
}

/** How many marks the workspace state keeps (the newest changes'). */
export const MAX_MARKS = 1_000;

/** Whether a mark says anything (a clean change that resolved nothing needs none). */
export function hasProblems(mark: Pick<ChangeProblems, 'errors' | 'warnings' | 'resolved'>): boolean {
  return mark.errors + mark.warnings + mark.resolved > 0;
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The mark in a change's description: "2 new errors", "1 new warning", "2 new errors, 1 warning"; '' for a change
 * that introduced none (one that only resolved problems is said so in its tooltip).
 */
export function problemsMarkText(mark: ChangeProblems | undefined): string {
  if (!mark) return '';
  if (mark.errors > 0) return mark.warnings > 0 ? `${plural(mark.errors, 'new error')}, ${plural(mark.warnings, 'warning')}` : plural(mark.errors, 'new error');
  return mark.warnings > 0 ? plural(mark.warnings, 'new warning') : '';
}

/** Which files hold them: "app.ts" for one, "app.ts (2), config.json (1)" for several. */
function filesOf(files: readonly FileProblemCounts[], count: (file: FileProblemCounts) => number): string {
  const holding = files.filter((file) => count(file) > 0);
  if (holding.length === 1) return baseName(holding[0].path);
  return holding.map((file) => `${baseName(file.path)} (${count(file)})`).join(', ');
}

/** The tooltip's lines: "2 new errors in app.ts (1), config.json (1)", the warnings, and what it resolved. */
export function problemsTooltip(mark: ChangeProblems | undefined): string[] {
  if (!mark) return [];
  const lines: string[] = [];
  if (mark.errors > 0) lines.push(`${plural(mark.errors, 'new error')} in ${filesOf(mark.files, (file) => file.errors)}`);
  if (mark.warnings > 0) lines.push(`${plural(mark.warnings, 'new warning')} in ${filesOf(mark.files, (file) => file.warnings)}`);
  if (mark.resolved > 0) lines.push(`It resolved ${plural(mark.resolved, 'problem')} in ${filesOf(mark.files, (file) => file.resolved)}`);
  return lines;
}

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

function parseFile(value: unknown): FileProblemCounts | undefined {
  const file = value as FileProblemCounts | null;
  if (!file || typeof file.path !== 'string' || !isCount(file.errors) || !isCount(file.warnings) || !isCount(file.resolved)) return undefined;
  return { path: file.path, errors: file.errors, warnings: file.warnings, resolved: file.resolved };
}

function parseMark(value: unknown): ChangeProblems | undefined {
  const mark = value as ChangeProblems | null;
  if (!mark || !isCount(mark.errors) || !isCount(mark.warnings) || !isCount(mark.resolved) || !Array.isArray(mark.files)) return undefined;
  const files = mark.files.map(parseFile);
  if (!files.every((file) => file !== undefined)) return undefined;
  return { errors: mark.errors, warnings: mark.warnings, resolved: mark.resolved, files: files as FileProblemCounts[] };
}

/** Stored marks read back (`[record id, mark]` pairs); anything that is not one is dropped. */
export function parseMarks(value: unknown): [string, ChangeProblems][] {
  if (!Array.isArray(value)) return [];
  const marks: [string, ChangeProblems][] = [];
  for (const entry of value) {
    const mark = Array.isArray(entry) && typeof entry[0] === 'string' ? parseMark(entry[1]) : undefined;
    if (mark) marks.push([entry[0] as string, mark]);
  }
  return marks;
}

/** The newest `max` marks, oldest first: record ids sort by creation. */
export function newestMarks(marks: Iterable<[string, ChangeProblems]>, max = MAX_MARKS): [string, ChangeProblems][] {
  const sorted = [...marks].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted.slice(Math.max(0, sorted.length - max));
}
