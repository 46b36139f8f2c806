/**
 * Applies a list of oldString → newString edits to a file's text, in order, each against the result of the
 * previous one, and tracks which lines the session has seen as it goes. Pure: text and coverage in, new text
 * and coverage (or the reason it is refused) out.
 *
 * Matching is exact first, then tolerant of curly/straight quotes (nothing fuzzier: SPEC section 2). It runs
 * on a view of the text with every line break folded to LF, so a model's LF oldString matches a CRLF or CR
 * file; the replacement's breaks take the endings of the lines it replaces (`replacementText.ts`), so each
 * line keeps its own ending. Every match must lie
 * in lines the session has seen; a replaceAll or an ambiguous match that reaches into unseen lines is
 * refused naming those lines. After each edit the coverage is shifted to the new line numbers and extended by
 * the lines the edit wrote, no more.
 *
 * The text is held in line-aligned chunks (`chunkedText.ts`): each edit searches every chunk but rebuilds only
 * those it changes, so a call's cost grows with its edits times a native scan, not times re-indexing and
 * copying the whole file (`MAX_EDITS_PER_CALL` bounds the count).
 */
import { type LineChange, type Ranges, covers, gaps, mapThrough, merged, newSide, union } from '../ledger/coverage';
import type { Edit } from '../types';
import { ChunkedText } from './chunkedText';
import { countLines, type LineIndex, toLf } from './lineEndings';
import { applyCurlyStyle, normalizeQuotes } from './quotes';
import { replacementsFor } from './replacementText';

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

const isBreak = (code: number): boolean => code === 10 || code === 13;

/** Seen lines most similar to the first line of oldString, as "  12: text" rows (never unseen lines). */
function closestSeenLines(text: ChunkedText, seen: Ranges, oldString: string): string {
  const probe = oldString.split('\n').map((line) => line.trim()).find((line) => line.length > 0) ?? '';
  if (!probe) return '';
  const scored: { line: number; score: number }[] = [];
  for (let i = 0; i < seen.length; i += 2) {
    for (let line = seen[i]; line <= Math.min(seen[i + 1], text.lineCount); line++) {
      const candidate = text.lineText(line).trim();
      if (!candidate) continue;
      const score = similarity(probe, candidate);
      if (score > 0.5) scored.push({ line, score });
    }
  }
  scored.sort((a, b) => b.score - a.score || a.line - b.line);
  return scored
    .slice(0, 3)
    .map(({ line }) => `  ${line}: ${text.lineText(line)}`)
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

/** The lines not seen among the matches' lines (matches ascending, so their gaps come in order). */
function unseenOf(seen: Ranges, matches: readonly Match[]): Ranges {
  const all: number[] = [];
  for (const match of matches) for (const line of gaps(seen, match.fromLine, match.toLine)) all.push(line);
  return merged(all);
}

/**
 * `originalIndex`, when the caller has it, saves counting the original text's lines again. `ownBefore`, when
 * given, is the part of `seenBefore` the session has itself seen (an expectedVersion call may touch every line
 * but has been shown none): only those lines are quoted in refusals, and the result's `seen` is they plus the
 * lines written (SPEC section 1: a version named by expectedVersion counts as fully seen for that call only).
 * `chunkChars` is for tests, which cut the text at every line to prove the chunks change nothing.
 */
export function applyEdits(original: string, edits: readonly Edit[], seenBefore: Ranges, originalIndex?: LineIndex, ownBefore?: Ranges, chunkChars?: number): EditSuccess | EditFailure {
  const text = new ChunkedText(original, chunkChars, originalIndex);
  let seen = seenBefore;
  let own = ownBefore;
  let replacements = 0;
  let lastChanges: LineChange[] = [];
  for (let editIndex = 0; editIndex < edits.length; editIndex++) {
    const edit = edits[editIndex];
    if (edit.oldString === '') {
      return { ok: false, code: 'INVALID_INPUT', editIndex, message: 'an empty oldString only creates a file that does not exist yet; give the exact text to replace' };
    }
    const oldNorm = toLf(edit.oldString);
    let positions = text.findAll(oldNorm, false);
    let quoteTolerant = false;
    if (positions.length === 0) {
      positions = text.findAll(normalizeQuotes(oldNorm), true);
      quoteTolerant = positions.length > 0;
    }
    if (positions.length === 0) {
      return { ok: false, code: 'NO_OCCURRENCE_FOUND', editIndex, closest: closestSeenLines(text, own ?? seen, oldNorm) };
    }
    // A match that ends at a line start, replaced by text without a final newline, joins the next line.
    const joinsNext = edit.newString !== '' && !/[\r\n]$/.test(edit.newString);
    const matches: Match[] = positions.map((position) => {
      const start = text.toRaw(position);
      const end = text.toRaw(position + oldNorm.length);
      const fromLine = text.lineOf(start);
      let toLine = text.lineOf(Math.max(start, end - 1));
      if (end > start && end < text.length && isBreak(text.charCodeAt(end - 1)) && joinsNext) toLine++;
      return { start, end, fromLine, toLine };
    });
    if (matches.length > 1 && !edit.replaceAll) {
      const unseen = unseenOf(seen, matches);
      if (unseen.length) return { ok: false, code: 'EDIT_OUTSIDE_SEEN_RANGE', editIndex, unseen, why: `oldString matches ${matches.length} places; finding the one you mean`, text: text.toString() };
      return { ok: false, code: 'AMBIGUOUS_MATCH', editIndex, lines: matches.map((m) => m.fromLine) };
    }
    const unseen = unseenOf(seen, matches);
    if (unseen.length) {
      const why = matches.length > 1 ? `replaceAll of ${matches.length} occurrences` : 'The change';
      return { ok: false, code: 'EDIT_OUTSIDE_SEEN_RANGE', editIndex, unseen, why, text: text.toString() };
    }
    if (edit.oldString === edit.newString) return { ok: false, code: 'EDIT_NO_CHANGE' };

    const replacementTexts = replacementsFor(text, matches, edit.newString).map((replacement, i) =>
      quoteTolerant ? applyCurlyStyle(replacement, text.slice(matches[i].start, matches[i].end)) : replacement,
    );
    const changes = lineChanges(text, matches, replacementTexts);
    text.replace(matches, replacementTexts);
    seen = union(mapThrough(seen, changes), newSide(changes));
    if (own) own = union(mapThrough(own, changes), newSide(changes));
    lastChanges = changes;
    replacements += matches.length;
  }
  const result = text.toString();
  if (result === original) return { ok: false, code: 'EDIT_NO_CHANGE' };
  return { ok: true, text: result, seen: own ?? seen, replacements, ...(edits.length === 1 ? { changes: lastChanges } : {}) };
}

/** The line changes replacing the matches makes; matches sharing a line form one block, counted once. */
function lineChanges(text: ChunkedText, matches: readonly Match[], replacementTexts: readonly string[]): LineChange[] {
  const changes: LineChange[] = [];
  let shift = 0;
  for (let first = 0; first < matches.length; ) {
    let last = first;
    let toLine = matches[first].toLine;
    while (last + 1 < matches.length && matches[last + 1].fromLine <= toLine) toLine = Math.max(toLine, matches[++last].toLine);
    const fromLine = matches[first].fromLine;
    const parts: string[] = [];
    let at = text.lineStart(fromLine);
    for (let k = first; k <= last; k++) {
      parts.push(text.slice(at, matches[k].start), replacementTexts[k]);
      at = matches[k].end;
    }
    parts.push(text.slice(at, text.lineEndWithTerminator(toLine)));
    const newCount = countLines(parts.join(''));
    changes.push({ oldFrom: fromLine, oldTo: toLine + 1, newFrom: fromLine + shift, newTo: fromLine + shift + newCount });
    shift += newCount - (toLine - fromLine + 1);
    first = last + 1;
  }
  return changes;
}

/** Whether coverage spans every line of a text with `lineCount` lines. */
export function coversAll(seen: Ranges, lineCount: number): boolean {
  return covers(seen, 1, lineCount);
}
