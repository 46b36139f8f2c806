/**
 * The arguments of a public GuardSession call, copied into plain, checked data before anything else runs.
 *
 * Callers send anything: getters that throw, Proxies whose traps throw or answer differently on each access,
 * objects without a toString. So each field is read exactly once, inside try/catch, and only the copy is used
 * afterwards: what was validated is what runs, and nothing the caller handed in can throw from inside the
 * guard. A field that cannot be read is an INVALID_INPUT refusal naming it. The caller's signal is kept as read
 * (it is linked, not copied: `linkedSignal.ts`). Options that are not objects are ignored, as before.
 *
 * Not here: what a value must be (`inputValidation.ts`); whether a path is allowed (`pathPolicy.ts`).
 */
import { revertWhat } from '../history/revertQuery';
import { type Refusal, isRefusal } from '../refusals/refusal';
import { invalidArgument, invalidRevert } from '../refusals/invalidInput';
import type { Edit, MultiEditChange, RevertTarget } from '../types';
import {
  validateEdit,
  validateChangeKind,
  validateEditCount,
  validateEditList,
  validateEditObject,
  validateMutationOptions,
  validateExpectedVersion,
  validatePath,
  validateReadOptions,
} from './inputValidation';

interface Call {
  /** The path for logs and messages ("(multiEdit)" for a call over several files). */
  path: string;
  /** What makes two calls the same call, for the note on a refused call repeated as is. Plain data. */
  key: unknown[];
  /** The caller's signal as read (anything: `linkSignal` checks it). */
  signal: unknown;
}

export interface ReadCall extends Call {
  options: { offset?: number; limit?: number; force?: boolean; maxChars?: number };
}

export interface MutationCallOptions {
  expectedVersion?: string;
  explanation?: string;
}

export interface EditCall extends Call {
  edits: Edit[];
  options: MutationCallOptions;
}

export interface WriteCall extends Call {
  content: string;
  options: MutationCallOptions;
}

export interface MultiEditCall extends Call {
  changes: MultiEditChange[];
  options: { explanation?: string };
}

export interface DeleteCall extends Call {
  options: MutationCallOptions;
}

export interface PatchCall extends Call {
  patch: string;
  options: { explanation?: string };
}

export interface RenameCall extends Call {
  to: string;
  options: MutationCallOptions;
}

export interface RevertCall extends Call {
  target: RevertTarget;
  explanation?: string;
  /** The revert session's id, surface and label, when the caller chose them. */
  session: { id?: string; surface?: string; label?: string };
}

/** Thrown only inside this file, when reading a field throws; `copied` turns it into the refusal. */
class Unreadable {
  constructor(readonly where: string) {}
}

function field(source: object, key: string | number, where: string): unknown {
  try {
    return (source as Record<string | number, unknown>)[key];
  } catch {
    throw new Unreadable(where);
  }
}

/** Length of a list as read once, or undefined for anything that is not a list. */
function listLength(value: unknown, where: string): number | undefined {
  let isList: boolean;
  try {
    isList = Array.isArray(value);
  } catch {
    throw new Unreadable(where); // a revoked Proxy
  }
  if (!isList) return undefined;
  const length = field(value as object, 'length', where);
  return typeof length === 'number' && Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

function copied<T>(copy: () => T | Refusal): T | Refusal {
  try {
    return copy();
  } catch (error) {
    const where = error instanceof Unreadable ? error.where : 'the arguments';
    return invalidArgument.unreadable(where);
  }
}

function optionsObject(given: unknown): object {
  return typeof given === 'object' && given !== null ? given : {};
}

function option(options: object, key: string): unknown {
  return field(options, key, `options.${key}`);
}

function mutationOptions(given: unknown): { options: MutationCallOptions; signal: unknown } | Refusal {
  const raw = optionsObject(given);
  const expectedVersion = option(raw, 'expectedVersion');
  const explanation = option(raw, 'explanation');
  const signal = option(raw, 'signal');
  const invalid = validateMutationOptions({ expectedVersion, explanation });
  if (invalid) return invalid;
  const options: MutationCallOptions = {};
  if (expectedVersion !== undefined) options.expectedVersion = expectedVersion as string;
  if (explanation !== undefined) options.explanation = explanation as string;
  return { options, signal };
}

/** Reads a list's edits, `length` of them (its length as read once). `where` is e.g. "changes[1].edits". */
function copyEdits(list: object, length: number, where: string): Edit[] | Refusal {
  const edits: Edit[] = [];
  for (let i = 0; i < length; i++) {
    const at = `${where}[${i}]`;
    const raw = field(list, i, at);
    const notObject = validateEditObject(raw, at);
    if (notObject) return notObject;
    const read = {
      oldString: field(raw as object, 'oldString', `${at}.oldString`),
      newString: field(raw as object, 'newString', `${at}.newString`),
      replaceAll: field(raw as object, 'replaceAll', `${at}.replaceAll`),
      line: field(raw as object, 'line', `${at}.line`),
    };
    const invalid = validateEdit(read, i, at);
    if (invalid) return invalid;
    const edit: Edit = { oldString: read.oldString as string, newString: read.newString as string };
    if (read.replaceAll !== undefined) edit.replaceAll = read.replaceAll as boolean;
    if (read.line !== undefined) edit.line = read.line as number;
    edits.push(edit);
  }
  return edits;
}

export function readCall(path: unknown, given: unknown): ReadCall | Refusal {
  return copied(() => {
    const raw = optionsObject(given);
    const read = { offset: option(raw, 'offset'), limit: option(raw, 'limit'), force: option(raw, 'force'), maxChars: option(raw, 'maxChars') };
    const signal = option(raw, 'signal');
    const invalid = validatePath(path) ?? validateReadOptions(read);
    if (invalid) return invalid;
    const options: ReadCall['options'] = {};
    if (read.offset !== undefined) options.offset = read.offset as number;
    if (read.limit !== undefined) options.limit = read.limit as number;
    if (read.force !== undefined) options.force = read.force as boolean;
    if (read.maxChars !== undefined) options.maxChars = read.maxChars as number;
    return { path: path as string, options, signal, key: [path, options.offset, options.limit, options.force] };
  });
}

export function editCall(path: unknown, edits: unknown, given: unknown): EditCall | Refusal {
  return copied(() => {
    const invalidPath = validatePath(path);
    if (invalidPath) return invalidPath;
    const length = listLength(edits, 'edits');
    const invalid = validateEditList(length) ?? validateEditCount(length ?? 0);
    if (invalid) return invalid;
    const copy = copyEdits(edits as object, length as number, 'edits');
    if (isRefusal(copy)) return copy;
    const options = mutationOptions(given);
    if (isRefusal(options)) return options;
    return { path: path as string, edits: copy, ...options, key: [path, copy, options.options.expectedVersion] };
  });
}

export function writeCall(path: unknown, content: unknown, given: unknown): WriteCall | Refusal {
  return copied(() => {
    const invalidContent = typeof content === 'string' ? undefined : invalidArgument.notAString('content', 'the complete new file content', content);
    const invalid = validatePath(path) ?? invalidContent;
    if (invalid) return invalid;
    const options = mutationOptions(given);
    if (isRefusal(options)) return options;
    return { path: path as string, content: content as string, ...options, key: [path, content, options.options.expectedVersion] };
  });
}

export function multiEditCall(changes: unknown, given: unknown): MultiEditCall | Refusal {
  return copied(() => {
    const count = listLength(changes, 'changes');
    if (!count) return invalidArgument.changesList();
    // Every list's length first, so the cap is checked before a single edit is read.
    const lists: { change: MultiEditChange; list?: object; length: number }[] = [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      const where = `changes[${i}]`;
      const change = field(changes as object, i, where);
      if (typeof change !== 'object' || change === null) return invalidArgument.changeObject(where);
      const path = field(change, 'path', `${where}.path`);
      const edits = field(change, 'edits', `${where}.edits`);
      const expectedVersion = field(change, 'expectedVersion', `${where}.expectedVersion`);
      const deleteFlag = field(change, 'delete', `${where}.delete`);
      const moveTo = field(change, 'moveTo', `${where}.moveTo`);
      const invalidPath = validatePath(path, `${where}.path`) ?? validateExpectedVersion(expectedVersion, `${where}.expectedVersion`);
      if (invalidPath) return invalidPath;
      const length = edits === undefined ? undefined : listLength(edits, `${where}.edits`);
      const invalid = validateChangeKind({ deleteFlag, moveTo, editsLength: length, editsGiven: edits !== undefined }, where);
      if (invalid) return invalid;
      const copy: MultiEditChange = { path: path as string };
      if (expectedVersion !== undefined) copy.expectedVersion = expectedVersion as string;
      if (deleteFlag === true) copy.delete = true;
      if (moveTo !== undefined) copy.moveTo = moveTo as string;
      lists.push({ change: copy, ...(length ? { list: edits as object } : {}), length: length ?? 0 });
      total += length ?? 0;
    }
    const tooMany = validateEditCount(total, 'changes');
    if (tooMany) return tooMany;
    const copies: MultiEditCall['changes'] = [];
    for (let i = 0; i < lists.length; i++) {
      const { change, list, length } = lists[i];
      if (list) {
        const edits = copyEdits(list, length, `changes[${i}].edits`);
        if (isRefusal(edits)) return edits;
        change.edits = edits;
      }
      copies.push(change);
    }
    const raw = optionsObject(given);
    const explanation = option(raw, 'explanation');
    const signal = option(raw, 'signal');
    const invalid = validateMutationOptions({ explanation });
    if (invalid) return invalid;
    const options = explanation === undefined ? {} : { explanation: explanation as string };
    return { path: '(multiEdit)', changes: copies, options, signal, key: [copies] };
  });
}

export function deleteCall(path: unknown, given: unknown): DeleteCall | Refusal {
  return copied(() => {
    const invalid = validatePath(path);
    if (invalid) return invalid;
    const options = mutationOptions(given);
    if (isRefusal(options)) return options;
    return { path: path as string, ...options, key: ['delete', path, options.options.expectedVersion] };
  });
}

export function renameCall(from: unknown, to: unknown, given: unknown): RenameCall | Refusal {
  return copied(() => {
    const invalid = validatePath(from, 'from') ?? validatePath(to, 'to');
    if (invalid) return invalid;
    if (to === '') return invalidArgument.renameToEmpty();
    const options = mutationOptions(given);
    if (isRefusal(options)) return options;
    return { path: from as string, to: to as string, ...options, key: ['rename', from, to, options.options.expectedVersion] };
  });
}

export function patchCall(patch: unknown, given: unknown): PatchCall | Refusal {
  return copied(() => {
    if (typeof patch !== 'string') return invalidArgument.notAString('patch', 'a unified diff, search/replace blocks or an apply_patch envelope', patch);
    if (patch.trim() === '') return invalidArgument.patchEmpty();
    const raw = optionsObject(given);
    const explanation = option(raw, 'explanation');
    const signal = option(raw, 'signal');
    const invalid = validateMutationOptions({ explanation });
    if (invalid) return invalid;
    return { path: '(patch)', patch, options: explanation === undefined ? {} : { explanation: explanation as string }, signal, key: ['patch', patch] };
  });
}

const isName = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= 1000;

const TARGET_FIELDS = ['changeId', 'sessionId', 'path'] as const;

/** The names of an object's own enumerable fields, listed once. */
function fieldNames(source: object, where: string): string[] {
  try {
    return Object.keys(source);
  } catch {
    throw new Unreadable(where); // a Proxy whose ownKeys trap throws
  }
}

/**
 * `{ changeId }`, `{ sessionId }` or `{ sessionId, path }`, each a non-empty string, copied; `resolve` makes the
 * path absolute. Any other field, even one that is undefined, is refused: a `{ sessionId, file }` must never
 * revert the whole session.
 */
function revertTarget(target: unknown, resolve: (path: string) => string): RevertTarget | Refusal {
  if (typeof target !== 'object' || target === null) return invalidRevert.target(target);
  const names = fieldNames(target, 'target');
  const unknown = names.find((name) => !(TARGET_FIELDS as readonly string[]).includes(name));
  if (unknown !== undefined) return invalidRevert.targetField(unknown);
  const copy: { changeId?: string; sessionId?: string; path?: string } = {};
  for (const name of TARGET_FIELDS) {
    const value = field(target, name, `target.${name}`);
    if (value === undefined && !names.includes(name)) continue;
    const valid = name === 'path' ? typeof value === 'string' && value !== '' : isName(value);
    if (!valid) return invalidRevert.targetFieldType(name, value);
    copy[name] = value as string;
  }
  const { changeId, sessionId, path } = copy;
  if (changeId !== undefined && sessionId === undefined && path === undefined) return { changeId };
  if (sessionId !== undefined && changeId === undefined) return path === undefined ? { sessionId } : { sessionId, path: resolve(path) };
  return invalidRevert.target(target);
}

/** `resolve`: a target's path made absolute (relative to the first root, as `Guard.history`'s filter does). */
export function revertCall(target: unknown, given: unknown, resolve: (path: string) => string): RevertCall | Refusal {
  return copied(() => {
    const copy = revertTarget(target, resolve);
    if (isRefusal(copy)) return copy;
    const raw = optionsObject(given);
    const explanation = option(raw, 'explanation');
    if (explanation !== undefined && typeof explanation !== 'string') return invalidArgument.explanation();
    const session: RevertCall['session'] = {};
    for (const [name, key] of [
      ['sessionId', 'id'],
      ['surface', 'surface'],
      ['label', 'label'],
    ] as const) {
      const value = option(raw, name);
      if (value !== undefined && !isName(value)) return invalidRevert.option(name, value);
      if (value !== undefined) session[key] = value;
    }
    return {
      path: `(revert of ${revertWhat(copy)})`,
      key: ['revert', copy],
      signal: option(raw, 'signal'),
      target: copy,
      ...(explanation !== undefined ? { explanation: explanation as string } : {}),
      session,
    };
  });
}
