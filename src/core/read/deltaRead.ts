/**
 * A re-read after the file changed, answered with only what changed: the lines that are new or different,
 * numbered as they are now, the unchanged runs named (with the numbers the session was shown them under when
 * those moved), and what was removed. Only where every unchanged line of the range was shown to this session
 * in the version it last saw, so the model already holds those lines; anything else is content. Pure.
 */
import { type LineChange, type Ranges, covers } from '../text/lineRanges';
import { displayPath } from '../path/displayPath';
import { formatCount } from '../text/formatCount';

export interface DeltaInput {
  path: string;
  /** The range asked for, in the current file's numbers (already shown whole by the content read). */
  from: number;
  to: number;
  totalLines: number;
  sizeBytes: number;
  version: string;
  encodingNote?: string;
  readNumber: number;
  lineAt(line: number): string;
  /** What the session was shown of the version it last saw, and that version's number of its last read. */
  seen: { version: string; shown: Ranges; readNumber: number };
  /** Old version → current version, sorted (`computeLineChanges`). */
  changes: readonly LineChange[];
}

/** Old line → current line for lines no change touched, or undefined for a changed one. */
function shiftAt(changes: readonly LineChange[], newLine: number): number | undefined {
  let shift = 0;
  for (const change of changes) {
    if (newLine < change.newFrom) break;
    if (newLine < change.newTo) return undefined;
    shift = change.newTo - change.oldTo;
  }
  return newLine - shift;
}

/** Runs of unchanged current lines in from..to, each with the old number of its first line. */
function unchangedRuns(input: DeltaInput): Array<{ from: number; to: number; oldFrom: number }> {
  const runs: Array<{ from: number; to: number; oldFrom: number }> = [];
  let line = input.from;
  while (line <= input.to) {
    const old = shiftAt(input.changes, line);
    if (old === undefined) {
      line++;
      continue;
    }
    const shift = line - old;
    let end = line;
    while (end < input.to && shiftAt(input.changes, end + 1) === end + 1 - shift) end++;
    runs.push({ from: line, to: end, oldFrom: old });
    line = end + 1;
  }
  return runs;
}

const lines = (from: number, to: number): string => (from === to ? `line ${from}` : `lines ${from}-${to}`);
const span = (from: number, to: number): string => (from === to ? `${from}` : `${from}-${to}`);

function runText(run: { from: number; to: number; oldFrom: number }): string {
  if (run.oldFrom === run.from) return span(run.from, run.to);
  return `${span(run.from, run.to)} (${run.from === run.to ? 'was' : 'were'} ${span(run.oldFrom, run.oldFrom + run.to - run.from)})`;
}

/** The changes that touch the range: new lines in it, or shown old lines removed where the range is. */
function changesIn(input: DeltaInput): LineChange[] {
  return input.changes.filter((change) =>
    change.newTo > change.newFrom
      ? change.newFrom <= input.to && change.newTo - 1 >= input.from
      : change.newFrom >= input.from && change.newFrom <= input.to + 1 && covers(input.seen.shown, change.oldFrom, change.oldTo - 1),
  );
}

/** Where removed lines stood, in the file's numbers now. */
const stood = (after: number, one: boolean): string =>
  `${one ? 'it' : 'they'} stood ${after >= 1 ? `after line ${after} as the file is now` : 'at the start of the file'}`;

function hunkText(input: DeltaInput, change: LineChange, width: number): string {
  const read = `of your read #${input.seen.readNumber}`;
  const removedCount = change.oldTo - change.oldFrom;
  if (change.newTo === change.newFrom) {
    const one = removedCount === 1;
    return `[${lines(change.oldFrom, change.oldTo - 1)} ${read} ${one ? 'was' : 'were'} removed (${stood(change.newFrom - 1, one)})]`;
  }
  const from = Math.max(change.newFrom, input.from);
  const to = Math.min(change.newTo - 1, input.to);
  const one = from === to;
  const head =
    removedCount > 0
      ? `[${lines(from, to)} ${one ? 'replaces' : 'replace'} ${lines(change.oldFrom, change.oldTo - 1)} ${read}]`
      : `[${lines(from, to)} ${one ? 'is' : 'are'} new (${change.oldFrom > 1 ? `after line ${change.oldFrom - 1} ${read}` : 'at the start of the file'})]`;
  let body = '';
  for (let line = from; line <= to; line++) {
    const number = String(line);
    body += `\n${number.length < width ? ' '.repeat(width - number.length) + number : number}\t${input.lineAt(line)}`;
  }
  return head + body;
}

/**
 * The delta text, or undefined when a delta would not be true (an unchanged line of the range the session was
 * not shown) or not useful (nothing in the range is unchanged).
 */
export function deltaText(input: DeltaInput): string | undefined {
  if (input.to < input.from || input.seen.version === input.version) return undefined;
  const runs = unchangedRuns(input);
  if (runs.length === 0) return undefined;
  // Every unchanged line must be one the session was shown, in the version it saw: it holds those lines.
  if (runs.some((run) => !covers(input.seen.shown, run.oldFrom, run.oldFrom + run.to - run.from))) return undefined;
  const width = String(input.to).length;
  const header = [
    displayPath(input.path),
    `lines ${input.from}-${input.to} of ${input.totalLines}`,
    `${formatCount(input.sizeBytes)} bytes`,
    `version ${input.version}`,
    ...(input.encodingNote ? [input.encodingNote] : []),
    `read #${input.readNumber}`,
    `only what changed since your read #${input.seen.readNumber} (version ${input.seen.version})`,
  ].join(' · ');
  const single = runs.length === 1 && runs[0].from === runs[0].to;
  const unchanged = `Unchanged since then, exactly as you were shown them: ${single ? 'line' : 'lines'} ${runs.map(runText).join(', ')}.`;
  const hunks = changesIn(input).map((change) => hunkText(input, change, width));
  const advice = 'Read with force: true to get every line again (for example if that read is no longer in your context).';
  return [header, unchanged, ...(hunks.length ? hunks : ['Nothing in these lines changed; the file changed elsewhere.']), advice].join('\n');
}
