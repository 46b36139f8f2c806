/**
 * What the history commands act on when run from the Agent Changes view: the change, session or file of the
 * item they were invoked on. Pure over the view's nodes (which the view passes as command arguments); anything
 * else (a palette run, a stale argument) gives undefined and the command says where to run it.
 */
import type { ChangedFile, ChangeRecord } from '../../core/index';
import type { AgentChangesNode } from './agentChangesView';

const isNode = (value: unknown): value is AgentChangesNode =>
  typeof value === 'object' && value !== null && ['session', 'change', 'file'].includes((value as { kind?: unknown }).kind as string);

/** The change of a change or file item. */
export function changeOfNode(value: unknown): ChangeRecord | undefined {
  return isNode(value) && value.kind !== 'session' ? value.record : undefined;
}

/**
 * The session of any item: its id and label (the label of its newest change on record). None for an item that
 * gathers sessions of one change each (its changes have theirs).
 */
export function sessionOfNode(value: unknown): { sessionId: string; label: string } | undefined {
  if (!isNode(value)) return undefined;
  if (value.kind === 'session') return value.group.collection ? undefined : { sessionId: value.group.sessionId, label: value.group.label };
  return { sessionId: value.record.sessionId, label: value.record.label };
}

/** The file of a file item, with its change. */
export function fileOfNode(value: unknown): { record: ChangeRecord; file: ChangedFile } | undefined {
  return isNode(value) && value.kind === 'file' ? { record: value.record, file: value.file } : undefined;
}
