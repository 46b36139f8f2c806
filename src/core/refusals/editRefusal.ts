/**
 * The refusals of a change that could not be computed (applyEdits' failures), in the model's terms. Lines
 * the session has not seen are named so it can read them, except lines no read can show in full (longer
 * than the read cap by themselves): asking for those would send the agent into a loop, so the refusal names
 * the cap instead. Long lines a read of several lines shortens are named with the read that shows them.
 *
 * Line numbers are those of the version the agent read, before any edit of the call applies (applyEdits maps
 * them back); a line an earlier edit of the call writes is named by that edit. In a call of several edits the
 * message says which edit (counted from 1 among the file's edits) touches which lines, and how lines count.
 */
import type { ClosestLine, applyEdits, UnseenEdit } from '../edit/applyEdits';
import type { WrittenLine } from '../edit/lineOrigins';
import { indexLines, type LineIndex } from '../text/lineEndings';
import { type Ranges, formatRanges, lineTotal } from '../text/lineRanges';
import type { ReadLimits } from '../text/resultBudget';
import { linesBeyondReadCap, linesToReadAlone } from '../text/longLines';
import { type Refusal, refuse } from './refusal';
import type { Touching } from './outsideSeenRange';
import type { FileText } from '../text/loadText';
import { ambiguousMatch } from './ambiguousMatch';
import { editNoChange } from './editNoChange';
import { noOccurrenceFound } from './noOccurrenceFound';
import { outsideSeenRange } from './outsideSeenRange';

type EditFailure = Exclude<ReturnType<typeof applyEdits>, { ok: true }>;
type OutsideSeen = Extract<EditFailure, { code: 'EDIT_OUTSIDE_SEEN_RANGE' }>;

/** How the call's edits count: `first` is the number of applyEdits' first edit (2 after a create). */
interface Numbering {
  first: number;
  edits: number;
  created: boolean;
}

/** Most edits named one by one in a refusal; the rest are counted. */
const MAX_NAMED = 10;

const editName = (editIndex: number, n: Numbering): string => `edit ${editIndex + n.first}`;
const which = (editIndex: number, n: Numbering): string => `${editName(editIndex, n)} of your ${n.edits} edits`;
const numbered = (n: Numbering): string => (n.created ? 'the text your first edit creates' : 'this version, before any of your edits apply');
const linesWord = (ranges: Ranges): string => `${lineTotal(ranges) === 1 ? 'line' : 'lines'} ${formatRanges(ranges)}`;

function reason(edit: UnseenEdit): string {
  if (edit.matches < 2) return '';
  return edit.replaceAll
    ? ` (a replaceAll of ${edit.matches} occurrences)`
    : ` (oldString matches ${edit.matches} places; finding the one you mean needs them all)`;
}

function joinAnd(parts: readonly string[]): string {
  return parts.length < 2 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** Why a call of one edit touches several places, as the single-edit message has always said it. */
function why(edit: UnseenEdit): string {
  if (edit.matches < 2) return 'The change';
  return edit.replaceAll ? `replaceAll of ${edit.matches} occurrences` : `oldString matches ${edit.matches} places; finding the one you mean`;
}

/** Which edits were left unchecked: those after the one that ended the walk (and it too, when it was not placed). */
function stopNote(failure: OutsideSeen, n: Numbering): string {
  const stop = failure.stoppedAt;
  if (!stop) return '';
  const name = editName(stop.editIndex, n);
  if (failure.touched.some((edit) => edit.editIndex === stop.editIndex)) {
    return stop.editIndex + 1 < failure.edits ? ` The edits after ${name} were not checked.` : '';
  }
  const how = stop.code === 'NO_OCCURRENCE_FOUND' ? 'is not found' : 'matches several places';
  return ` ${capital(name)} could not be placed (its oldString ${how} once the edits before it apply), so it and the edits after it were not checked: fix it too.`;
}

function touching(failure: OutsideSeen, n: Numbering): Touching {
  const { touched } = failure;
  if (n.edits === 1) return { subject: why(touched[0]) };
  const note = ` Line numbers are those of ${numbered(n)}.${stopNote(failure, n)}`;
  if (touched.length === 1) return { subject: `${capital(which(touched[0].editIndex, n))}${reason(touched[0])}`, note };
  const numbers = joinAnd(touched.map((edit) => String(edit.editIndex + n.first)));
  const subject = touched.length <= MAX_NAMED ? `Edits ${numbers} of your ${n.edits} edits` : `${touched.length} of your ${n.edits} edits`;
  const named = touched.slice(0, MAX_NAMED).map((edit) => `${editName(edit.editIndex, n)}${reason(edit)} touches ${linesWord(edit.unseen)}`);
  if (touched.length > MAX_NAMED) named.push(`${touched.length - MAX_NAMED} more edits touch the other lines`);
  return { subject, plural: true, detail: ` ${capital(named.join('; '))}.`, note };
}

const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function outsideSeen(path: string, failure: OutsideSeen, n: Numbering, limits: ReadLimits, index: LineIndex = indexLines(failure.text)): Refusal {
  const { unseen, text } = failure;
  const who = touching(failure, n);
  const lineAt = (line: number): string => text.slice(index.start(line), index.end(line));
  const beyond = linesBeyondReadCap(unseen, lineAt, limits, index.longest);
  if (beyond.length) return outsideSeenRange.beyondReadCap(path, who, beyond.join(', '), limits, formatRanges(unseen));
  const readAlone = { lines: linesToReadAlone(unseen, lineAt, limits, index.longest), maxLineLength: limits.maxLineLength };
  return outsideSeenRange.unseen(path, formatRanges(unseen), who, readAlone);
}

function writtenPlace(origin: WrittenLine, n: Numbering): string {
  return `the text ${editName(origin.writtenBy, n)} writes${origin.at === undefined ? '' : ` at line ${origin.at}`}`;
}

/** "lines 5, 30, 2 places in the text edit 1 writes at line 3 and 4 more". */
function places(failure: Extract<EditFailure, { code: 'AMBIGUOUS_MATCH' }>, n: Numbering): string {
  const parts = failure.lines.length ? [`${failure.lines.length === 1 ? 'line' : 'lines'} ${failure.lines.join(', ')}`] : [];
  const groups = new Map<string, number>();
  for (const origin of failure.written) {
    const place = writtenPlace(origin, n);
    groups.set(place, (groups.get(place) ?? 0) + 1);
  }
  for (const [place, count] of groups) parts.push(count > 1 ? `${count} places in ${place}` : place);
  const more = failure.count - failure.lines.length - failure.written.length;
  if (more > 0) parts.push(`${more} more`);
  return joinAnd(parts);
}

function closestRows(closest: readonly ClosestLine[], n: Numbering): string {
  return closest.map(({ origin, text }) => `  ${'line' in origin ? origin.line : `(${writtenPlace(origin, n)})`}: ${text}`).join('\n');
}

/** `created`: the file does not exist yet and applyEdits got the edits after the one creating it. */
export function editRefusal(path: string, failure: EditFailure, limits: ReadLimits, current?: FileText, created = false): Refusal {
  const first = created ? 2 : 1;
  const n: Numbering = { first, edits: ('edits' in failure ? failure.edits : 1) + first - 1, created };
  const several = n.edits > 1;
  switch (failure.code) {
    case 'NO_OCCURRENCE_FOUND': {
      const what = several ? `${which(failure.editIndex, n)}${failure.editIndex + n.first > 1 ? ', once the edits before it apply,' : ''}` : undefined;
      return noOccurrenceFound.notFound(path, closestRows(failure.closest, n), what, several ? `line numbers of ${numbered(n)}` : '');
    }
    case 'AMBIGUOUS_MATCH':
      return ambiguousMatch.several(
        path,
        failure.count,
        places(failure, n),
        several ? which(failure.editIndex, n) : undefined,
        several ? `Line numbers are those of ${numbered(n)}` : '',
      );
    case 'EDIT_OUTSIDE_SEEN_RANGE':
      return outsideSeen(path, failure, n, limits, failure.text === current?.text ? current.index : undefined);
    case 'EDIT_NO_CHANGE':
      return editNoChange.noChange(path);
    case 'INVALID_INPUT':
      return refuse(failure.code, `edits[${failure.editIndex + n.first - 1}]: ${failure.message}.`);
  }
}
