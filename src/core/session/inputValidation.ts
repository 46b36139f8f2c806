/**
 * Shape checks for mutation arguments, with INVALID_INPUT messages that say exactly which field is wrong.
 * Callers from other extensions and models send anything; nothing is trusted to match the types.
 */
import { type Refusal, refuse } from '../refusal';
import type { Edit } from '../types';

export function validateEdits(edits: unknown, where = 'edits'): Refusal | undefined {
  if (!Array.isArray(edits) || edits.length === 0) return refuse('INVALID_INPUT', `${where} must be a non-empty list of { oldString, newString, replaceAll? }.`);
  for (let i = 0; i < edits.length; i++) {
    const edit = edits[i] as Partial<Edit> | null;
    if (typeof edit !== 'object' || edit === null) return refuse('INVALID_INPUT', `${where}[${i}] must be an object { oldString, newString, replaceAll? }.`);
    if (typeof edit.oldString !== 'string') return refuse('INVALID_INPUT', `${where}[${i}].oldString must be a string (the exact text to replace; "" creates a new file).`);
    if (typeof edit.newString !== 'string') return refuse('INVALID_INPUT', `${where}[${i}].newString must be a string (the replacement text).`);
    if (edit.replaceAll !== undefined && typeof edit.replaceAll !== 'boolean') return refuse('INVALID_INPUT', `${where}[${i}].replaceAll must be true or false.`);
    if (i > 0 && edit.oldString === '') return refuse('INVALID_INPUT', `${where}[${i}].oldString is empty: only the first edit may create a file (empty oldString); give the exact text to replace.`);
  }
  return undefined;
}

export function validateMutationOptions(options: { expectedVersion?: unknown; explanation?: unknown }): Refusal | undefined {
  if (options.expectedVersion !== undefined && (typeof options.expectedVersion !== 'string' || options.expectedVersion === '')) {
    return refuse('INVALID_INPUT', 'expectedVersion must be a version tag from a read or a mutation result.');
  }
  if (options.explanation !== undefined && typeof options.explanation !== 'string') return refuse('INVALID_INPUT', 'explanation must be a string.');
  return undefined;
}
