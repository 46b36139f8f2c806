/**
 * Input validation for the language model tools. VS Code does not validate tool input against the manifest's
 * schema, and other extensions call tools through `lm.invokeTool` with anything, so every field is checked
 * here and a mismatch is an INVALID_INPUT refusal naming the field. The shapes mirror the manifest.
 */
import type { MultiEditChange, Refusal } from '../types';
import { describeValue } from '../operations/inputValidation';

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

type Checked<T> = { ok: true; value: T } | Refusal;

const invalid = (message: string): Refusal => ({ ok: false, code: 'INVALID_INPUT', message });

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkFields(input: Record<string, unknown>, fields: Record<string, 'string' | 'number' | 'boolean' | 'string?' | 'number?' | 'boolean?'>, where = 'input'): Refusal | undefined {
  for (const [name, kind] of Object.entries(fields)) {
    const optional = kind.endsWith('?');
    const type = kind.replace('?', '');
    const value = input[name];
    if (value === undefined && optional) continue;
    // describeValue: a caller's value is named in a few characters, however large it is.
    if (typeof value !== type) return invalid(`${where}.${name} must be a ${type}${optional ? ' when given' : ''}; got ${describeValue(value)}.`);
  }
  return undefined;
}

export function checkReadInput(input: unknown): Checked<ReadInput> {
  if (!isObject(input)) return invalid('input must be an object { filePath, offset?, limit?, force? }.');
  const wrong = checkFields(input, { filePath: 'string', offset: 'number?', limit: 'number?', force: 'boolean?' });
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as ReadInput };
}

export function checkEditInput(input: unknown): Checked<EditInput> {
  if (!isObject(input)) return invalid('input must be an object { filePath, oldString, newString, replaceAll?, expectedVersion?, explanation? }.');
  const wrong = checkFields(input, { filePath: 'string', oldString: 'string', newString: 'string', replaceAll: 'boolean?', expectedVersion: 'string?', explanation: 'string?' });
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as EditInput };
}

const MULTI_EDIT_SHAPE = '{ filePath, oldString, newString, replaceAll?, expectedVersion? }';

export function checkMultiEditInput(input: unknown): Checked<MultiEditInput> {
  if (!isObject(input)) return invalid(`input must be an object { edits: [${MULTI_EDIT_SHAPE}], explanation? }.`);
  if (!Array.isArray(input.edits) || input.edits.length === 0) return invalid(`input.edits must be a non-empty list of ${MULTI_EDIT_SHAPE}.`);
  for (let i = 0; i < input.edits.length; i++) {
    const edit = input.edits[i];
    if (!isObject(edit)) return invalid(`input.edits[${i}] must be an object ${MULTI_EDIT_SHAPE}.`);
    const wrong = checkFields(edit, { filePath: 'string', oldString: 'string', newString: 'string', replaceAll: 'boolean?', expectedVersion: 'string?' }, `input.edits[${i}]`);
    if (wrong) return wrong;
  }
  const wrong = checkFields(input, { explanation: 'string?' });
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as MultiEditInput };
}

export function checkWriteInput(input: unknown): Checked<WriteInput> {
  if (!isObject(input)) return invalid('input must be an object { filePath, content, expectedVersion?, explanation? }.');
  const wrong = checkFields(input, { filePath: 'string', content: 'string', expectedVersion: 'string?', explanation: 'string?' });
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as WriteInput };
}

/**
 * Groups a multiEdit's flat list into per-file edit lists, keeping order. A file's expectedVersion is the one
 * its edits name; two different ones for one file are INVALID_INPUT (a file is at one version).
 */
export function groupByFile(edits: MultiEditInput['edits']): MultiEditChange[] | Refusal {
  const groups: (MultiEditChange & { versionFrom?: number })[] = [];
  for (const [index, { filePath, oldString, newString, replaceAll, expectedVersion }] of edits.entries()) {
    let group = groups.find((g) => g.path === filePath);
    if (!group) groups.push((group = { path: filePath, edits: [] }));
    if (expectedVersion !== undefined) {
      if (group.expectedVersion !== undefined && group.expectedVersion !== expectedVersion) {
        return invalid(`input.edits[${index}].expectedVersion (${expectedVersion}) differs from input.edits[${group.versionFrom}].expectedVersion (${group.expectedVersion}) for the same file; a file is at one version. Pass the version your read of it showed.`);
      }
      group.expectedVersion = expectedVersion;
      group.versionFrom ??= index;
    }
    group.edits.push({ oldString, newString, ...(replaceAll !== undefined ? { replaceAll } : {}) });
  }
  return groups.map(({ versionFrom: _, ...group }) => group);
}
