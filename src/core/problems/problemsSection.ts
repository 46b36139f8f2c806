/**
 * The *problems* section of a change's result: per changed file, the problems the change introduced (nearest
 * the changed lines first, at most MAX_LISTED in all, with a count of the rest), how many it resolved, or
 * honestly why nothing can be said (no language service reports on the file; the service was still checking).
 * Within a character budget when the result has one: problems are dropped from the end of the list, and their
 * count said, before anything else is cut. Pure.
 */
import type { LineChange } from '../text/lineRanges';
import { utf8Size } from '../text/resultBudget';
import { formatCount } from '../text/formatCount';
import { type Problem, distanceToChange } from './compareProblems';

export type FileProblems =
  /** The service checked the file after the change. */
  | { path: string; status: 'checked'; service: string; introduced: readonly Problem[]; resolved: number; changes: readonly LineChange[] }
  /** No language service reports on this file (its language has none here). */
  | { path: string; status: 'unhandled' }
  /** The service had not reported by the time waited. */
  | { path: string; status: 'pending'; service: string; waitedMs: number }
  /** The service reported no change after the change, for as long as was waited: its problems stand as they were. */
  | { path: string; status: 'quiet'; service: string; waitedMs: number };

export const MAX_LISTED = 10;

/** A message is one line of at most this many characters. */
const MAX_MESSAGE = 300;

const plural = (count: number, word: string): string => `${formatCount(count)} ${word}${count === 1 ? '' : 's'}`;

/** `ts` 2322 → TS2322, as tsc prints it; others `source(code)`, or what there is. */
function codeLabel(problem: Problem): string {
  if (problem.source === 'ts' && problem.code && /^\d+$/.test(problem.code)) return `TS${problem.code}`;
  if (problem.source && problem.code) return `${problem.source}(${problem.code})`;
  return problem.source ?? problem.code ?? '';
}

/** `src/pricing.ts:2:7 error TS2322: Type 'string' is not assignable to type 'number'.` */
export function problemLine(path: string, problem: Problem): string {
  const message = problem.message.replace(/\s+/g, ' ').trim();
  const shown = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
  const label = codeLabel(problem);
  return `${path}:${problem.line}:${problem.column} ${problem.severity}${label ? ` ${label}` : ''}: ${shown}`;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** The file's summary line. */
function summary(file: FileProblems): string {
  if (file.status === 'unhandled') return `${file.path}: no language service reports on this file.`;
  if (file.status === 'pending') return `${file.path}: ${file.service} was still checking after ${seconds(file.waitedMs)}; problems not known yet.`;
  if (file.status === 'quiet') return `${file.path}: no new problems (${file.service} reported no change within ${seconds(file.waitedMs)}).`;
  const resolved = file.resolved > 0 ? `; it resolved ${formatCount(file.resolved)}` : '';
  if (file.introduced.length === 0) return `${file.path}: no new problems (${file.service} checked it)${resolved}.`;
  return `${file.path}: ${plural(file.introduced.length, 'new problem')} (${file.service} checked it)${resolved}:`;
}

/** A file's introduced problems, nearest the changed lines first. */
function nearestFirst(file: FileProblems): string[] {
  if (file.status !== 'checked') return [];
  const sorted = [...file.introduced].sort(
    (a, b) => distanceToChange(a.line, file.changes) - distanceToChange(b.line, file.changes) || a.line - b.line || a.column - b.column,
  );
  return sorted.map((problem) => problemLine(file.path, problem));
}

/** The section, or '' when there is nothing to say (no file) or not even the summaries fit `maxChars`. */
export function problemsSection(files: readonly FileProblems[], maxChars = Infinity): string {
  if (files.length === 0) return '';
  const perFile = files.map(nearestFirst);
  const total = perFile.reduce((sum, lines) => sum + lines.length, 0);
  const render = (quota: number): string => {
    const body = ['Problems after this change:'];
    let left = quota;
    files.forEach((file, index) => {
      body.push(summary(file));
      const lines = perFile[index].slice(0, left);
      left -= lines.length;
      body.push(...lines.map((line) => `  ${line}`));
    });
    if (total > quota) body.push(`  … and ${plural(total - quota, 'more new problem')} (the Problems panel lists them).`);
    return body.join('\n');
  };
  let quota = Math.min(MAX_LISTED, total);
  let text = render(quota);
  while (utf8Size(text) > maxChars && quota > 0) text = render(--quota);
  return utf8Size(text) <= maxChars ? text : '';
}
