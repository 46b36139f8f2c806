/**
 * The arguments of an own-tool call (`GuardSession.beforeOwnRead` … `afterOwnChange`), copied into plain, checked
 * data first: read once through a JSON copy (a getter that throws, a Proxy, a cycle make it INVALID_INPUT), the
 * caller's signal kept as read. What was checked is what runs.
 */
import { invalidArgument } from '../refusals/invalidInput';
import { isRefusal, type Refusal, refuse } from '../refusals/refusal';
import type { Edit, OwnChange, OwnChangeCall, OwnReadCall, ReadCut, ShownOutput, ShownRange } from '../types';

interface Copied {
  path: string;
  key: unknown[];
  signal: unknown;
}

export interface OwnReadArguments extends Copied {
  callId: string;
  cut: ReadCut;
}

export interface OwnChangeArguments extends Copied {
  call: Omit<OwnChangeCall, 'signal'>;
}

export interface CallIdArguments extends Copied {
  callId: string;
}

const MAX_CALL_ID = 300;

const bad = (what: string): Refusal => refuse('INVALID_INPUT', `${what}. Nothing was read or changed.`);

/** The call as plain data (`{ copy }`), or the refusal: what the caller passed is never confused with a result. */
function plain(value: unknown): { copy: Record<string, unknown> } | { refusal: Refusal } {
  try {
    const copy: unknown = JSON.parse(JSON.stringify(value ?? null));
    return typeof copy === 'object' && copy !== null && !Array.isArray(copy)
      ? { copy: copy as Record<string, unknown> }
      : { refusal: bad('The call must be an object') };
  } catch {
    return { refusal: invalidArgument.unreadable('the call') };
  }
}

function signalOf(value: unknown): unknown {
  try {
    return (value as { signal?: unknown } | null)?.signal;
  } catch {
    return undefined;
  }
}

const isText = (value: unknown, max = Infinity): value is string => typeof value === 'string' && value !== '' && value.length <= max;
const isLine = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

export function callIdArguments(callId: unknown): CallIdArguments | Refusal {
  if (!isText(callId, MAX_CALL_ID)) return bad('callId must be a non-empty string of at most 300 characters');
  return { path: '(own tool call)', key: [callId], signal: undefined, callId };
}

export function ownReadArguments(given: OwnReadCall): OwnReadArguments | Refusal {
  const copied = plain(given);
  if ('refusal' in copied) return copied.refusal;
  const call = copied.copy;
  const cut = call.cut as Record<string, unknown> | null | undefined;
  if (!isText(call.callId, MAX_CALL_ID)) return bad('callId must be a non-empty string of at most 300 characters');
  if (!isText(call.path)) return bad('path must be a non-empty string');
  if (typeof cut !== 'object' || cut === null || !isLine(cut.startLine)) return bad('cut must be an object with a startLine');
  for (const name of ['endLine', 'maxLineChars', 'maxChars'] as const) {
    if (cut[name] !== undefined && !isLine(cut[name])) return bad(`cut.${name} must be a number when given`);
  }
  const copiedCut: ReadCut = { startLine: cut.startLine };
  if (cut.endLine !== undefined) copiedCut.endLine = cut.endLine as number;
  if (cut.maxLineChars !== undefined) copiedCut.maxLineChars = cut.maxLineChars as number;
  if (cut.maxChars !== undefined) copiedCut.maxChars = cut.maxChars as number;
  if (cut.blankShownAsNote === true) copiedCut.blankShownAsNote = true;
  return { path: call.path, key: [call.path, copiedCut], signal: signalOf(given), callId: call.callId, cut: copiedCut };
}

function editsOf(value: unknown, where: string): Edit[] | Refusal {
  if (!Array.isArray(value) || value.length === 0) return bad(`${where} must be a non-empty list of { oldString, newString }`);
  const edits: Edit[] = [];
  for (const [i, edit] of value.entries()) {
    const { oldString, newString, replaceAll } = (edit ?? {}) as Record<string, unknown>;
    if (typeof oldString !== 'string' || typeof newString !== 'string') return bad(`${where}[${i}] must have oldString and newString strings`);
    edits.push({ oldString, newString, ...(replaceAll === true ? { replaceAll: true } : {}) });
  }
  return edits;
}

function fileOf(value: unknown, i: number): OwnChange | Refusal {
  const file = (value ?? {}) as Record<string, unknown>;
  if (!isText(file.path)) return bad(`change.files[${i}].path must be a non-empty string`);
  if (file.kind === 'loose') return { kind: 'loose', path: file.path };
  if (file.kind === 'write') {
    return typeof file.content === 'string' ? { kind: 'write', path: file.path, content: file.content } : bad(`change.files[${i}].content must be a string`);
  }
  if (file.kind !== 'edit') return bad(`change.files[${i}].kind must be "edit", "write" or "loose"`);
  const edits = editsOf(file.edits, `change.files[${i}].edits`);
  return isRefusal(edits) ? edits : { kind: 'edit', path: file.path, edits };
}

export function ownChangeArguments(given: OwnChangeCall): OwnChangeArguments | Refusal {
  const copied = plain(given);
  if ('refusal' in copied) return copied.refusal;
  const call = copied.copy;
  if (!isText(call.callId, MAX_CALL_ID)) return bad('callId must be a non-empty string of at most 300 characters');
  if (!isText(call.tool, 100)) return bad("tool must be the tool's name");
  const explanation = typeof call.explanation === 'string' && call.explanation !== '' ? { explanation: call.explanation } : {};
  const change = (call.change ?? {}) as Record<string, unknown>;
  const base = { callId: call.callId, tool: call.tool, ...explanation };
  if (typeof change.patch === 'string') {
    return { path: '(patch)', key: [change.patch], signal: signalOf(given), call: { ...base, change: { patch: change.patch } } };
  }
  if (!Array.isArray(change.files) || change.files.length === 0) return bad('change must be { files: [...] } (a non-empty list) or { patch }');
  const files: OwnChange[] = [];
  for (const [i, value] of change.files.entries()) {
    const file = fileOf(value, i);
    if (isRefusal(file)) return file;
    files.push(file);
  }
  return { path: files.length === 1 ? files[0].path : '(several files)', key: [files], signal: signalOf(given), call: { ...base, change: { files } } };
}

const finite = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/**
 * What a client reports a read showed (`afterOwnRead`), as plain values read once; undefined for anything else
 * (the read then counts as its cut says).
 */
export function reportedShown(given: unknown): ShownRange | ShownOutput | undefined {
  if (typeof given !== 'object' || given === null) return undefined;
  const shown = given as Record<string, unknown>;
  const output = shown.output;
  if (typeof output === 'string') {
    const form = shown.form === 'numbered' ? 'numbered' : shown.form === 'plain' ? 'plain' : undefined;
    if (!form) return undefined;
    const first = finite(shown.first);
    const last = finite(shown.last);
    return { output, form, ...(first !== undefined ? { first } : {}), ...(last !== undefined ? { last } : {}) };
  }
  const startLine = finite(shown.startLine);
  const lineCount = finite(shown.lineCount);
  return startLine !== undefined && lineCount !== undefined ? { startLine, lineCount } : undefined;
}
