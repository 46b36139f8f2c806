/**
 * Which problems a change introduced and which it resolved: the file's problems before the change are carried
 * through the change's line changes and matched with the problems after it. A problem outside every changed
 * range moves with the lines around it and must be found at its new line; one inside a changed range is matched
 * by what it is (severity, source, code, message) anywhere in the new lines of that same change. What finds no
 * match after the change was introduced; what finds none before was resolved. A problem that only moved, or that
 * was there before, is never introduced. Pure.
 */
import type { LineChange } from '../text/lineRanges';

export type ProblemSeverity = 'error' | 'warning' | 'information' | 'hint';

/** One problem a language service reports on a file (1-based line and column, as people read them). */
export interface Problem {
  line: number;
  column: number;
  severity: ProblemSeverity;
  /** The service that reported it ("ts", "json"). */
  source?: string;
  /** Its code ("2322"), when the service gives one. */
  code?: string;
  message: string;
}

export interface ProblemComparison {
  /** After the change and not before: the change introduced them. */
  introduced: Problem[];
  /** Before the change and not after. */
  resolved: Problem[];
}

/** What a problem is, wherever it stands. */
const kindOf = (problem: Problem): string => JSON.stringify([problem.severity, problem.source ?? '', problem.code ?? '', problem.message]);

/** Where an old line went: its new line when no change touched it, else the index of the change that did. */
type Place = { kind: 'line'; line: number } | { kind: 'change'; index: number };

function placeOld(line: number, changes: readonly LineChange[]): Place {
  let shift = 0;
  for (let index = 0; index < changes.length; index++) {
    const change = changes[index];
    if (line < change.oldFrom) break;
    if (line < change.oldTo) return { kind: 'change', index };
    shift = change.newTo - change.oldTo;
  }
  return { kind: 'line', line: line + shift };
}

/** The change whose new lines hold `line`, or undefined when no change wrote it. */
function changeOfNew(line: number, changes: readonly LineChange[]): number | undefined {
  for (let index = 0; index < changes.length; index++) {
    const change = changes[index];
    if (line < change.newFrom) return undefined;
    if (line < change.newTo) return index;
  }
  return undefined;
}

/** Takes one entry of `key` from a multiset, if there is one. */
function take(pool: Map<string, Problem[]>, key: string): Problem | undefined {
  const found = pool.get(key);
  const problem = found?.pop();
  if (found && found.length === 0) pool.delete(key);
  return problem;
}

function add(pool: Map<string, Problem[]>, key: string, problem: Problem): void {
  const list = pool.get(key);
  if (list) list.push(problem);
  else pool.set(key, [problem]);
}

/** `changes`: the change's line changes, old file → new file, sorted (`computeLineChanges`). */
export function compareProblems(before: readonly Problem[], after: readonly Problem[], changes: readonly LineChange[]): ProblemComparison {
  // Before-problems by where they are expected now: at a line (outside every change), or in a change.
  const atLine = new Map<string, Problem[]>();
  const inChange = new Map<string, Problem[]>();
  for (const problem of before) {
    const place = placeOld(problem.line, changes);
    if (place.kind === 'line') add(atLine, `${place.line}\n${kindOf(problem)}`, problem);
    else add(inChange, `${place.index}\n${kindOf(problem)}`, problem);
  }
  const introduced: Problem[] = [];
  for (const problem of after) {
    const index = changeOfNew(problem.line, changes);
    const found = index === undefined ? take(atLine, `${problem.line}\n${kindOf(problem)}`) : take(inChange, `${index}\n${kindOf(problem)}`);
    if (!found) introduced.push(problem);
  }
  const resolved = [...atLine.values(), ...inChange.values()].flat();
  return { introduced, resolved };
}

/** How far a problem is from the lines a change wrote (0 inside them), to list the nearest first. */
export function distanceToChange(line: number, changes: readonly LineChange[]): number {
  let best = Infinity;
  for (const change of changes) {
    // A deletion wrote no line: it stands between newFrom - 1 and newFrom.
    const from = change.newFrom;
    const to = Math.max(change.newFrom, change.newTo - 1);
    const distance = line < from ? from - line : line > to ? line - to : 0;
    if (distance < best) best = distance;
  }
  return best;
}
