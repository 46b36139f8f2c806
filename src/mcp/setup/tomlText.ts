/**
 * Minimal edits of a TOML document's text, for merging one table into a user's config file while keeping every
 * other byte (their comments, order and spacing): find a `[a.b]` table's lines, the extent of a key's value
 * (strings, arrays and inline tables across lines), and add or replace a key. No TOML library keeps comments
 * while writing, so these edit the text and the caller parses the result (smol-toml) to check it says what was
 * meant. Pure functions on strings.
 */

/** A `[a.b]` table in the text: where its header starts, where its body starts (after the header line) and ends. */
export interface TableSpan {
  header: number;
  body: number;
  end: number;
}

const keyPattern = (key: string): string => `(?:${key}|"${key}"|'${key}')`;

/** The line ending the document uses (CRLF when any line has one). */
export const eolOf = (text: string): string => (text.includes('\r\n') ? '\r\n' : '\n');

/** The standard table `[path…]` (not an array of tables), or undefined when no header names it. */
export function findTable(text: string, path: readonly string[]): TableSpan | undefined {
  const header = new RegExp(`^[ \\t]*\\[[ \\t]*${path.map(keyPattern).join('[ \\t]*\\.[ \\t]*')}[ \\t]*\\][ \\t]*(?:#.*)?$`, 'm').exec(text);
  if (!header) return undefined;
  const lineEnd = text.indexOf('\n', header.index);
  const body = lineEnd < 0 ? text.length : lineEnd + 1;
  const next = /^[ \t]*\[/m.exec(text.slice(body));
  return { header: header.index, body, end: next ? body + next.index : text.length };
}

/** Index just past the closing quote(s) of a string opening at `start`. */
function stringEnd(text: string, start: number): number {
  const triple = text.startsWith('"""', start) || text.startsWith("'''", start);
  const quote = triple ? text.slice(start, start + 3) : text[start];
  const escapes = quote[0] === '"';
  for (let i = start + quote.length; i < text.length; i++) {
    if (escapes && text[i] === '\\') i++;
    else if (text.startsWith(quote, i)) {
      // A multi-line string may end with up to two quotes of its own before its closing three.
      let end = i + quote.length;
      while (triple && text[end] === quote[0] && end - i < 5) end++;
      return end;
    }
  }
  return text.length;
}

/** Index just past the value that starts at `start` (a scalar ends before a comment or the line's end). */
export function valueEnd(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i = stringEnd(text, i);
      if (depth === 0) return i;
      continue;
    }
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth <= 0) return i + 1;
    } else if (c === '#') {
      if (depth === 0) break;
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol;
      continue;
    } else if ((c === '\n' || c === '\r') && depth === 0) break;
    i++;
  }
  while (i > start && /[ \t]/.test(text[i - 1])) i--;
  return i;
}

/** Where `key`'s value lies in the table's body, or undefined when the body has no line `key = …`. */
export function findValue(text: string, table: TableSpan, key: string): { start: number; end: number } | undefined {
  const line = new RegExp(`^[ \\t]*${keyPattern(key)}[ \\t]*=[ \\t]*`, 'm').exec(text.slice(table.body, table.end));
  if (!line) return undefined;
  const start = table.body + line.index + line[0].length;
  return { start, end: valueEnd(text, start) };
}

/** Index just past the table's last line that holds more than blanks and a comment (a comment before the next header belongs to it). */
function lastContentLineEnd(text: string, table: TableSpan): number {
  const lines = text.slice(table.body, table.end).split('\n');
  let offset = table.body;
  let end = table.body;
  for (const line of lines) {
    const next = offset + line.length + 1;
    if (!/^[ \t]*(?:#.*)?\r?$/.test(line)) end = Math.min(next, text.length);
    offset = next;
  }
  return end;
}

/** `key = value` added as the table's last key-value line, or its value replaced where it is. */
export function setKey(text: string, table: TableSpan, key: string, value: string): string {
  const found = findValue(text, table, key);
  if (found) return text.slice(0, found.start) + value + text.slice(found.end);
  const at = lastContentLineEnd(text, table);
  const eol = eolOf(text);
  const before = at > 0 && text[at - 1] !== '\n' ? eol : '';
  return `${text.slice(0, at)}${before}${key} = ${value}${eol}${text.slice(at)}`;
}

/** The document with a new table `[header]` and its lines at its end, after a blank line. */
export function appendTable(text: string, header: string, lines: readonly string[]): string {
  const eol = eolOf(text);
  const ended = text === '' || text.endsWith('\n') ? text : `${text}${eol}`;
  const gap = ended.trim() === '' || /\n[ \t]*\r?\n$/.test(ended) ? '' : eol;
  return `${ended}${gap}[${header}]${eol}${lines.join(eol)}${eol}`;
}

/** A TOML value for a string, number, boolean or list of them (JSON's string escapes are TOML's too). */
export function tomlValue(value: string | number | boolean | readonly string[]): string {
  if (Array.isArray(value)) return `[${value.map((each) => JSON.stringify(each)).join(', ')}]`;
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
