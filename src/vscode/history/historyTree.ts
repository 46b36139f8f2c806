/**
 * The Agent Changes view as data: the change records grouped by session (sessions → changes → files, newest
 * first), and what each item says (label, description, tooltip lines, context value). Pure: records and the
 * time in, plain data out; `agentChangesView.ts` only turns it into tree items.
 *
 * A session is named by its newest record's label (what its owner called it last). Sessions of one call (tool
 * calls without a chat session) and the user's reverts, each a session of its own, are gathered into one item
 * each ("Tool calls without a chat session", "Your reverts"), as the statistics sum up the first: a pile of
 * one-change sessions says nothing. A change whose revert is in effect says so ("reverted", `revertMarks.ts`),
 * and a revert names what it reverted.
 */
import type { ChangedFile, ChangeRecord } from '../../core/index';
import { addCounts, countsText, fileCounts, type LineCounts, recordCounts } from './changeCounts';
import { isStandaloneSession, REVERT_PREFIX } from '../sessions/sessionKeys';
import { STANDALONE_CALLS_LABEL } from '../sessions/sessionLabels';
import { approvedByText, baseName, changeTitle, fileKindText, surfaceShort, surfaceText, timeText } from './historyWords';
import { type ChangeProblems, problemsMarkText, problemsTooltip } from './problemMarks';
import type { RevertMark } from './revertMarks';

/** Sessions gathered into one item: its key, label and surface; undefined for a session shown on its own. */
function collectionOf(sessionId: string): { key: string; label: string; surface: string } | undefined {
  if (isStandaloneSession(sessionId)) return { key: 'collection:tool-calls', label: STANDALONE_CALLS_LABEL, surface: 'tool' };
  if (sessionId.startsWith(REVERT_PREFIX)) return { key: 'collection:reverts', label: 'Your reverts', surface: 'palette' };
  return undefined;
}

export interface SessionGroup {
  /** The session's id, or for a collection of sessions its key (`collection:…`, no session has it). */
  sessionId: string;
  /** Several sessions of one call or one revert each, gathered: no session revert applies to it. */
  collection?: true;
  label: string;
  surface: string;
  /** Time of its newest change. */
  latest: number;
  counts: LineCounts;
  /** Newest first. */
  changes: ChangeRecord[];
}

export const CONTEXT_SESSION = 'readgate.historySession';
export const CONTEXT_COLLECTION = 'readgate.historyCollection';
export const CONTEXT_CHANGE = 'readgate.historyChange';
export const CONTEXT_FILE = 'readgate.historyFile';

/** What one tree item says. */
export interface ItemText {
  label: string;
  description: string;
  /** Markdown-free lines; the view escapes them. */
  tooltip: string[];
  contextValue: string;
}

const newestFirst = (a: ChangeRecord, b: ChangeRecord): number => b.time - a.time || (a.id < b.id ? 1 : -1);

export function groupBySession(records: readonly ChangeRecord[]): SessionGroup[] {
  const groups = new Map<string, SessionGroup>();
  for (const record of [...records].sort(newestFirst)) {
    const collection = collectionOf(record.sessionId);
    const key = collection?.key ?? record.sessionId;
    let group = groups.get(key);
    if (!group) {
      group = {
        sessionId: key,
        label: collection?.label ?? record.label,
        surface: collection?.surface ?? record.surface,
        latest: record.time,
        counts: { added: 0, removed: 0 },
        changes: [],
        ...(collection ? { collection: true as const } : {}),
      };
      groups.set(key, group);
    }
    group.changes.push(record);
    addCounts(group.counts, recordCounts(record));
  }
  return [...groups.values()].sort((a, b) => b.latest - a.latest);
}

const changesText = (n: number): string => `${n} change${n === 1 ? '' : 's'}`;

export function sessionText(group: SessionGroup, now: number): ItemText {
  return {
    label: group.label,
    description: `${surfaceShort(group.surface)} · ${changesText(group.changes.length)} · ${countsText(group.counts)} · ${timeText(group.latest, now)}`,
    tooltip: [
      group.label,
      `From ${surfaceText(group.surface)}`,
      group.collection ? 'Each change was a session of its own.' : `Session id: ${group.sessionId}`,
      `${changesText(group.changes.length)}, lines ${countsText(group.counts)}`,
    ],
    contextValue: group.collection ? CONTEXT_COLLECTION : CONTEXT_SESSION,
  };
}

/** What a change's item says beyond the record itself. */
export interface ChangeContext {
  /** The change's revert in effect now (`revertMarks.ts`). */
  reverted?: RevertMark;
  /** A revert that is no longer in effect (`RevertMarks.undone`). */
  undone?: boolean;
  /** The change a revert reverted, when it is on record. */
  revertOf?: ChangeRecord;
  /** What the problems section said it introduced (`problemMarks.ts`). */
  problems?: ChangeProblems;
  /** The workspace-relative name of a path (default: its last segment). */
  display?: (path: string) => string;
}

/** The tag after the problems: whether the change is reverted now, or the revert undone. */
function revertTag(context: ChangeContext): string {
  if (context.reverted) return context.reverted.partly ? 'partly reverted' : 'reverted';
  return context.undone ? 'undone' : '';
}

function revertTooltip(record: ChangeRecord, now: number, context: ChangeContext): string[] {
  const lines: string[] = [];
  const reverted = context.revertOf;
  if (reverted) lines.push(`Reverts “${changeTitle(reverted)}” by ${reverted.label} (${timeText(reverted.time, now)})`);
  else if (record.revertOf !== undefined) lines.push(`A revert of change ${record.revertOf}`);
  if (record.partial) lines.push('Reverted in part: the lines it would restore that changed since (or that you rejected) were kept as they were.');
  if (context.undone) lines.push('No longer in effect: its files hold again what they held before it (undone in an editor, or never saved).');
  const by = context.reverted?.by;
  if (by) lines.push(`${context.reverted?.partly ? 'Partly reverted' : 'Reverted'} at ${new Date(by.time).toLocaleString()}`);
  return lines;
}

/**
 * A change's item. The side bar is narrow, so the label is the change's title and the description leads with
 * what matters most: new problems, then whether it is reverted (or, for a revert, undone), then its one file
 * (when the title does not name it), its time and last its lines; the rest is in the tooltip.
 */
export function changeText(record: ChangeRecord, now: number, context: ChangeContext = {}): ItemText {
  const display = context.display ?? baseName;
  const single = record.files.length === 1 ? record.files[0] : undefined;
  const file = single && record.explanation ? baseName(single.path) : '';
  const parts = [problemsMarkText(context.problems), revertTag(context), file, timeText(record.time, now), countsText(recordCounts(record))].filter(Boolean);
  const tooltip = [
    changeTitle(record),
    ...problemsTooltip(context.problems),
    `${new Date(record.time).toLocaleString()} · ${record.tool} from ${surfaceText(record.surface)} (${record.label})`,
    approvedByText(record.approvedBy),
  ];
  if (record.explanation) tooltip.push(`Reason given: ${record.explanation}`);
  tooltip.push(...revertTooltip(record, now, context));
  if (single) tooltip.push(`${display(single.path)}: click to compare it before and after this change.`);
  return { label: changeTitle(record), description: parts.join(' · '), tooltip, contextValue: CONTEXT_CHANGE };
}

/** `display` gives the workspace-relative name of a path. */
export function fileText(file: ChangedFile, display: (path: string) => string): ItemText {
  const shown = display(file.path);
  const folder = shown.includes('/') ? shown.slice(0, shown.lastIndexOf('/')) : '';
  const kind = fileKindText(file);
  const description = [folder, kind === 'edited' ? '' : kind, countsText(fileCounts(file))].filter(Boolean).join(' · ');
  const tooltip = [
    shown,
    file.kind === 'rename' ? `Moved from ${display(file.from ?? '')}` : `The file was ${kind}`,
    `Lines ${countsText(fileCounts(file))}`,
    'Click to compare the file before and after this change.',
  ];
  return { label: baseName(file.path), description, tooltip, contextValue: CONTEXT_FILE };
}
