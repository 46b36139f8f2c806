/**
 * Turns a line range into what the model is shown: a header (path, lines shown of total, bytes, version,
 * encoding when not UTF-8) and numbered lines, within the caps. Caps only ever cut at the end of the shown
 * range, never in its middle, and the result says exactly what was cut and how to continue. Lines longer
 * than maxLineLength are shortened and marked, with a note saying how to see each in full, or that no read
 * can (`text/longLines.ts`), unless the range holds only such lines: those are shown whole where they fit the byte
 * cap, so a read of a long line alone always shows it. The path in the header is shown with `displayPath`,
 * so a file name cannot add lines that look like content. Pure.
 */
import { EMPTY, type Ranges } from '../text/lineRanges';
import { displayPath } from '../path/displayPath';
import { formatCount } from '../text/formatCount';
import { isBeyondReadCap, shortensLines } from '../text/longLines';
import { capWords, type ReadLimits, raiseWords, utf8Size } from '../text/resultBudget';

export type { ReadLimits } from '../text/resultBudget';

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
  /** A line's length in UTF-16 units, when known without slicing it (the line index). */
  lineLength?(line: number): number;
  /** The longest line's length, when known: no line is shortened if it fits. */
  longest?: number;
  /** Every line is ASCII: a line's UTF-8 size is its length. */
  ascii?: boolean;
  /** Last line `lineAt` can give, when a streamed read kept fewer lines than asked (its byte cap). */
  lastAvailable?: number;
  limits: ReadLimits;
  /** This read's number in its session, shown in the header so a later placeholder can name it. */
  readNumber?: number;
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
  const parts = [displayPath(input.path), shown, `${formatCount(input.sizeBytes)} bytes`, `version ${input.version}`];
  if (input.encodingNote) parts.push(input.encodingNote);
  if (input.readNumber !== undefined) parts.push(`read #${input.readNumber}`);
  return parts.join(' · ');
}

interface Rendered {
  body: string;
  endLine: number;
  cutByBytes: boolean;
  fullyShown: Ranges;
  /** Lines shown shortened. */
  shortened: number[];
}

/**
 * Renders lines from..last. With `shorten`, lines over maxLineLength are shortened and marked; without it
 * every line is shown whole (the caller falls back to shortening when not even the first line fits).
 */
function render(input: FormatInput, last: number, width: number, shorten: boolean): Rendered {
  const { from, limits } = input;
  let body = '';
  let bodyLines = 0;
  // Counting UTF-8 bytes line by line is the costly part; skip it while a bound says the cap cannot be hit.
  let bytes = 0;
  // Rendered UTF-8 is at most twice the file's bytes (Latin-1 → UTF-8), plus numbering and shortening marks.
  const budgetSure = input.sizeBytes * 2 + (last - from + 1) * (width + (shorten ? 64 : 2)) <= limits.maxBytes;
  const fullyShown: number[] = [];
  const shortened: number[] = [];
  let runStart = 0;
  let endLine = from - 1;
  let cutByBytes = false;
  for (let line = from; line <= last; line++) {
    let content = input.lineAt(line);
    const long = content.length > limits.maxLineLength;
    const whole = !(long && shorten);
    if (!whole) content = `${content.slice(0, limits.maxLineLength)} … [line shortened: ${formatCount(content.length)} characters]`;
    const number = String(line);
    const rendered = (number.length < width ? ' '.repeat(width - number.length) + number : number) + '\t' + content;
    if (!budgetSure) {
      // The shortening mark is not ASCII.
      const cost = (input.ascii && whole ? rendered.length : utf8Length(rendered)) + 1;
      // A line of normal length is shown even alone over the cap; a long one only where it fits.
      if (bytes + cost > limits.maxBytes && (bodyLines > 0 || (long && whole))) {
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
      shortened.push(line);
    }
  }
  if (runStart !== 0) fullyShown.push(runStart, endLine);
  return { body, endLine, cutByBytes, fullyShown, shortened };
}

const LISTED = 10;

function listLines(lines: readonly number[]): string {
  const shown = lines.slice(0, LISTED).join(', ');
  return lines.length > LISTED ? `${shown}, … (${lines.length} lines)` : shown;
}

/** What was shortened and exactly how to see it in full, or that no read can (never a loop). */
function shortenedNotes(input: FormatInput, shortened: readonly number[]): string[] {
  const { limits } = input;
  const beyond = shortened.filter((line) => isBeyondReadCap(line, input.lineAt(line), limits));
  const readable = shortened.filter((line) => !beyond.includes(line));
  const notes: string[] = [];
  if (readable.length) {
    const first = readable[0];
    notes.push(
      readable.length === 1
        ? `[line ${first} is longer than ${formatCount(limits.maxLineLength)} characters and was shortened here; to see it in full, read it alone: offset: ${first}, limit: 1]`
        : `[lines ${listLines(readable)} are longer than ${formatCount(limits.maxLineLength)} characters and were shortened here; to see one in full, read it alone (e.g. offset: ${first}, limit: 1)]`,
    );
  }
  if (beyond.length) {
    notes.push(
      `[line${beyond.length === 1 ? '' : 's'} ${listLines(beyond)} ${beyond.length === 1 ? 'is' : 'are'} longer than ${capWords(limits)} by ${beyond.length === 1 ? 'itself' : 'themselves'}: no read can show ${beyond.length === 1 ? 'it' : 'them'} in full, so ${beyond.length === 1 ? 'it' : 'they'} cannot be edited here. Do not re-read; to change ${beyond.length === 1 ? 'it' : 'them'}, ${raiseWords(limits)}]`,
    );
  }
  return notes;
}

/**
 * Formats the read; with a character budget (`limits.maxChars`) the whole text fits it: when header and notes
 * leave too little room, the lines are cut further (at a line boundary) until it does.
 */
export function formatRead(input: FormatInput): FormattedRead {
  let formatted = formatOnce(input);
  const maxChars = input.limits.maxChars;
  for (let attempt = 0; maxChars !== undefined && utf8Size(formatted.text) > maxChars && attempt < 8; attempt++) {
    const maxBytes = Math.max(1, input.limits.maxBytes - (utf8Size(formatted.text) - maxChars) - 64 * (attempt + 1));
    input = { ...input, limits: { ...input.limits, maxBytes, maxLineLength: Math.max(1, Math.min(input.limits.maxLineLength, Math.floor(maxBytes / 4))) } };
    formatted = formatOnce(input);
  }
  return formatted;
}

function formatOnce(input: FormatInput): FormattedRead {
  const { from, to, limits } = input;
  if (input.totalLines === 0) {
    return { text: header(input, 'empty file (0 lines)'), startLine: 1, endLine: 0, truncated: false, fullyShown: EMPTY };
  }
  const lastAllowed = Math.min(to, from + limits.maxLines - 1, input.lastAvailable ?? to);
  const cutByLines = lastAllowed < to && lastAllowed === from + limits.maxLines - 1;
  const width = String(lastAllowed).length;
  // Long lines among shorter ones are shortened; a range of only long lines is shown whole, as far as the
  // byte cap allows, unless not even its first line fits.
  const shorten = shortensLines(from, lastAllowed, input.lineLength ?? ((line) => input.lineAt(line).length), limits.maxLineLength, input.longest);
  let shown = render(input, lastAllowed, width, shorten);
  if (!shorten && shown.cutByBytes && shown.endLine < from) shown = render(input, lastAllowed, width, true);
  const { endLine, cutByBytes } = shown;
  const notes: string[] = [];
  let cut = '';
  if (lastAllowed < from && input.lastAvailable !== undefined && to >= from) {
    // A streamed read keeps no line over the byte cap, so this one cannot be shown at all.
    notes.push(
      `[line ${from} is longer than ${capWords(limits)} by itself and cannot be shown; continue with offset: ${from + 1}. To see it, ${raiseWords(limits)}]`,
    );
    cut = `, cut: next offset ${from + 1}`;
  } else if (endLine < to) {
    const cap = cutByBytes || !cutByLines ? capWords(limits) : `the ${limits.maxLines}-line cap`;
    notes.push(`[truncated by ${cap}: showed lines ${from}-${endLine} of the requested ${from}-${to}; continue with offset: ${endLine + 1}]`);
    // Said in the header too: a client that keeps only the head of a result still tells the model.
    cut = `, cut by ${cutByBytes || !cutByLines ? 'the size limit' : 'the line limit'}: next offset ${endLine + 1}`;
  }
  if (shown.shortened.length) notes.push(...shortenedNotes(input, shown.shortened));
  // ASCII words ("-", not "–"): an ASCII file's result then stays a one-byte string, half the memory and faster
  // through every client's transport.
  const range = `lines ${from}-${endLine} of ${input.totalLines}${cut}`;
  const text = header(input, range) + shown.body + (notes.length ? '\n' + notes.join('\n') : '');
  return { text, startLine: from, endLine, truncated: endLine < to || shown.shortened.length > 0, fullyShown: shown.fullyShown };
}
