/**
 * The lines of a file a shell command's output holds (`ShownOutput`), matched exactly against the file's lines:
 * numbered output by each line's number, plain output by position from its first and its last line inwards, up to
 * the first line that differs (a cut, a marker, a file changed since). Pure: the output and the file's lines in,
 * the lines shown out. Where the output does not hold a line exactly, that line does not count.
 */
import { add, EMPTY, type Ranges } from '../text/lineRanges';
import type { ShownOutput } from '../types';

/** `  12\tline` (nl -ba, cat -n) or `12:line` (rg -n, grep -n; `12-line` for a context line). */
const NUMBERED = /^ *(\d+)(?:\t|:|-)(.*)$/s;

const outputLines = (output: string): string[] => {
  const lines = output.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
};

/**
 * A signed line (negative: from the end) as a line of a file of `total` lines, as the commands that print from it
 * stop: a last line past the end is the file's last, a first line before the start (`tail -n` of more lines than
 * the file has) its first. Undefined when nothing of the file is there.
 */
function resolved(line: number | undefined, total: number, end: 'first' | 'last'): number | undefined {
  if (line === undefined || !Number.isInteger(line) || line === 0 || total === 0) return undefined;
  const at = line > 0 ? line : total + 1 + line;
  if (end === 'last') return at >= 1 ? Math.min(at, total) : undefined;
  return at <= total ? Math.max(at, 1) : undefined;
}

/** `lineAt(n)`: the file's line n without its break (nor a carriage return before it). */
export function linesInOutput(shown: ShownOutput, total: number, lineAt: (line: number) => string): Ranges {
  const lines = outputLines(shown.output);
  let shownLines: Ranges = EMPTY;
  if (shown.form === 'numbered') {
    for (const line of lines) {
      const match = NUMBERED.exec(line);
      const number = match ? Number(match[1]) : 0;
      if (number >= 1 && number <= total && lineAt(number) === match![2]) shownLines = add(shownLines, number, number);
    }
    return shownLines;
  }
  const first = resolved(shown.first, total, 'first');
  let forward = 0;
  if (first !== undefined) {
    while (forward < lines.length && first + forward <= total && lines[forward] === lineAt(first + forward)) forward++;
    if (forward) shownLines = add(shownLines, first, first + forward - 1);
  }
  const last = resolved(shown.last, total, 'last');
  if (last !== undefined && forward < lines.length) {
    let back = 0;
    // Only the output lines the forward match did not take: each output line stands for one file line.
    while (back < lines.length - forward && last - back >= 1 && lines[lines.length - 1 - back] === lineAt(last - back)) back++;
    if (back) shownLines = add(shownLines, last - back + 1, last);
  }
  return shownLines;
}
