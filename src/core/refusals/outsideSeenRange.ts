/**
 * EDIT_OUTSIDE_SEEN_RANGE: a change that touches lines the session has not seen in this version. The wording of
 * each situation lives here, with its code.
 */
import { displayPath } from '../path/displayPath';
import { formatCount } from '../text/formatCount';
import { capWords, type ReadLimits, raiseWords } from '../text/resultBudget';
import { type Refusal, refuse } from './refusal';

/** Unseen long lines a read of several lines shortens: only a read of each alone (or of only such lines) shows them. */
export interface ReadAlone {
  lines: readonly number[];
  maxLineLength: number;
}

/** Without it, "read those lines" would shorten them again and the agent would loop. */
function readAloneHint(readAlone: ReadAlone | undefined): string {
  if (!readAlone?.lines.length) return '';
  const [first] = readAlone.lines;
  const which = readAlone.lines.length === 1 ? `Line ${first} is` : `Lines ${readAlone.lines.join(', ')} are`;
  return ` ${which} longer than ${formatCount(readAlone.maxLineLength)} characters, which a read of several lines shortens: read ${readAlone.lines.length === 1 ? 'it' : 'each'} alone (${readAlone.lines.length === 1 ? '' : 'e.g. '}offset: ${first}, limit: 1) to see it in full.`;
}

/**
 * Who touches unseen lines: `subject` is "The change" (or why a call of one edit touches several places), or
 * which edits of a call do ("Edits 2 and 3 of your 3 edits"), then `plural`.
 */
export interface Touching {
  subject: string;
  plural?: boolean;
  /** Which edit touches which lines, as a sentence. */
  detail?: string;
  /** How lines are numbered, and which edits were not checked, as sentences. */
  note?: string;
}

export type WholeFileChange = 'write' | 'delete' | 'move' | 'copy' | 'loose';

const WHOLE: Record<WholeFileChange, (path: string, lines: number) => string> = {
  write: (path, lines) => `Writing ${displayPath(path)} replaces all ${lines} lines`,
  delete: (path, lines) => `Deleting ${displayPath(path)} removes all ${lines} lines`,
  move: (path, lines) => `Moving ${displayPath(path)} takes all ${lines} lines with it`,
  copy: (path, lines) => `Copying ${displayPath(path)} shows all ${lines} lines in the new file`,
  loose: (path, lines) => `This tool decides itself where its change goes in ${displayPath(path)}, so it may change any of its ${lines} lines`,
};

/** What else the agent can do instead of reading the whole file. */
const INSTEAD: Partial<Record<WholeFileChange, string>> = {
  write: ', or change it with edit instead',
  loose: ', or make the change as an exact replacement of the lines you read instead',
};

const touch = (path: string, who: Touching): string => `${who.subject} in ${displayPath(path)} ${who.plural ? 'touch' : 'touches'}`;

export const outsideSeenRange = {
  /** `who.detail` and `who.note`, when given, are whole sentences each starting with a space. */
  unseen(path: string, lines: string, who: Touching, readAlone?: ReadAlone): Refusal {
    return refuse(
      'EDIT_OUTSIDE_SEEN_RANGE',
      `${touch(path, who)} lines you have not seen in this version: ${lines}.${who.detail ?? ''}${who.note ?? ''} Read those lines (offset/limit), then retry.${readAloneHint(readAlone)}`,
    );
  },
  /** Never "read those lines": no read can show a line longer than the read cap, so that would loop. */
  beyondReadCap(path: string, who: Touching, lines: string, limits: ReadLimits, unseen: string): Refusal {
    return refuse(
      'EDIT_OUTSIDE_SEEN_RANGE',
      `${touch(path, who)} lines you have not seen in this version (${unseen}), and line(s) ${lines} of them are longer than ${capWords(limits)} by themselves: no read can show them in full, so ReadGate cannot let you change them. Do not retry or re-read them. Leave those lines out of your change, or ${raiseWords(limits)}, or ask the user to make this change.${who.detail ?? ''}${who.note ?? ''}`,
    );
  },
  /** `what`: the whole-file change refused (a write, a deletion or a move all need every line seen). */
  writeBeyondReadCap(path: string, unseen: string, totalLines: number, lines: string, limits: ReadLimits, what: WholeFileChange = 'write'): Refusal {
    return refuse(
      'EDIT_OUTSIDE_SEEN_RANGE',
      `${WHOLE[what](path, totalLines)}, but you have not seen lines ${unseen} of the current version, and line(s) ${lines} of them are longer than ${capWords(limits)} by themselves: no read can show them in full, so ReadGate cannot let you ${what === 'write' ? 'overwrite' : what === 'loose' ? 'change' : what} the file. Do not re-read them. ${what === 'write' ? 'Change the other lines with edit instead, or ' : 'Ask the user to do it, or '}${raiseWords(limits)}.`,
    );
  },
  writeNeedsFullRead(path: string, unseen: string, totalLines: number, readAlone?: ReadAlone, what: WholeFileChange = 'write'): Refusal {
    return refuse(
      'EDIT_OUTSIDE_SEEN_RANGE',
      `${WHOLE[what](path, totalLines)}, but you have not seen lines ${unseen} of the current version. Read the whole file (or those lines) first${INSTEAD[what] ?? ''}.${readAloneHint(readAlone)}`,
    );
  },
};
