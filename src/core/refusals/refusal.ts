/**
 * The refusal vocabulary shared by every surface (library, extension API, language model tools). The wording
 * of each code lives in a builder of its own in this folder (`fileChanged`, `writeFailed`, …), named after it.
 *
 * A refusal is a value, not an exception: `{ ok: false, code, message }`. The same code comes out of the tool,
 * the API and the library for the same situation. Every message says what happened and the agent's next
 * step, with the numbers it needs (lines to read, match counts, versions), and never asks for something that
 * cannot succeed (reading a directory, re-reading a binary file). Paths and names are shown with
 * `displayPath`, so a file name with a line break cannot add lines to a message.
 */
import type { ChangeSource } from '../ports';

/** Every error code, in a fixed order (part of the public contract, as `ERROR_CODES`). */
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
  'REVERT_CONFLICT',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * The codes a session's calls (and so every tool) can return: all but those only `Guard` calls return
 * (REVERT_CONFLICT comes from `Guard.revert`, which no agent tool offers). Tool descriptions explain these.
 */
export const TOOL_ERROR_CODES: readonly ErrorCode[] = ERROR_CODES.filter((code) => code !== 'REVERT_CONFLICT');

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

/** A session's name inside a sentence: one short line, "Your revert" as "your revert". */
function personName(label: string): string {
  const line = label
    .replace(/\s+/g, ' ')
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .trim()
    .slice(0, 80);
  return /^Your\b/.test(line) ? `y${line.slice(1)}` : line;
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
      if (source.detail === selfId) return 'by an earlier change of yours';
      return source.label ? `by ${personName(source.label)}` : `by another agent session${detail}`;
    case 'git':
      return `by a git operation${detail}`;
    default:
      return `outside ReadGate${detail}`;
  }
}

/** The prefix of a refusal repeated with identical arguments. */
export function repeated(code: ErrorCode, message: string): string {
  return `You already made this exact call and it was refused with ${code}. Do not retry identical arguments. ${message}`;
}

/** A refusal with a sentence added (what else the call did or did not do). */
export function withNote(refusal: Refusal, note: string): Refusal {
  return note ? { ...refusal, message: refusal.message + note } : refusal;
}
