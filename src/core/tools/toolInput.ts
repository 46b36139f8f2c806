/**
 * Input validation for the language model tools. VS Code does not validate tool input against the manifest's
 * schema, and other extensions call tools through `lm.invokeTool` with anything, so every field is checked
 * here and a mismatch (a wrong type, a missing field, a field the tool does not take) is an INVALID_INPUT refusal
 * naming the field. The shapes mirror the manifest (`TOOL_INPUTS`).
 */
import type { Edit, MultiEditChange, Refusal } from '../types';
import { describeValue } from '../refusals/invalidInput';
import { TOOL_NAMES } from './toolNames';
import { invalidToolInput } from '../refusals/invalidInput';

export interface ReadInput {
  filePath: string;
  offset?: number;
  limit?: number;
  force?: boolean;
}

export interface EditInput {
  filePath: string;
  oldString: string;
  newString: string;
  replaceAll?: boolean;
  /** The version a read showed; required in effect when the call has no chat session. */
  expectedVersion?: string;
  explanation?: string;
}

export interface MultiEditInput {
  /** `expectedVersion` is per file: edits of one file name the same version (or only one of them does). */
  edits: { filePath: string; oldString: string; newString: string; replaceAll?: boolean; expectedVersion?: string }[];
  explanation?: string;
}

export interface WriteInput {
  filePath: string;
  content: string;
  expectedVersion?: string;
  explanation?: string;
}

export interface ApplyPatchInput {
  /** A unified diff, search/replace blocks or an apply_patch envelope. */
  patch: string;
  explanation?: string;
}

type Checked<T> = { ok: true; value: T } | Refusal;

/** A field's JSON type; `?` marks an optional one; `list` is checked by its tool's own check. */
type FieldKind = 'string' | 'number' | 'boolean' | 'string?' | 'number?' | 'boolean?' | 'list';

interface InputShape {
  /** Where the manifest declares it: the tool's name, or `<tool>.<field>[]` for the objects of a list. */
  where: string;
  /** How a message names its owner. */
  what: string;
  fields: Record<string, FieldKind>;
}

/**
 * Every object a tool takes, with exactly its fields: the manifest's `inputSchema`s declare the same ones with
 * `additionalProperties: false` (a unit test holds the two together). A field not listed is refused, so a
 * misspelled optional field (`replace_all`) is not dropped without a word.
 */
export const TOOL_INPUTS = {
  read: { where: TOOL_NAMES.read, what: TOOL_NAMES.read, fields: { filePath: 'string', offset: 'number?', limit: 'number?', force: 'boolean?' } },
  edit: {
    where: TOOL_NAMES.edit,
    what: TOOL_NAMES.edit,
    fields: { filePath: 'string', oldString: 'string', newString: 'string', replaceAll: 'boolean?', expectedVersion: 'string?', explanation: 'string?' },
  },
  multiEdit: { where: TOOL_NAMES.multiEdit, what: TOOL_NAMES.multiEdit, fields: { edits: 'list', explanation: 'string?' } },
  multiEditItem: {
    where: `${TOOL_NAMES.multiEdit}.edits[]`,
    what: `an edit in ${TOOL_NAMES.multiEdit}`,
    fields: { filePath: 'string', oldString: 'string', newString: 'string', replaceAll: 'boolean?', expectedVersion: 'string?' },
  },
  write: {
    where: TOOL_NAMES.write,
    what: TOOL_NAMES.write,
    fields: { filePath: 'string', content: 'string', expectedVersion: 'string?', explanation: 'string?' },
  },
  applyPatch: { where: TOOL_NAMES.applyPatch, what: TOOL_NAMES.applyPatch, fields: { patch: 'string', explanation: 'string?' } },
} as const satisfies Record<string, InputShape>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `input.name`, or `input["a name"]` when the name is no short identifier (a caller's key may be 1 MiB long). */
function fieldPath(at: string, name: string): string {
  return /^[A-Za-z_$][\w$]{0,39}$/.test(name) ? `${at}.${name}` : `${at}[${describeValue(name)}]`;
}

function checkFields(input: Record<string, unknown>, shape: InputShape, at = 'input'): Refusal | undefined {
  for (const name of Object.keys(input)) {
    if (Object.hasOwn(shape.fields, name) || input[name] === undefined) continue;
    const inputs = Object.entries(shape.fields)
      .map(([field, kind]) => `${field}${kind.endsWith('?') ? '?' : ''}`)
      .join(', ');
    return invalidToolInput.notAnInput(fieldPath(at, name), shape.what, inputs);
  }
  for (const [name, kind] of Object.entries(shape.fields)) {
    if (kind === 'list') continue;
    const optional = kind.endsWith('?');
    const type = kind.replace('?', '');
    const value = input[name];
    if (value === undefined && optional) continue;
    // describeValue: a caller's value is named in a few characters, however large it is.
    if (typeof value !== type) return invalidToolInput.fieldType(`${at}.${name}`, type, optional, value);
  }
  return undefined;
}

export function checkReadInput(input: unknown): Checked<ReadInput> {
  if (!isObject(input)) return invalidToolInput.shape('input', 'an object { filePath, offset?, limit?, force? }');
  const wrong = checkFields(input, TOOL_INPUTS.read);
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as ReadInput };
}

export function checkEditInput(input: unknown): Checked<EditInput> {
  if (!isObject(input)) return invalidToolInput.shape('input', 'an object { filePath, oldString, newString, replaceAll?, expectedVersion?, explanation? }');
  const wrong = checkFields(input, TOOL_INPUTS.edit);
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as EditInput };
}

const MULTI_EDIT_SHAPE = '{ filePath, oldString, newString, replaceAll?, expectedVersion? }';

export function checkMultiEditInput(input: unknown): Checked<MultiEditInput> {
  if (!isObject(input)) return invalidToolInput.shape('input', `an object { edits: [${MULTI_EDIT_SHAPE}], explanation? }`);
  const wrong = checkFields(input, TOOL_INPUTS.multiEdit);
  if (wrong) return wrong;
  if (!Array.isArray(input.edits) || input.edits.length === 0) return invalidToolInput.shape('input.edits', `a non-empty list of ${MULTI_EDIT_SHAPE}`);
  for (let i = 0; i < input.edits.length; i++) {
    const edit = input.edits[i];
    if (!isObject(edit)) return invalidToolInput.shape(`input.edits[${i}]`, `an object ${MULTI_EDIT_SHAPE}`);
    const wrongEdit = checkFields(edit, TOOL_INPUTS.multiEditItem, `input.edits[${i}]`);
    if (wrongEdit) return wrongEdit;
  }
  return { ok: true, value: input as unknown as MultiEditInput };
}

export function checkWriteInput(input: unknown): Checked<WriteInput> {
  if (!isObject(input)) return invalidToolInput.shape('input', 'an object { filePath, content, expectedVersion?, explanation? }');
  const wrong = checkFields(input, TOOL_INPUTS.write);
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as WriteInput };
}

export function checkApplyPatchInput(input: unknown): Checked<ApplyPatchInput> {
  if (!isObject(input)) return invalidToolInput.shape('input', 'an object { patch, explanation? }');
  const wrong = checkFields(input, TOOL_INPUTS.applyPatch);
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as ApplyPatchInput };
}

/**
 * Groups a multiEdit's flat list into per-file edit lists, keeping order. A file's expectedVersion is the one
 * its edits name; two different ones for one file are INVALID_INPUT (a file is at one version).
 */
export function groupByFile(edits: MultiEditInput['edits']): MultiEditChange[] | Refusal {
  const groups: (MultiEditChange & { edits: Edit[]; versionFrom?: number })[] = [];
  for (const [index, { filePath, oldString, newString, replaceAll, expectedVersion }] of edits.entries()) {
    let group = groups.find((g) => g.path === filePath);
    if (!group) groups.push((group = { path: filePath, edits: [] }));
    if (expectedVersion !== undefined) {
      if (group.expectedVersion !== undefined && group.expectedVersion !== expectedVersion) {
        return invalidToolInput.versions(index, expectedVersion, group.versionFrom as number, group.expectedVersion);
      }
      group.expectedVersion = expectedVersion;
      group.versionFrom ??= index;
    }
    group.edits.push({ oldString, newString, ...(replaceAll !== undefined ? { replaceAll } : {}) });
  }
  return groups.map(({ versionFrom: _, ...group }) => group);
}
