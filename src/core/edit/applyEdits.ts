/**
 * Applies a list of oldString → newString edits to a file's text, in order, each against the result of the
 * previous one, and tracks which lines the session has seen as it goes. Pure: text and coverage in, new text
 * and coverage (or the reason it is refused) out.
 *
 * Matching is exact first, then tolerant of curly/straight quotes (nothing fuzzier: SPEC section 2). It runs
 * on a CRLF→LF view of the text so a model's LF oldString matches a CRLF file; the replacement takes the line
 * endings of the region it replaces, so CRLF files stay CRLF and mixed files stay mixed. Every match must lie
 * in lines the session has seen; a replaceAll or an ambiguous match that reaches into unseen lines is
 * refused naming those lines. After each edit the coverage is shifted to the new line numbers and extended by
 * the lines the edit wrote, no more.
 */
import { type LineChange, type Ranges, covers, gaps, mapThrough, newSide, union } from '../ledger/coverage';
import type { Edit } from '../types';
import { eolStyle, indexLines, type LineIndex, matchView, withEol } from './lineEndings';
import { applyCurlyStyle, normalizeQuotes } from './quotes';

export type EditFailure =
  | { ok: false; code: 'NO_OCCURRENCE_FOUND'; editIndex: number; closest: string }
  | { ok: false; code: 'AMBIGUOUS_MATCH'; editIndex: number; lines: number[] }
  /** `text`: what the edit was matched against (the result of the edits before it), which `unseen` numbers. */
  | { ok: false; code: 'EDIT_OUTSIDE_SEEN_RANGE'; editIndex: number; unseen: Ranges; why: string; text: string }
  | { ok: false; code: 'EDIT_NO_CHANGE' }
  | { ok: false; code: 'INVALID_INPUT'; editIndex: number; message: string };

export interface EditSuccess {
  ok: true;
  text: string;
  seen: Ranges;
  replacements: number;
  /** Line changes from the original to the result, when a single edit makes them exact (saves a diff). */
  changes?: LineChange[];
}

interface Match {
  start: number;
  end: number;
  fromLine: number;
  toLine: number;
}

const normalizeEol = (text: string): string => (text.includes('\r') ? text.replace(/\r\n/g, '\n') : text);

function findAll(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push(at);
  return found;
}

function lineText(text: string, index: LineIndex, line: number): string {
  return text.slice(index.start(line), index.end(line));
}

/** Seen lines most similar to the first line of oldString, as "  12: text" rows (never unseen lines). */
function closestSeenLines(text: string, index: LineIndex, seen: Ranges, oldString: string): string {
  const probe = oldString.split('\n').map((line) => line.trim()).find((line) => line.length > 0) ?? '';
  if (!probe) return '';
  const scored: { line: number; score: number }[] = [];
  for (let i = 0; i < seen.length; i += 2) {
    for (let line = seen[i]; line <= Math.min(seen[i + 1], index.count); line++) {
      const candidate = lineText(text, index, line).trim();
      if (!candidate) continue;
      const score = similarity(probe, candidate);
      if (score > 0.5) scored.push({ line, score });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.line - b.line);
  return scored
    .slice(0, 3)
    .map(({ line }) => `  ${line}: ${lineText(text, index, line)}`)
    .join('\n');
}

/** Dice coefficient over character bigrams: cheap, and good at "same line, slightly different". */
function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const bigrams = new Map<string, number>();
  for (let i = 0; i < a.length - 1; i++) {
    const gram = a.slice(i, i + 2);
    bigrams.set(gram, (bigrams.get(gram) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < b.length - 1; i++) {
    const gram = b.slice(i, i + 2);
    const count = bigrams.get(gram) ?? 0;
    if (count > 0) {
      bigrams.set(gram, count - 1);
      shared++;
    }
  }
  return (2 * shared) / (a.length + b.length - 2);
}

/** End offset of a line including its terminator. */
function endWithTerminator(text: string, index: LineIndex, line: number): number {
  return line < index.count ? index.start(line + 1) : text.length;
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return text.endsWith('\n') ? count : count + 1;
}

/** The line ending a replacement of `[start, end)` should use. */
function eolFor(text: string, index: LineIndex, match: Match, fileEol: () => string): '\n' | '\r\n' {
  const region = text.slice(match.start, match.end);
  if (region.includes('\r\n')) return '\r\n';
  if (region.includes('\n')) return '\n';
  const lineEnd = index.end(match.toLine);
  if (text.startsWith('\r\n', lineEnd)) return '\r\n';
  if (text.startsWith('\n', lineEnd)) return '\n';
  return fileEol() === 'crlf' ? '\r\n' : '\n';
}

/**
 * `originalIndex`, when the caller has it, saves indexing the original text again. `ownBefore`, when given, is
 * the part of `seenBefore` the session has itself seen (an expectedVersion call may touch every line but has
 * been shown none): only those lines are quoted in refusals, and the result's `seen` is they plus the lines
 * written (SPEC section 1: a version named by expectedVersion counts as fully seen for that call only).
 */
export function applyEdits(original: string, edits: readonly Edit[], seenBefore: Ranges, originalIndex?: LineIndex, ownBefore?: Ranges): EditSuccess | EditFailure {
  let text = original;
  let seen = seenBefore;
  let own = ownBefore;
  let replacements = 0;
  let lastChanges: LineChange[] = [];
  let style: string | undefined;
  const fileEol = (): string => (style ??= eolStyle(original));
  for (let editIndex = 0; editIndex < edits.length; editIndex++) {
    const edit = edits[editIndex];
    if (edit.oldString === '') {
      return { ok: false, code: 'INVALID_INPUT', editIndex, message: 'an empty oldString only creates a file that does not exist yet; give the exact text to replace' };
    }
    const index = editIndex === 0 && originalIndex ? originalIndex : indexLines(text);
    const view = matchView(text);
    const oldNorm = normalizeEol(edit.oldString);
    let positions = findAll(view.text, oldNorm);
    let quoteTolerant = false;
    if (positions.length === 0) {
      positions = findAll(normalizeQuotes(view.text), normalizeQuotes(oldNorm));
      quoteTolerant = positions.length > 0;
    }
    if (positions.length === 0) {
      return { ok: false, code: 'NO_OCCURRENCE_FOUND', editIndex, closest: closestSeenLines(text, index, own ?? seen, oldNorm) };
    }
    const matches: Match[] = positions.map((position) => {
      const start = view.toRaw(position);
      const end = view.toRaw(position + oldNorm.length);
      const fromLine = index.lineOf(start);
      let toLine = index.lineOf(Math.max(start, end - 1));
      // A match that ends at a line start, replaced by text without a final newline, joins the next line.
      const joinsNext = edit.newString !== '' && !edit.newString.endsWith('\n');
      if (end > start && end < text.length && text[end - 1] === '\n' && joinsNext) toLine++;
      return { start, end, fromLine, toLine };
    });
    const unseenOf = (list: Match[]): Ranges => list.reduce<Ranges>((acc, m) => union(acc, gaps(seen, m.fromLine, m.toLine)), []);
    if (matches.length > 1 && !edit.replaceAll) {
      const unseen = unseenOf(matches);
      if (unseen.length) return { ok: false, code: 'EDIT_OUTSIDE_SEEN_RANGE', editIndex, unseen, why: `oldString matches ${matches.length} places; finding the one you mean`, text };
      return { ok: false, code: 'AMBIGUOUS_MATCH', editIndex, lines: matches.map((m) => m.fromLine) };
    }
    const unseen = unseenOf(matches);
    if (unseen.length) {
      const why = matches.length > 1 ? `replaceAll of ${matches.length} occurrences` : 'The change';
      return { ok: false, code: 'EDIT_OUTSIDE_SEEN_RANGE', editIndex, unseen, why, text };
    }
    if (edit.oldString === edit.newString) return { ok: false, code: 'EDIT_NO_CHANGE' };

    const replacementTexts = matches.map((match) => {
      const replacement = withEol(normalizeEol(edit.newString), eolFor(text, index, match, fileEol));
      return quoteTolerant ? applyCurlyStyle(replacement, text.slice(match.start, match.end)) : replacement;
    });
    const changes: LineChange[] = [];
    let out = '';
    let cursor = 0;
    let shift = 0;
    // Matches sharing a line form one block, so each changed line is counted once.
    for (let first = 0; first < matches.length; ) {
      let last = first;
      let toLine = matches[first].toLine;
      while (last + 1 < matches.length && matches[last + 1].fromLine <= toLine) toLine = Math.max(toLine, matches[++last].toLine);
      const fromLine = matches[first].fromLine;
      const blockStart = index.start(fromLine);
      const blockEnd = endWithTerminator(text, index, toLine);
      let newBlock = '';
      let at = blockStart;
      for (let k = first; k <= last; k++) {
        newBlock += text.slice(at, matches[k].start) + replacementTexts[k];
        out += text.slice(cursor, matches[k].start) + replacementTexts[k];
        at = cursor = matches[k].end;
      }
      newBlock += text.slice(at, blockEnd);
      const newCount = countLines(newBlock);
      changes.push({ oldFrom: fromLine, oldTo: toLine + 1, newFrom: fromLine + shift, newTo: fromLine + shift + newCount });
      shift += newCount - (toLine - fromLine + 1);
      first = last + 1;
    }
    out += text.slice(cursor);
    seen = union(mapThrough(seen, changes), newSide(changes));
    if (own) own = union(mapThrough(own, changes), newSide(changes));
    lastChanges = changes;
    text = out;
    replacements += matches.length;
  }
  if (text === original) return { ok: false, code: 'EDIT_NO_CHANGE' };
  return { ok: true, text, seen: own ?? seen, replacements, ...(edits.length === 1 ? { changes: lastChanges } : {}) };
}

/** Whether coverage spans every line of a text with `lineCount` lines. */
export function coversAll(seen: Ranges, lineCount: number): boolean {
  return covers(seen, 1, lineCount);
}
