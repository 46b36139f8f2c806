/**
 * Curly/straight quote tolerance. Models cannot reliably type typographic quotes, but files contain them:
 * an oldString with straight quotes may match curly ones in the file, and the replacement then takes the
 * file's curly style, so the file's typography survives the edit. Every mapping is one UTF-16 unit to one,
 * so offsets in the normalized text are offsets in the original.
 */

const CURLY = /[\u2018\u2019\u201A\u201B\u201C\u201D\u201E\u201F]/g;

export function normalizeQuotes(text: string): string {
  return text.replace(CURLY, (quote) => ('\u2018\u2019\u201A\u201B'.includes(quote) ? "'" : '"'));
}

export function hasCurlyQuotes(text: string): boolean {
  CURLY.lastIndex = 0;
  return CURLY.test(text);
}

const isWordChar = (char: string | undefined): boolean => char !== undefined && /[\p{L}\p{N}]/u.test(char);
const opensHere = (previous: string | undefined): boolean => previous === undefined || /[\s([{\u2014\u2013-]/u.test(previous);

/** Gives straight quotes in `text` the curly style the matched file text used. */
export function applyCurlyStyle(text: string, matched: string): string {
  const doubles = /[\u201C\u201D]/.test(matched);
  const singles = /[\u2018\u2019]/.test(matched);
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    const previous = i > 0 ? text[i - 1] : undefined;
    if (char === '"' && doubles) out += opensHere(previous) ? '\u201C' : '\u201D';
    else if (char === "'" && singles) {
      if (isWordChar(previous) && isWordChar(text[i + 1])) {
        out += '\u2019';
      } // apostrophe
      else out += opensHere(previous) ? '\u2018' : '\u2019';
    } else out += char;
  }
  return out;
}
