/**
 * Shape checks for call arguments: which field is wrong, for INVALID_INPUT messages (`refusals/invalidInput.ts`).
 * Callers from other extensions and models send anything; nothing is trusted to match the types. The checks
 * run on values already read once from the caller's objects (`callArguments.ts`), and no message runs the
 * caller's code to name a value (no toString, no getters: `describeValue`).
 */
import type { Refusal } from '../refusals/refusal';
import { invalidArgument } from '../refusals/invalidInput';

/**
 * Most edits one call may carry: an `edit`'s list, or all the lists of a `multiEdit` together. Each edit
 * applies to the result of the one before, so a call's work grows with its count; a call with tens of
 * thousands of edits took minutes. An agent with more edits splits them over several calls.
 */
export const MAX_EDITS_PER_CALL = 1000;

export function validatePath(path: unknown, where = 'path'): Refusal | undefined {
  return typeof path === 'string' ? undefined : invalidArgument.notAString(where, "the file's path, absolute or relative to the first root", path);
}

/** The list itself: `length` is its length as read once, or undefined when it is not a list. */
export function validateEditList(length: number | undefined, where = 'edits'): Refusal | undefined {
  if (length === undefined || length === 0) return invalidArgument.editList(where);
  return undefined;
}

/** `where` names the list ("edits", or "changes" for all of a multiEdit's lists). */
export function validateEditCount(count: number, where = 'edits'): Refusal | undefined {
  if (count <= MAX_EDITS_PER_CALL) return undefined;
  return invalidArgument.tooManyEdits(where, count, MAX_EDITS_PER_CALL);
}

export function validateEditObject(edit: unknown, where: string): Refusal | undefined {
  return typeof edit === 'object' && edit !== null ? undefined : invalidArgument.editObject(where);
}

/** One edit's fields as read; `where` is e.g. "edits[2]". */
export function validateEdit(
  edit: { oldString: unknown; newString: unknown; replaceAll: unknown; line?: unknown },
  index: number,
  where: string,
): Refusal | undefined {
  if (typeof edit.oldString !== 'string') return invalidArgument.oldString(where);
  if (typeof edit.newString !== 'string') return invalidArgument.newString(where);
  if (edit.replaceAll !== undefined && typeof edit.replaceAll !== 'boolean') return invalidArgument.replaceAll(where);
  if (edit.line !== undefined && !(typeof edit.line === 'number' && Number.isSafeInteger(edit.line) && edit.line >= 1)) {
    return invalidArgument.line(where, edit.line);
  }
  if (edit.line !== undefined && edit.replaceAll === true) return invalidArgument.lineAndReplaceAll(where);
  if (index > 0 && edit.oldString === '') return invalidArgument.createNotFirst(where);
  return undefined;
}

/**
 * A multiEdit change's kind, from the fields given: edits (the default), a deletion (`delete: true`, nothing
 * else), or a move (`moveTo`, with or without edits). `where` is e.g. "changes[1]".
 */
export function validateChangeKind(
  change: { deleteFlag: unknown; moveTo: unknown; editsLength: number | undefined; editsGiven: boolean },
  where: string,
): Refusal | undefined {
  const { deleteFlag, moveTo, editsLength, editsGiven } = change;
  if (deleteFlag !== undefined && deleteFlag !== true) return invalidArgument.deleteNotTrue(where, deleteFlag);
  if (moveTo !== undefined && typeof moveTo !== 'string') return invalidArgument.notAString(`${where}.moveTo`, 'the path the file moves to', moveTo);
  if (moveTo === '') return invalidArgument.moveToEmpty(where);
  if (deleteFlag === true && (moveTo !== undefined || editsGiven)) return invalidArgument.deleteAlone(where, moveTo !== undefined);
  if (deleteFlag === true) return undefined;
  if (moveTo !== undefined && !editsGiven) return undefined;
  if (editsLength === undefined || (editsLength === 0 && moveTo === undefined)) return invalidArgument.changeEdits(where);
  return undefined;
}

/** `where` names the field ("expectedVersion", or "changes[1].expectedVersion" in a multiEdit). */
export function validateExpectedVersion(expectedVersion: unknown, where = 'expectedVersion'): Refusal | undefined {
  if (expectedVersion === undefined || (typeof expectedVersion === 'string' && expectedVersion !== '')) return undefined;
  return invalidArgument.expectedVersion(where);
}

export function validateMutationOptions(options: { expectedVersion?: unknown; explanation?: unknown }): Refusal | undefined {
  const invalidVersion = validateExpectedVersion(options.expectedVersion);
  if (invalidVersion) return invalidVersion;
  if (options.explanation !== undefined && typeof options.explanation !== 'string') return invalidArgument.explanation();
  return undefined;
}

const isLineNumber = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 1;

export function validateReadOptions(options: { offset: unknown; limit: unknown; force: unknown; maxChars: unknown }): Refusal | undefined {
  if (options.offset !== undefined && !isLineNumber(options.offset)) return invalidArgument.lineNumber('offset', options.offset);
  if (options.limit !== undefined && !isLineNumber(options.limit)) return invalidArgument.lineNumber('limit', options.limit);
  if (options.force !== undefined && typeof options.force !== 'boolean') return invalidArgument.force();
  if (options.maxChars !== undefined && !isLineNumber(options.maxChars)) return invalidArgument.maxChars(options.maxChars);
  return undefined;
}
