/**
 * The refusal vocabulary shared by every surface (library, extension API, language model tools), and one
 * message builder per situation.
 *
 * A refusal is a value, not an exception: `{ ok: false, code, message }`. The same code comes out of the tool,
 * the API and the library for the same situation. Every message says what happened and the agent's next
 * step, with the numbers it needs (lines to read, match counts, versions), and never asks for something that
 * cannot succeed (reading a directory, re-reading a binary file). Paths and names are shown with
 * `displayPath`, so a file name with a line break cannot add lines to a message.
 */
import { displayPath } from '../path/displayPath';
import type { ChangeSource } from '../ports';
import { formatCount } from '../read/formatCount';
import { RAISE_READ_CAP } from '../read/longLines';

/** Every error code, in the order of API.md's table. */
export const ERROR_CODES = [
  'PATH_INVALID',
  'PATH_DENIED',
  'FILE_NOT_FOUND',
  'TARGET_IS_DIRECTORY',
  'SPECIAL_FILE',
  'BINARY_FILE',
  'FILE_TOO_LARGE',
  'EDIT_REQUIRES_PRIOR_READ',
  'EDIT_OUTSIDE_SEEN_RANGE',
  'FILE_CHANGED_SINCE_READ',
  'PRIOR_READ_VERIFICATION_FAILED',
  'NO_OCCURRENCE_FOUND',
  'AMBIGUOUS_MATCH',
  'EDIT_NO_CHANGE',
  'FILE_EXISTS',
  'REJECTED_BY_USER',
  'CANCELLED',
  'INVALID_INPUT',
  'WRITE_FAILED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** A refused operation. `message` is written for the model: what happened and what to do next. */
export interface Refusal {
  ok: false;
  code: ErrorCode;
  message: string;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

export function refuse(code: ErrorCode, message: string): Refusal {
  return { ok: false, code, message };
}

export function isRefusal(value: unknown): value is Refusal {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

/**
 * Who changed a file, as the words after "changed …": only what the notes prove (a session only for content
 * it wrote, git only while git was active), otherwise "outside ReadGate". `selfId` is the asking session.
 */
export function changedBy(source: ChangeSource | undefined, selfId: string): string {
  if (!source) return 'outside ReadGate';
  const detail = source.detail ? ` (${source.detail})` : '';
  switch (source.kind) {
    case 'editor':
      if (source.detail === 'undo' || source.detail === 'redo') return `by an ${source.detail} in the editor`;
      return source.detail ? `in the editor${detail}` : 'by someone typing in the editor';
    case 'save':
      return 'by a save in the editor (format on save or a save participant)';
    case 'session':
      return source.detail === selfId ? 'by an earlier change of yours' : `by another agent session${detail}`;
    case 'git':
      return `by a git operation${detail}`;
    default:
      return `outside ReadGate${detail}`;
  }
}

const IO_WORDS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large for this file system or process',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EIO: 'input/output error',
  ESHORTWRITE: 'the write stopped short',
};

/** "ENOSPC on write" → "ENOSPC on write: no space left on the device". */
function ioWords(detail: string): string {
  const words = IO_WORDS[detail.split(' ')[0]];
  return words ? `${detail}: ${words}` : detail;
}

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

const touch = (path: string, who: Touching): string => `${who.subject} in ${displayPath(path)} ${who.plural ? 'touch' : 'touches'}`;

export const messages = {
  notFound(path: string, suggestions: readonly string[]): string {
    const hint = suggestions.length ? ` Did you mean: ${suggestions.map(displayPath).join(', ')}?` : ' Check the path; to create the file, use write (or edit with an empty oldString).';
    return `${displayPath(path)} does not exist.${hint}`;
  },
  directory(path: string, entries: readonly string[]): string {
    const sample = entries.length ? ` It contains: ${entries.slice(0, 12).map(displayPath).join(', ')}${entries.length > 12 ? `, … (${entries.length} entries)` : ''}.` : '';
    return `${displayPath(path)} is a directory, not a file. Read one of the files inside it instead.${sample}`;
  },
  special(path: string, kind: string): string {
    return `${displayPath(path)} is a ${kind}, not a regular file; ReadGate refuses it without opening it (reading could block or never end). Do not retry; use another tool if you really need it.`;
  },
  specialWhenOpened(path: string, kind: string): string {
    return `${displayPath(path)} turned out to be a ${kind}, not a regular file, when ReadGate opened it (it was replaced after it was checked). It was opened without blocking and refused; nothing was read or changed. Do not retry; check what replaced the file.`;
  },
  wouldBlock(path: string): string {
    return `Reading ${displayPath(path)} would block (it behaves like a device or pipe, not a file). ReadGate refuses it; nothing was read or changed. Do not retry; use another tool if you really need it.`;
  },
  vanished(path: string): string {
    return `${displayPath(path)} vanished while ReadGate opened it (it was deleted, or a folder on the way was moved). Nothing was read or changed. Check the path, then retry.`;
  },
  becameLink(path: string): string {
    return `${displayPath(path)} was replaced by a symbolic link after ReadGate checked it, so ReadGate did not follow it. Nothing was read or changed. Retry: the path is checked again, link and all.`;
  },
  binary(path: string, type: string, size: number, verb: string): string {
    return `${displayPath(path)} is binary (${type}, ${formatCount(size)} bytes); ReadGate ${verb} text files only. Reading it again will not help: use a tool made for this format.`;
  },
  tooLarge(path: string, size: number, limit: number): string {
    return `${displayPath(path)} is ${formatCount(size)} bytes, above the ${formatCount(limit)}-byte limit for whole-file edits and writes. Read line ranges of it (offset/limit) instead; change it with another tool.`;
  },
  requiresRead(path: string): string {
    return `${displayPath(path)} has not been read in this session, so it cannot be changed yet. Read it first (the lines you intend to change, or the whole file before a write), then retry.`;
  },
  /** `who.detail` and `who.note`, when given, are whole sentences each starting with a space. */
  outsideSeen(path: string, lines: string, who: Touching, readAlone?: ReadAlone): string {
    return `${touch(path, who)} lines you have not seen in this version: ${lines}.${who.detail ?? ''}${who.note ?? ''} Read those lines (offset/limit), then retry.${readAloneHint(readAlone)}`;
  },
  /** Never "read those lines": no read can show a line longer than the read cap, so that would loop. */
  beyondReadCap(path: string, who: Touching, lines: string, maxBytes: number, unseen: string): string {
    return `${touch(path, who)} lines you have not seen in this version (${unseen}), and line(s) ${lines} of them are longer than the ${formatCount(maxBytes)}-byte read cap by themselves: no read can show them in full, so ReadGate cannot let you change them. Do not retry or re-read them. Leave those lines out of your change, or ${RAISE_READ_CAP}, or ask the user to make this change.${who.detail ?? ''}${who.note ?? ''}`;
  },
  writeBeyondReadCap(path: string, unseen: string, totalLines: number, lines: string, maxBytes: number): string {
    return `Writing ${displayPath(path)} replaces all ${totalLines} lines, but you have not seen lines ${unseen} of the current version, and line(s) ${lines} of them are longer than the ${formatCount(maxBytes)}-byte read cap by themselves: no read can show them in full, so ReadGate cannot let you overwrite the file. Do not re-read them. Change the other lines with edit instead, or ${RAISE_READ_CAP}.`;
  },
  writeNeedsFullRead(path: string, unseen: string, totalLines: number, readAlone?: ReadAlone): string {
    return `Writing ${displayPath(path)} replaces all ${totalLines} lines, but you have not seen lines ${unseen} of the current version. Read the whole file (or those lines) first, or change it with edit instead.${readAloneHint(readAlone)}`;
  },
  /**
   * Never names the file's current version: a session that has not read the file would pass it back and edit
   * bytes it never saw (audit: the version tag as a content oracle).
   */
  expectedMismatch(path: string, expectedVersion: string): string {
    return `${displayPath(path)} is not at the expectedVersion ${expectedVersion} you passed: it changed since that version was read, or the tag did not come from a read of this file. Nothing was written. Read the file (the lines you intend to change, or all of it before a write); the read reports its current version. Then retry.`;
  },
  verificationFailed(path: string, detail: string): string {
    return `ReadGate could not check ${displayPath(path)} (${detail}), so it refuses to act on it (fail closed). Nothing was changed. Check the file's permissions or try again later.`;
  },
  /** `which` names the edit when the call has several ("edit 2 of your 3 edits"), `numbering` how lines count. */
  noOccurrence(path: string, closest: string, which?: string, numbering = ''): string {
    const what = which ? `The oldString of ${which}` : 'oldString';
    const near = closest ? ` The closest lines you have seen${numbering ? ` (${numbering})` : ''}:\n${closest}` : '';
    return `${what} was not found in ${displayPath(path)}. It must match the file exactly, including whitespace and indentation.${near}\nRead the lines you want to change and copy them exactly.`;
  },
  /** `places`: "lines 3, 9" (and, in a call of several edits, the text an earlier edit writes). */
  ambiguous(path: string, count: number, places: string, which?: string, numbering = ''): string {
    const what = which ? `The oldString of ${which}` : 'oldString';
    return `${what} matches ${count} places in ${displayPath(path)} (${places}).${numbering ? ` ${numbering}.` : ''} Add surrounding lines to oldString so it matches exactly one place, or set replaceAll: true to change every occurrence.`;
  },
  noChange(path: string): string {
    return `The change would leave ${displayPath(path)} exactly as it is (oldString equals newString, or the content is identical). Nothing was written; check what you intended to change.`;
  },
  exists(path: string): string {
    return `${displayPath(path)} already exists, so an empty oldString (create) is refused. To change it, read it and edit the lines you mean; to replace it entirely, read it fully and use write.`;
  },
  rejected(path: string, reason: string | undefined): string {
    return `The user rejected the change: ${displayPath(path)} was NOT modified.${reason ? ` The user said: "${reason}".` : ' No reason was given.'} Ask the user or adjust the change before trying again.`;
  },
  cancelled(): string {
    return 'The call was cancelled; no file was modified.';
  },
  disposed(): string {
    return 'ReadGate has shut down (the guard was disposed); no file was modified.';
  },
  writeFailed(path: string, detail: string): string {
    return `Writing ${displayPath(path)} failed (${ioWords(detail)}). Nothing was changed: the file was left exactly as it was. Fix the cause (free disk space, permissions) or ask the user, then retry.`;
  },
  readOnly(path: string, detail: string): string {
    const mode = /mode (\d+)/.exec(detail)?.[1];
    return `${displayPath(path)} is read-only${mode ? ` (mode ${mode})` : ''}: ReadGate does not replace a file nobody may write. Nothing was changed. Ask the user to make it writable if the change is wanted.`;
  },
  notWritableByUser(path: string): string {
    return `${displayPath(path)} is not writable by this user: ReadGate does not replace a file its user may not write, even where the folder would allow it. Nothing was changed. Ask the user to change its permissions if the change is wanted.`;
  },
  hardLinked(path: string, detail: string): string {
    const count = /has (\d+) hard links/.exec(detail)?.[1] ?? 'several';
    return `${displayPath(path)} has ${count} hard links (other names share its bytes). ReadGate does not change such a file: replacing it would split it from its other names, and rewriting it in place could leave it torn if the machine stopped mid-write. Nothing was changed. Ask the user to change it, or to break the link first (copy the file over itself with cp and mv).`;
  },
  changedDuringWrite(path: string, detail: string): string {
    return `${displayPath(path)} was changed by someone else at the very instant your change was written (${detail}). Your change was NOT applied and theirs was kept. Read the file again, then retry.`;
  },
  putBackFailed(path: string, detail: string): string {
    return `Your change to ${displayPath(path)} WAS written, but ${detail}: their change may be lost. Tell the user now, so they can check ${displayPath(path)}; do not retry.`;
  },
  changedWhileWriting(path: string, detail: string): string {
    return `${displayPath(path)} could not be written as planned: ${detail}. Nothing was written. Read the file (at its current location) again, then retry.`;
  },
  escaped(path: string, detail: string): string {
    return `Writing ${displayPath(path)} went wrong in a way ReadGate could not prevent: ${detail}. Someone is swapping folders of this tree as it is written. Tell the user at once; do not retry.`;
  },
  malformedApproval(paths: string, detail: string): string {
    return `The approver answered malformed data (${detail}), which ReadGate treats as a rejection: ${paths} NOT modified. Try again; if it keeps happening, the extension or tool asking for approval is broken: tell the user.`;
  },
  repeated(code: ErrorCode, message: string): string {
    return `You already made this exact call and it was refused with ${code}. Do not retry identical arguments. ${message}`;
  },
};
