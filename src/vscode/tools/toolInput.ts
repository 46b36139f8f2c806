/**
 * Input validation for the language model tools. VS Code does not validate tool input against the manifest's
 * schema, and other extensions call tools through `lm.invokeTool` with anything, so every field is checked
 * here and a mismatch is an INVALID_INPUT refusal naming the field. The shapes mirror the manifest.
 */
import type { Edit, Refusal } from '../../core/index';

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
  explanation?: string;
}

export interface MultiEditInput {
  edits: { filePath: string; oldString: string; newString: string; replaceAll?: boolean }[];
  explanation?: string;
}

export interface WriteInput {
  filePath: string;
  content: string;
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
    if (typeof value !== type) return invalid(`${where}.${name} must be a ${type}${optional ? ' when given' : ''}; got ${value === undefined ? 'nothing' : JSON.stringify(value)}.`);
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
  if (!isObject(input)) return invalid('input must be an object { filePath, oldString, newString, replaceAll?, explanation? }.');
  const wrong = checkFields(input, { filePath: 'string', oldString: 'string', newString: 'string', replaceAll: 'boolean?', explanation: 'string?' });
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as EditInput };
}

export function checkMultiEditInput(input: unknown): Checked<MultiEditInput> {
  if (!isObject(input)) return invalid('input must be an object { edits: [{ filePath, oldString, newString, replaceAll? }], explanation? }.');
  if (!Array.isArray(input.edits) || input.edits.length === 0) return invalid('input.edits must be a non-empty list of { filePath, oldString, newString, replaceAll? }.');
  for (let i = 0; i < input.edits.length; i++) {
    const edit = input.edits[i];
    if (!isObject(edit)) return invalid(`input.edits[${i}] must be an object { filePath, oldString, newString, replaceAll? }.`);
    const wrong = checkFields(edit, { filePath: 'string', oldString: 'string', newString: 'string', replaceAll: 'boolean?' }, `input.edits[${i}]`);
    if (wrong) return wrong;
  }
  const wrong = checkFields(input, { explanation: 'string?' });
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as MultiEditInput };
}

export function checkWriteInput(input: unknown): Checked<WriteInput> {
  if (!isObject(input)) return invalid('input must be an object { filePath, content, explanation? }.');
  const wrong = checkFields(input, { filePath: 'string', content: 'string', explanation: 'string?' });
  if (wrong) return wrong;
  return { ok: true, value: input as unknown as WriteInput };
}

/** Groups a multiEdit's flat list into per-file edit lists, keeping order. */
export function groupByFile(edits: MultiEditInput['edits']): { path: string; edits: Edit[] }[] {
  const groups: { path: string; edits: Edit[] }[] = [];
  for (const { filePath, oldString, newString, replaceAll } of edits) {
    let group = groups.find((g) => g.path === filePath);
    if (!group) groups.push((group = { path: filePath, edits: [] }));
    group.edits.push({ oldString, newString, ...(replaceAll !== undefined ? { replaceAll } : {}) });
  }
  return groups;
}
