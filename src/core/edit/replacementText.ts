/**
 * The text that replaces each match of an edit: newString with its line breaks written the way the file
 * writes the lines it replaces, so each line keeps its own ending (CRLF files stay CRLF, CR files stay CR,
 * mixed files stay mixed; `text/lineEndings.ts` has the line rules).
 *
 * The k-th break of newString takes the k-th break of the matched text (past the last one, the last one);
 * a match without a break lends the ending of its line, or of the line above when its line has none (the
 * last line). A '\r' written right before a '\n' would merge two line breaks into one CRLF, so a replacement
 * never creates that pair at its edges.
 *
 * Not here: finding matches or checking what was seen (`applyEdits.ts`).
 */
import type { ChunkedText } from './chunkedText';
import { type Eol, lineBreaks, toLf } from '../text/lineEndings';

export interface Span {
  start: number;
  /** `end` and `toLine` may grow to take a '\n' whose ending must change (see `replacementsFor`). */
  end: number;
  toLine: number;
}

/** The endings newString's breaks take, in order. */
function endingsOf(text: ChunkedText, match: Span): Eol[] {
  const inside = lineBreaks(text.slice(match.start, match.end));
  if (inside.length) return inside;
  for (const line of [match.toLine, match.toLine - 1]) {
    if (line < 1) break;
    const ending = text.slice(text.lineEnd(line), text.lineEndWithTerminator(line));
    if (ending) return [ending as Eol];
  }
  return ['\n'];
}

function withEndings(lf: string, endings: readonly Eol[]): string {
  if (endings.every((eol) => eol === '\n')) return lf;
  let k = 0;
  return lf.replace(/\n/g, () => endings[Math.min(k++, endings.length - 1)]);
}

/**
 * The replacement text of every match (ascending, not overlapping). A deletion that would join a '\r' before
 * the match to a '\n' after it instead takes that '\n' into its match and writes it as "\r\n": the emptied
 * line stays a line, with an ending the '\r' cannot swallow.
 */
export function replacementsFor(text: ChunkedText, matches: Span[], newString: string): string[] {
  const lf = toLf(newString);
  const texts: string[] = [];
  for (let i = 0; i < matches.length; i++) {
    const match = matches[i];
    let replacement = lf.includes('\n') ? withEndings(lf, endingsOf(text, match)) : lf;
    const before = charBefore(text, matches, texts, i);
    const nextAdjacent = i + 1 < matches.length && matches[i + 1].start === match.end;
    const after = nextAdjacent ? '' : text.slice(match.end, match.end + 1);
    if (before === '\r' && replacement.startsWith('\n')) replacement = '\r' + replacement.slice(1);
    if (after === '\n' && (replacement === '' ? before === '\r' : replacement.endsWith('\r'))) {
      if (replacement === '') {
        match.end++;
        match.toLine = Math.max(match.toLine, text.lineOf(match.end - 1));
      }
      replacement += replacement === '' ? '\r\n' : '\n';
    }
    texts.push(replacement);
  }
  return texts;
}

/** The character the replacement of match i will follow: a previous adjacent replacement's last, or the text's. */
function charBefore(text: ChunkedText, matches: readonly Span[], texts: readonly string[], i: number): string {
  let at = matches[i].start;
  for (let j = i - 1; j >= 0 && matches[j].end === at; j--) {
    if (texts[j] !== '') return texts[j].slice(-1);
    at = matches[j].start;
  }
  return at > 0 ? text.slice(at - 1, at) : '';
}
