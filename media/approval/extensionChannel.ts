/**
 * The page's only link to the extension: typed `post` of protocol messages, the persisted view state, and a
 * guard that turns whatever arrives on `window` `message` events into a protocol message or nothing. The page
 * renders only what passes the guard, so a malformed or foreign message cannot break the view half-way.
 * `acquireVsCodeApi` may be called once per load, so one channel is created at boot and passed around.
 */
import type { ConflictRangeView, ConflictView, DiffLine, FileView, FromWebview, HunkView, RequestView, ToWebview } from '../../src/vscode/approval/protocol';
import { readViewState, type ViewState } from './viewState';

export interface ExtensionChannel {
  post(message: FromWebview): void;
  loadState(): ViewState;
  saveState(state: ViewState): void;
}

export function connectToExtension(): ExtensionChannel {
  const api = acquireVsCodeApi<ViewState>();
  return {
    post: (message) => api.postMessage(message),
    loadState: () => readViewState(api.getState()),
    saveState: (state) => {
      api.setState(state);
    },
  };
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isInt = (value: unknown): value is number => Number.isInteger(value);
const isOptionalInt = (value: unknown): boolean => value === undefined || isInt(value);
const isOptionalBoolean = (value: unknown): boolean => value === undefined || typeof value === 'boolean';
const OPERATIONS: readonly unknown[] = ['edit', 'write', 'multiEdit', 'delete', 'rename'] satisfies RequestView['operation'][];
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isDiffLine(value: unknown): value is DiffLine {
  return isRecord(value) && (value.kind === 'context' || value.kind === 'removed' || value.kind === 'added') && isString(value.text) && isOptionalInt(value.oldLine) && isOptionalInt(value.newLine);
}

function isHunk(value: unknown): value is HunkView {
  return isRecord(value) && isInt(value.index) && isInt(value.oldStart) && isInt(value.oldLines) && isInt(value.newStart) && isInt(value.newLines) && Array.isArray(value.lines) && value.lines.every(isDiffLine);
}

/** A move names its destination and its short name; a file is never both deleted and moved. */
function isMove(value: Record<string, unknown>): boolean {
  if (value.movedTo === undefined) return value.movedToDisplay === undefined;
  return isString(value.movedTo) && isString(value.movedToDisplay) && value.deleted !== true;
}

function isFile(value: unknown): value is FileView {
  return (
    isRecord(value) &&
    isString(value.path) &&
    isString(value.displayPath) &&
    typeof value.created === 'boolean' &&
    isOptionalBoolean(value.deleted) &&
    isMove(value) &&
    isInt(value.totalOldLines) &&
    isInt(value.totalNewLines) &&
    Array.isArray(value.hunks) &&
    value.hunks.every(isHunk)
  );
}

const REASONS: readonly unknown[] = ['lines', 'changedSinceCreated', 'pathTaken', 'missing', 'alreadyReverted'] satisfies ConflictView['reason'][];
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

function isConflictRange(value: unknown): value is ConflictRangeView {
  return isRecord(value) && isInt(value.start) && isInt(value.end) && isString(value.where) && isStrings(value.now) && (value.wanted === undefined || isStrings(value.wanted));
}

function isConflict(value: unknown): value is ConflictView {
  return (
    isRecord(value) &&
    isString(value.path) &&
    isString(value.displayPath) &&
    REASONS.includes(value.reason) &&
    isString(value.summary) &&
    Array.isArray(value.ranges) &&
    value.ranges.every(isConflictRange)
  );
}

function isRequest(value: unknown): value is RequestView {
  return (
    isRecord(value) &&
    isString(value.id) &&
    isString(value.sessionLabel) &&
    OPERATIONS.includes(value.operation) &&
    (value.explanation === undefined || isString(value.explanation)) &&
    (value.notice === undefined || isString(value.notice)) &&
    isOptionalBoolean(value.oneCall) &&
    isOptionalBoolean(value.own) &&
    isOptionalBoolean(value.revert) &&
    (value.conflicts === undefined || (Array.isArray(value.conflicts) && value.conflicts.every(isConflict))) &&
    Array.isArray(value.files) &&
    value.files.every(isFile)
  );
}

export function parseToWebview(data: unknown): ToWebview | undefined {
  if (!isRecord(data)) return undefined;
  if (data.type === 'requests' && Array.isArray(data.requests) && data.requests.every(isRequest)) return { type: 'requests', requests: data.requests };
  if (data.type === 'focusRequest' && isString(data.id) && isOptionalBoolean(data.moveFocus)) return { type: 'focusRequest', id: data.id, ...(data.moveFocus === true ? { moveFocus: true } : {}) };
  return undefined;
}
