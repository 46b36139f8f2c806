/**
 * Shape checks for call arguments, with INVALID_INPUT messages that say exactly which field is wrong.
 * Callers from other extensions and models send anything; nothing is trusted to match the types. The checks
 * run on values already read once from the caller's objects (`callArguments.ts`), and no message runs the
 * caller's code to name a value (no toString, no getters: `describeValue`).
 */
import { displayPath } from '../path/displayPath';
import { formatCount } from '../read/formatCount';
import { type Refusal, refuse } from '../refusals/refusal';
import { describeValue } from '../refusals/invalidInput';

export { describeValue };

/**
 * Most edits one call may carry: an `edit`'s list, or all the lists of a `multiEdit` together. Each edit
 * applies to the result of the one before, so a call's work grows with its count; a call with tens of
 * thousands of edits took minutes. An agent with more edits splits them over several calls.
 */
export const MAX_EDITS_PER_CALL = 1000;

const EDIT_SHAPE = '{ oldString, newString, replaceAll? }';


export function notAString(where: string, what: string, value: unknown): Refusal {
  return refuse('INVALID_INPUT', `${where} must be a string (${what}), not ${describeValue(value)}.`);
}

export function validatePath(path: unknown, where = 'path'): Refusal | undefined {
  return typeof path === 'string' ? undefined : notAString(where, "the file's path, absolute or relative to the first root", path);
}

/** The list itself: `length` is its length as read once, or undefined when it is not a list. */
export function validateEditList(length: number | undefined, where = 'edits'): Refusal | undefined {
  if (length === undefined || length === 0) return refuse('INVALID_INPUT', `${where} must be a non-empty list of ${EDIT_SHAPE}.`);
  return undefined;
}

/** `where` names the list ("edits", or "changes" for all of a multiEdit's lists). */
export function validateEditCount(count: number, where = 'edits'): Refusal | undefined {
  if (count <= MAX_EDITS_PER_CALL) return undefined;
  const has = where === 'changes' ? 'have' : 'has';
  const total = where === 'changes' ? ' in all' : '';
  return refuse(
    'INVALID_INPUT',
    `${where} ${has} ${formatCount(count)} edits${total}; at most ${formatCount(MAX_EDITS_PER_CALL)} edits are allowed in one call. Split the change into several calls.`,
  );
}

export function validateEditObject(edit: unknown, where: string): Refusal | undefined {
  return typeof edit === 'object' && edit !== null ? undefined : refuse('INVALID_INPUT', `${where} must be an object ${EDIT_SHAPE}.`);
}

/** One edit's fields as read; `where` is e.g. "edits[2]". */
export function validateEdit(edit: { oldString: unknown; newString: unknown; replaceAll: unknown; line?: unknown }, index: number, where: string): Refusal | undefined {
  if (typeof edit.oldString !== 'string') return refuse('INVALID_INPUT', `${where}.oldString must be a string (the exact text to replace; "" creates a new file).`);
  if (typeof edit.newString !== 'string') return refuse('INVALID_INPUT', `${where}.newString must be a string (the replacement text).`);
  if (edit.replaceAll !== undefined && typeof edit.replaceAll !== 'boolean') return refuse('INVALID_INPUT', `${where}.replaceAll must be true or false.`);
  if (edit.line !== undefined && !(typeof edit.line === 'number' && Number.isSafeInteger(edit.line) && edit.line >= 1)) return refuse('INVALID_INPUT', `${where}.line must be a whole number ≥ 1 (the line where oldString starts), not ${describeValue(edit.line)}.`);
  if (edit.line !== undefined && edit.replaceAll === true) return refuse('INVALID_INPUT', `${where} has both line and replaceAll: line names one place, replaceAll every place. Give one of them.`);
  if (index > 0 && edit.oldString === '') return refuse('INVALID_INPUT', `${where}.oldString is empty: only the first edit may create a file (empty oldString); give the exact text to replace.`);
  return undefined;
}

/**
 * A multiEdit change's kind, from the fields given: edits (the default), a deletion (`delete: true`, nothing
 * else), or a move (`moveTo`, with or without edits). `where` is e.g. "changes[1]".
 */
export function validateChangeKind(change: { deleteFlag: unknown; moveTo: unknown; editsLength: number | undefined; editsGiven: boolean }, where: string): Refusal | undefined {
  const { deleteFlag, moveTo, editsLength, editsGiven } = change;
  if (deleteFlag !== undefined && deleteFlag !== true) return refuse('INVALID_INPUT', `${where}.delete must be true when given, not ${describeValue(deleteFlag)}.`);
  if (moveTo !== undefined && typeof moveTo !== 'string') return notAString(`${where}.moveTo`, 'the path the file moves to', moveTo);
  if (moveTo === '') return refuse('INVALID_INPUT', `${where}.moveTo is empty: name the path the file moves to.`);
  if (deleteFlag === true && (moveTo !== undefined || editsGiven)) return refuse('INVALID_INPUT', `${where} deletes the file and also ${moveTo !== undefined ? 'moves it' : 'edits it'}: a deletion comes alone.`);
  if (deleteFlag === true) return undefined;
  if (moveTo !== undefined && !editsGiven) return undefined;
  if (editsLength === undefined || (editsLength === 0 && moveTo === undefined)) return refuse('INVALID_INPUT', `${where}.edits must be a non-empty list of ${EDIT_SHAPE} (or the change must be { path, delete: true } or { path, moveTo }).`);
  return undefined;
}

/** `where` names the field ("expectedVersion", or "changes[1].expectedVersion" in a multiEdit). */
export function validateExpectedVersion(expectedVersion: unknown, where = 'expectedVersion'): Refusal | undefined {
  if (expectedVersion === undefined || (typeof expectedVersion === 'string' && expectedVersion !== '')) return undefined;
  return refuse('INVALID_INPUT', `${where} must be a version tag from a read or a mutation result.`);
}

/** A multiEdit naming one file twice (or by two names) with two different versions: one of them is wrong. */
export function conflictingVersions(path: string, first: string, second: string): Refusal {
  return refuse('INVALID_INPUT', `${displayPath(path)} is named with two different expectedVersion values (${first} and ${second}); a file is at one version. Pass the version your read of it showed, the same for each of its edits.`);
}

export function validateMutationOptions(options: { expectedVersion?: unknown; explanation?: unknown }): Refusal | undefined {
  const invalidVersion = validateExpectedVersion(options.expectedVersion);
  if (invalidVersion) return invalidVersion;
  if (options.explanation !== undefined && typeof options.explanation !== 'string') return refuse('INVALID_INPUT', 'explanation must be a string.');
  return undefined;
}

/** A number as given: JSON for numbers (so 1.5, -2 and NaN read as they were sent), `describeValue` for the rest. */
function givenNumber(value: unknown): string {
  return typeof value === 'number' ? JSON.stringify(value) : describeValue(value);
}

const isLineNumber = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 1;

export function validateReadOptions(options: { offset: unknown; limit: unknown; force: unknown }): Refusal | undefined {
  if (options.offset !== undefined && !isLineNumber(options.offset)) return refuse('INVALID_INPUT', `offset must be a whole number ≥ 1 (the first line to return), not ${givenNumber(options.offset)}.`);
  if (options.limit !== undefined && !isLineNumber(options.limit)) return refuse('INVALID_INPUT', `limit must be a whole number ≥ 1 (how many lines to return), not ${givenNumber(options.limit)}.`);
  if (options.force !== undefined && typeof options.force !== 'boolean') return refuse('INVALID_INPUT', 'force must be true or false.');
  return undefined;
}
