/**
 * The refusals of a change that could not be computed (applyEdits' failures), in the model's terms. Lines
 * the session has not seen are named so it can read them, except lines no read can show in full (longer
 * than the read cap by themselves): asking for those would send the agent into a loop, so the refusal names
 * the cap instead. Long lines a read of several lines shortens are named with the read that shows them.
 */
import type { applyEdits } from '../edit/applyEdits';
import { indexLines, type LineIndex } from '../edit/lineEndings';
import { type Ranges, formatRanges } from '../ledger/coverage';
import type { ReadLimits } from '../read/formatRead';
import { linesBeyondReadCap, linesToReadAlone } from '../read/longLines';
import { type Refusal, messages, refuse } from './refusal';
import type { FileText } from '../operations/fileText';

function outsideSeen(path: string, unseen: Ranges, why: string, text: string, limits: ReadLimits, index: LineIndex = indexLines(text)): Refusal {
  const lineAt = (line: number): string => text.slice(index.start(line), index.end(line));
  const beyond = linesBeyondReadCap(unseen, lineAt, limits, index.longest);
  if (beyond.length) return refuse('EDIT_OUTSIDE_SEEN_RANGE', messages.beyondReadCap(path, why, beyond.join(', '), limits.maxBytes, formatRanges(unseen)));
  const readAlone = { lines: linesToReadAlone(unseen, lineAt, limits, index.longest), maxLineLength: limits.maxLineLength };
  return refuse('EDIT_OUTSIDE_SEEN_RANGE', messages.outsideSeen(path, formatRanges(unseen), why, readAlone));
}

export function editRefusal(path: string, failure: Exclude<ReturnType<typeof applyEdits>, { ok: true }>, limits: ReadLimits, current?: FileText): Refusal {
  switch (failure.code) {
    case 'NO_OCCURRENCE_FOUND':
      return refuse(failure.code, messages.noOccurrence(path, failure.closest));
    case 'AMBIGUOUS_MATCH':
      return refuse(failure.code, messages.ambiguous(path, failure.lines.length, failure.lines.join(', ')));
    case 'EDIT_OUTSIDE_SEEN_RANGE':
      return outsideSeen(path, failure.unseen, failure.why, failure.text, limits, failure.text === current?.text ? current.index : undefined);
    case 'EDIT_NO_CHANGE':
      return refuse(failure.code, messages.noChange(path));
    case 'INVALID_INPUT':
      return refuse(failure.code, `edits[${failure.editIndex}]: ${failure.message}.`);
  }
}
