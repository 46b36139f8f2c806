/**
 * Applies a list of oldString → newString edits to a file's text, in order, each against the result of the
 * previous one, and tracks which lines the session has seen as it goes. Pure: text and coverage in, new text
 * and coverage (or the reason it is refused) out.
 *
 * Matching is exact first, then tolerant of curly/straight quotes (nothing fuzzier: a fuzzy match would change lines the agent did not name). It runs
 * on a view of the text with every line break folded to LF, so a model's LF oldString matches a CRLF or CR
 * file; the replacement's breaks take the endings of the lines it replaces (`replacementText.ts`), so each
 * line keeps its own ending. Every match must lie
 * in lines the session has seen; a replaceAll or an ambiguous match that reaches into unseen lines is
 * refused naming those lines. After each edit the coverage is shifted to the new line numbers and extended by
 * the lines the edit wrote, no more. Failures number lines as in the original text, the version the agent
 * read (`lineOrigins.ts`), whichever edit of the call they come from.
 *
 * The text is held in line-aligned chunks (`chunkedText.ts`): each edit searches every chunk but rebuilds only
 * those it changes, so a call's cost grows with its edits times a native scan, not times re-indexing and
 * copying the whole file (`MAX_EDITS_PER_CALL` bounds the count).
 */
import { type LineChange, type Ranges, covers, gaps, mapThrough, merged, newSide, union } from '../text/lineRanges';
import type { Edit } from './editTypes';
import { ChunkedText } from './chunkedText';
import { computeLineChanges } from './lineDiff';
import { EditHistory, type LineOrigin, type WrittenLine } from './lineOrigins';
import { countLines, type LineIndex, toLf } from '../text/lineEndings';
import { applyCurlyStyle, normalizeQuotes } from './quotes';
import { replacementsFor } from './replacementText';

/** One edit's unseen lines, in original numbers; `matches` > 1 for a replaceAll or an ambiguous match. */
export interface UnseenEdit {
  editIndex: number;
  unseen: Ranges;
  matches: number;
  replaceAll: boolean;
}

/** A seen line of the original (`line`) or of text an earlier edit of the call wrote, and its text. */
export interface ClosestLine {
  origin: LineOrigin;
  text: string;
}

/**
 * Line numbers in failures are those of the original text (a line an edit of the call wrote is named by that
 * edit); `edits` is how many edits the call had, so messages can name "edit 2 of 3".
 */
export type EditFailure =
  | { ok: false; code: 'NO_OCCURRENCE_FOUND'; editIndex: number; edits: number; closest: ClosestLine[] }
  /** `count` places; the first `MAX_CITED` of them cited as original `lines` or text `written` by the call. */
  | { ok: false; code: 'AMBIGUOUS_MATCH'; editIndex: number; edits: number; count: number; lines: number[]; written: WrittenLine[] }
  /**
   * Every edit touching unseen lines, up to `stoppedAt`: an edit that could not be placed (not found, or
   * ambiguous), after which nothing was checked. `text` is the original, which `unseen` numbers.
   */
  | {
      ok: false;
      code: 'EDIT_OUTSIDE_SEEN_RANGE';
      editIndex: number;
      edits: number;
      unseen: Ranges;
      touched: UnseenEdit[];
      stoppedAt?: { editIndex: number; code: 'NO_OCCURRENCE_FOUND' | 'AMBIGUOUS_MATCH' };
      text: string;
    }
  | { ok: false; code: 'EDIT_NO_CHANGE' }
  | { ok: false; code: 'INVALID_INPUT'; editIndex: number; message: string };

export interface EditSuccess {
  ok: true;
  text: string;
  /** The line index of `text`, built from the original's and the chunks the edits rebuilt (no new scan). */
  index: LineIndex;
  seen: Ranges;
  replacements: number;
  /** Line changes from the original to the result, when a single edit makes them exact (saves a diff). */
  changes?: LineChange[];
  /**
   * For a single edit: the original's ranges it replaced (ascending) and their new text, so the file's bytes can
   * be changed in place of being encoded again whole.
   */
  splices?: Splice[];
}

/** A range of the original text, replaced by `text`. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

interface Match {
  start: number;
  end: number;
  fromLine: number;
  toLine: number;
}

const isBreak = (code: number): boolean => code === 10 || code === 13;

/** Seen lines most similar to the first line of oldString (never unseen lines), at most 3. */
function closestSeenLines(text: ChunkedText, seen: Ranges, oldString: string, history: EditHistory): ClosestLine[] {
  const probe =
    oldString
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? '';
  if (!probe) return [];
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
  return scored.slice(0, 3).map(({ line }) => ({ origin: history.originOf(line), text: text.lineText(line) }));
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

/** Most places an AMBIGUOUS_MATCH cites: more do not help to tell them apart, and each costs a walk back. */
const MAX_CITED = 100;

/** Where `edit` matches in the text, exactly or else tolerant of quotes (`oldNorm`: oldString with LF endings). */
function place(text: ChunkedText, edit: Edit): { oldNorm: string; matches: Match[]; quoteTolerant: boolean } {
  const oldNorm = toLf(edit.oldString);
  let positions = text.findAll(oldNorm, false);
  let quoteTolerant = false;
  if (positions.length === 0 && edit.exact !== true) {
    positions = text.findAll(normalizeQuotes(oldNorm), true);
    quoteTolerant = positions.length > 0;
  }
  // A match that ends at a line start, replaced by text without a final newline, joins the next line.
  const joinsNext = edit.newString !== '' && !/[\r\n]$/.test(edit.newString);
  const matches = positions.map((position) => {
    const start = text.toRaw(position);
    const end = text.toRaw(position + oldNorm.length);
    const fromLine = text.lineOf(start);
    let toLine = text.lineOf(Math.max(start, end - 1));
    if (end > start && end < text.length && isBreak(text.charCodeAt(end - 1)) && joinsNext) toLine++;
    return { start, end, fromLine, toLine };
  });
  return { oldNorm, matches, quoteTolerant };
}

/** Where original line `line` is after the edits so far, or undefined when one of them replaced it. */
function currentLine(line: number, steps: readonly LineChange[][]): number | undefined {
  let ranges: Ranges = [line, line];
  for (const changes of steps) ranges = mapThrough(ranges, changes);
  return ranges.length ? ranges[0] : undefined;
}

/** The anchored edit's match: its text exactly at the start of `line` (whole lines), or none. */
function placeAt(text: ChunkedText, edit: Edit, line: number | undefined): { oldNorm: string; matches: Match[]; quoteTolerant: boolean } {
  const oldNorm = toLf(edit.oldString);
  if (line === undefined || line > text.lineCount) return { oldNorm, matches: [], quoteTolerant: false };
  const count = countLines(oldNorm);
  const toLine = line + count - 1;
  if (count === 0 || toLine > text.lineCount) return { oldNorm, matches: [], quoteTolerant: false };
  const start = text.lineStart(line);
  const end = toLine < text.lineCount ? text.lineStart(toLine + 1) : text.length;
  const found = toLf(text.slice(start, end));
  // The old text covers whole lines, the last one with its line break unless it ends the file without one.
  const matches = found === oldNorm ? [{ start, end, fromLine: line, toLine }] : [];
  return { oldNorm, matches, quoteTolerant: false };
}

function ambiguity(editIndex: number, edits: number, matches: readonly Match[], history: EditHistory): EditFailure {
  const lines: number[] = [];
  const written: WrittenLine[] = [];
  for (const match of matches.slice(0, MAX_CITED)) {
    const origin = history.originOf(match.fromLine);
    if ('line' in origin) lines.push(origin.line);
    else written.push(origin);
  }
  return { ok: false, code: 'AMBIGUOUS_MATCH', editIndex, edits, count: matches.length, lines, written };
}

/**
 * `originalIndex`, when the caller has it, saves counting the original text's lines again. `ownBefore`, when
 * given, is the part of `seenBefore` the session has itself seen (an expectedVersion call may touch every line
 * but has been shown none): only those lines are quoted in refusals, and the result's `seen` is they plus the
 * lines written (a version named by expectedVersion counts as fully seen for that call only).
 * `chunkChars` is for tests, which cut the text at every line to prove the chunks change nothing.
 *
 * Unseen lines do not end the walk: an edit that touches them is applied as if seen, so the refusal names the
 * unseen lines of every edit at once (they are checked before the change is computed, so they outrank
 * the other failures). Only an edit that cannot be placed ends it, since the edits after it may build on it.
 */
export function applyEdits(
  original: string,
  edits: readonly Edit[],
  seenBefore: Ranges,
  originalIndex?: LineIndex,
  ownBefore?: Ranges,
  chunkChars?: number,
): EditSuccess | EditFailure {
  const empty = edits.findIndex((edit) => edit.oldString === '');
  if (empty !== -1) {
    return {
      ok: false,
      code: 'INVALID_INPUT',
      editIndex: empty,
      message: 'an empty oldString only creates a file that does not exist yet; give the exact text to replace',
    };
  }
  const run = new EditRun(new ChunkedText(original, chunkChars, originalIndex), edits.length, seenBefore, ownBefore);
  for (let editIndex = 0; editIndex < edits.length; editIndex++) {
    if (!run.apply(editIndex, edits[editIndex])) break;
  }
  return run.outcome(original, originalIndex);
}

/** One applyEdits call's walk over its edits: the text so far, what is seen of it, and what went wrong. */
class EditRun {
  private readonly history: EditHistory;
  private seen: Ranges;
  private replacements = 0;
  private lastChanges: LineChange[] = [];
  private lastSplices: Splice[] = [];
  private readonly touched: UnseenEdit[] = [];
  private failure: EditFailure | undefined;
  private stoppedAt: { editIndex: number; code: 'NO_OCCURRENCE_FOUND' | 'AMBIGUOUS_MATCH' } | undefined;
  /** Each applied edit's line changes, to follow an anchored edit's line through them. */
  private readonly steps: LineChange[][] = [];

  constructor(
    private readonly text: ChunkedText,
    private readonly edits: number,
    seenBefore: Ranges,
    private own: Ranges | undefined,
  ) {
    this.history = new EditHistory(text.lineCount, seenBefore);
    this.seen = seenBefore;
  }

  /** Places and applies one edit; false when the walk stops (an edit that could not be placed). */
  apply(editIndex: number, edit: Edit): boolean {
    const { text, history } = this;
    // An anchored edit (a patch's hunk) matches only where its line of the original text is now.
    const { oldNorm, matches, quoteTolerant } = edit.line === undefined ? place(text, edit) : placeAt(text, edit, currentLine(edit.line, this.steps));
    if (matches.length === 0) {
      this.failure ??= {
        ok: false,
        code: 'NO_OCCURRENCE_FOUND',
        editIndex,
        edits: this.edits,
        closest: closestSeenLines(text, this.own ?? this.seen, oldNorm, history),
      };
      this.stoppedAt = { editIndex, code: 'NO_OCCURRENCE_FOUND' };
      return false;
    }
    const unseen = unseenOf(this.seen, matches);
    if (unseen.length) this.touched.push({ editIndex, unseen: history.toOriginal(unseen), matches: matches.length, replaceAll: edit.replaceAll === true });
    if (matches.length > 1 && !edit.replaceAll) {
      // With unseen lines among the places, only EDIT_OUTSIDE_SEEN_RANGE: the lines are no content oracle.
      if (!unseen.length) this.failure ??= ambiguity(editIndex, this.edits, matches, history);
      this.stoppedAt = { editIndex, code: 'AMBIGUOUS_MATCH' };
      return false;
    }
    if (edit.oldString === edit.newString) {
      this.failure ??= { ok: false, code: 'EDIT_NO_CHANGE' };
      return true;
    }
    const replacementTexts = replacementsFor(text, matches, edit.newString).map((replacement, i) =>
      quoteTolerant ? applyCurlyStyle(replacement, text.slice(matches[i].start, matches[i].end)) : replacement,
    );
    const changes = lineChanges(text, matches, replacementTexts);
    this.lastSplices = matches.map((match, i) => ({ start: match.start, end: match.end, text: replacementTexts[i] }));
    text.replace(matches, replacementTexts);
    history.record(editIndex, changes);
    this.steps.push(changes);
    this.seen = union(mapThrough(this.seen, changes), newSide(changes));
    if (this.own) this.own = union(mapThrough(this.own, changes), newSide(changes));
    this.lastChanges = changes;
    this.replacements += matches.length;
    return true;
  }

  outcome(original: string, originalIndex: LineIndex | undefined): EditSuccess | EditFailure {
    const { touched, text } = this;
    if (touched.length) {
      const unseen = touched.reduce<Ranges>((all, edit) => union(all, edit.unseen), []);
      return {
        ok: false,
        code: 'EDIT_OUTSIDE_SEEN_RANGE',
        editIndex: touched[0].editIndex,
        edits: this.edits,
        unseen,
        touched,
        ...(this.stoppedAt ? { stoppedAt: this.stoppedAt } : {}),
        text: original,
      };
    }
    if (this.failure) return this.failure;
    // One edit changed nothing when every range it replaced got its own text back (the replacement took the
    // file's line endings, say); several are compared whole.
    const single = this.edits === 1;
    const unchanged = single ? this.lastSplices.every((splice) => original.slice(splice.start, splice.end) === splice.text) : text.toString() === original;
    if (unchanged) return { ok: false, code: 'EDIT_NO_CHANGE' };
    const index = text.lineIndex(originalIndex);
    return {
      ok: true,
      text: text.toString(),
      index,
      seen: this.own ?? this.seen,
      replacements: this.replacements,
      ...(single ? { changes: this.lastChanges, splices: this.lastSplices } : {}),
    };
  }
}

/** The line changes replacing the matches makes; matches sharing a line form one block, counted once. */
function lineChanges(text: ChunkedText, matches: readonly Match[], replacementTexts: readonly string[]): LineChange[] {
  const changes: LineChange[] = [];
  let shift = 0;
  for (let first = 0; first < matches.length;) {
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
    const newBlock = parts.join('');
    const newCount = countLines(newBlock);
    if (toLine > fromLine && newCount > 1) {
      // A block of several lines (an edit with context around its change, or a patch's hunks): only the lines
      // that differ within it are changes, so the review and the result show the real hunks.
      const oldBlock = text.slice(text.lineStart(fromLine), text.lineEndWithTerminator(toLine));
      for (const change of computeLineChanges(oldBlock, newBlock)) {
        changes.push({
          oldFrom: change.oldFrom + fromLine - 1,
          oldTo: change.oldTo + fromLine - 1,
          newFrom: change.newFrom + fromLine + shift - 1,
          newTo: change.newTo + fromLine + shift - 1,
        });
      }
    } else {
      changes.push({ oldFrom: fromLine, oldTo: toLine + 1, newFrom: fromLine + shift, newTo: fromLine + shift + newCount });
    }
    shift += newCount - (toLine - fromLine + 1);
    first = last + 1;
  }
  return changes;
}

/** Whether coverage spans every line of a text with `lineCount` lines. */
export function coversAll(seen: Ranges, lineCount: number): boolean {
  return covers(seen, 1, lineCount);
}
