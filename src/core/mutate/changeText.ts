/**
 * The new text of an existing file: its edits applied within what the session has seen, a write (keeping the
 * file's CRLF or CR line endings), a deletion, or a move of the content as it is. A change that replaces every
 * line (write, delete, move) needs the whole current version seen. Pure.
 */
import { applyEdits, type Splice } from '../edit/applyEdits';
import { eolStyle, type LineIndex, withEol } from '../text/lineEndings';
import { type LineChange, type Ranges, formatRanges, gaps } from '../text/lineRanges';
import type { Limits } from '../context/guardContext';
import { type FileText, lineAt } from '../text/loadText';
import { linesBeyondReadCap, linesToReadAlone } from '../text/longLines';
import { editNoChange } from '../refusals/editNoChange';
import { editRefusal } from '../refusals/editRefusal';
import { outsideSeenRange } from '../refusals/outsideSeenRange';
import type { Refusal } from '../refusals/refusal';
import type { PlanInput } from './filePlan';

export interface ChangedText {
  afterText: string;
  /** The line index of `afterText`, when the edits built it. */
  afterIndex?: LineIndex;
  /** For a single edit: the ranges of the old text it replaced, to change the bytes in place. */
  splices?: Splice[];
  /** Undefined: every line of the new text (a write). */
  seenAfter?: Ranges;
  replacements: number;
  /** The line changes, when the edits computed them. */
  changes?: LineChange[];
}

/** A change of every line needs every line seen; the refusal names what to read, or the cap no read passes. */
function unseenForWhole(input: PlanInput, current: FileText, seen: Ranges, limits: Limits): Refusal | undefined {
  const unseen = gaps(seen, 1, current.index.count);
  if (!unseen.length) return undefined;
  const what = input.request.kind === 'write' ? 'write' : input.request.kind === 'delete' ? 'delete' : input.request.kind === 'loose' ? 'loose' : 'move';
  const line = (n: number): string => lineAt(current, n);
  const beyond = linesBeyondReadCap(unseen, line, limits, current.index.longest);
  if (beyond.length) return outsideSeenRange.writeBeyondReadCap(input.path, formatRanges(unseen), current.index.count, beyond.join(', '), limits, what);
  const readAlone = { lines: linesToReadAlone(unseen, line, limits, current.index.longest), maxLineLength: limits.maxLineLength };
  return outsideSeenRange.writeNeedsFullRead(input.path, formatRanges(unseen), current.index.count, readAlone, what);
}

/** `own`: what the session itself saw, when an expectedVersion authorized `seen`. */
export function changeText(input: PlanInput, current: FileText, seen: Ranges, own: Ranges | undefined, limits: Limits): ChangedText | Refusal {
  const { request } = input;
  if (request.kind !== 'edit' || input.moveTo !== undefined) {
    const unseen = unseenForWhole(input, current, seen, limits);
    if (unseen) return unseen;
  }
  if (request.kind === 'delete') return { afterText: '', seenAfter: [], replacements: 0 };
  // Another tool writes it: nothing changes here, and the whole file counts as the session saw it.
  if (request.kind === 'loose') return { afterText: current.text, afterIndex: current.index, seenAfter: seen, replacements: 0, changes: [] };
  if (request.kind === 'write') {
    // A file whose line endings were all CRLF (or all CR) keeps them; the encoding (and its BOM) is kept.
    const style = request.verbatim ? 'lf' : eolStyle(current.text);
    const afterText = style === 'crlf' || style === 'cr' ? withEol(request.content, style === 'crlf' ? '\r\n' : '\r') : request.content;
    return afterText === current.text ? editNoChange.noChange(input.path) : { afterText, replacements: 0 };
  }
  // A move alone: the content goes as it is, fully seen.
  if (!request.edits.length) return { afterText: current.text, afterIndex: current.index, seenAfter: seen, replacements: 0, changes: [] };
  const applied = applyEdits(current.text, request.edits, seen, current.index, own);
  if (!applied.ok) return editRefusal(input.path, applied, limits, current);
  return {
    afterText: applied.text,
    afterIndex: applied.index,
    seenAfter: applied.seen,
    replacements: applied.replacements,
    changes: applied.changes,
    ...(applied.splices ? { splices: applied.splices } : {}),
  };
}
