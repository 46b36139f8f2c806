/**
 * Turns a line range into what the model is shown: a header (path, lines shown of total, bytes, version,
 * encoding when not UTF-8) and numbered lines, within the caps. Caps only ever cut at the end of the shown
 * range, never in its middle, and the result says exactly what was cut and how to continue. Pure.
 */
import { EMPTY, type Ranges } from '../ledger/coverage';
import { formatCount } from './formatCount';

export interface ReadLimits {
  maxLines: number;
  maxBytes: number;
  maxLineLength: number;
}

export interface FormatInput {
  path: string;
  version: string;
  totalLines: number;
  sizeBytes: number;
  /** Shown in the header when the file is not plain UTF-8 (e.g. "Latin-1 (ISO-8859-1)"). */
  encodingNote?: string;
  /** First and last line asked for (last already clamped to the file). */
  from: number;
  to: number;
  lineAt(line: number): string;
  /** Last line `lineAt` can give, when a streamed read kept fewer lines than asked (its byte cap). */
  lastAvailable?: number;
  limits: ReadLimits;
}

export interface FormattedRead {
  text: string;
  startLine: number;
  endLine: number;
  truncated: boolean;
  /** Lines shown in full (a shortened line was not really seen). */
  fullyShown: Ranges;
}

const utf8Length = (text: string): number => Buffer.byteLength(text, 'utf8');

function header(input: FormatInput, shown: string): string {
  const parts = [input.path, shown, `${formatCount(input.sizeBytes)} bytes`, `version ${input.version}`];
  if (input.encodingNote) parts.push(input.encodingNote);
  return parts.join(' · ');
}

export function formatRead(input: FormatInput): FormattedRead {
  const { from, to, limits } = input;
  if (input.totalLines === 0) {
    return { text: header(input, 'empty file (0 lines)'), startLine: 1, endLine: 0, truncated: false, fullyShown: EMPTY };
  }
  const lastAllowed = Math.min(to, from + limits.maxLines - 1, input.lastAvailable ?? to);
  const cutByLines = lastAllowed < to && lastAllowed === from + limits.maxLines - 1;
  const width = String(lastAllowed).length;
  let body = '';
  let bodyLines = 0;
  // Counting UTF-8 bytes line by line is the costly part; skip it while a bound says the cap cannot be hit.
  let bytes = 0;
  // Rendered UTF-8 is at most twice the file's bytes (Latin-1 → UTF-8), plus numbering and shortening marks.
  const budgetSure = input.sizeBytes * 2 + (lastAllowed - from + 1) * (width + 64) <= limits.maxBytes;
  const fullyShown: number[] = [];
  let runStart = 0;
  let shortened = 0;
  let endLine = from - 1;
  let cutByBytes = false;
  for (let line = from; line <= lastAllowed; line++) {
    let content = input.lineAt(line);
    let whole = true;
    if (content.length > limits.maxLineLength) {
      content = `${content.slice(0, limits.maxLineLength)} … [line shortened: ${formatCount(content.length)} characters]`;
      whole = false;
    }
    const number = String(line);
    const rendered = (number.length < width ? ' '.repeat(width - number.length) + number : number) + '\t' + content;
    if (!budgetSure) {
      const cost = utf8Length(rendered) + 1;
      if (bodyLines > 0 && bytes + cost > limits.maxBytes) {
        cutByBytes = true;
        break;
      }
      bytes += cost;
    }
    body += '\n' + rendered;
    bodyLines++;
    endLine = line;
    if (whole) {
      if (runStart === 0) runStart = line;
    } else {
      if (runStart !== 0) fullyShown.push(runStart, line - 1);
      runStart = 0;
      shortened++;
    }
  }
  if (runStart !== 0) fullyShown.push(runStart, endLine);
  const notes: string[] = [];
  if (endLine < to) {
    const cap = cutByBytes || !cutByLines ? `the ${formatCount(limits.maxBytes)}-byte cap` : `the ${limits.maxLines}-line cap`;
    notes.push(`[truncated by ${cap}: showed lines ${from}–${endLine} of the requested ${from}–${to}; continue with offset: ${endLine + 1}]`);
  }
  if (shortened) {
    notes.push(`[${shortened} line${shortened === 1 ? ' was' : 's were'} longer than ${limits.maxLineLength} characters and shortened; their full text was not shown]`);
  }
  const shown = `lines ${from}–${endLine} of ${input.totalLines}`;
  const text = header(input, shown) + body + (notes.length ? '\n' + notes.join('\n') : '');
  return { text, startLine: from, endLine, truncated: endLine < to || shortened > 0, fullyShown };
}
