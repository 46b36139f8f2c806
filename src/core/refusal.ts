/**
 * The refusal vocabulary shared by every surface (library, extension API, language model tools).
 *
 * A refusal is a value, not an exception: `{ ok: false, code, message }`. The same code comes out of the
 * tool, the API and the library for the same situation, and the message always tells the agent its next step
 * (API.md, "Error codes").
 */

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
