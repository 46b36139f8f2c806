/**
 * Lines added and removed per agent, from the change history: the statistics' "Lines changed per agent" table.
 * An agent is a label on a surface ("Claude Code 2.0.14" over MCP), summed over all its sessions still on
 * record, so the numbers cover the history's whole span (its budget's days), not only this window. Tool calls
 * without a chat session are one row, as in the statistics' table of sessions. Pure.
 */
import type { ChangeRecord } from '../../core/index';
import { isStandaloneSession } from '../sessions/sessionKeys';
import { STANDALONE_CALLS_LABEL } from '../sessions/sessionLabels';
import { markdownText } from '../util/markdownText';
import { addCounts, type LineCounts, recordCounts } from './changeCounts';
import { surfaceShort, timeText } from './historyWords';

export interface AgentLines {
  label: string;
  surface: string;
  changes: number;
  counts: LineCounts;
  /** Time of its newest change. */
  latest: number;
}

/** One row per agent, most lines changed first. */
export function linesPerAgent(records: readonly ChangeRecord[]): AgentLines[] {
  const rows = new Map<string, AgentLines>();
  for (const record of records) {
    const label = isStandaloneSession(record.sessionId) ? STANDALONE_CALLS_LABEL : record.label;
    const key = `${record.surface}\n${label}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { label, surface: record.surface, changes: 0, counts: { added: 0, removed: 0 }, latest: record.time }));
    row.changes++;
    row.latest = Math.max(row.latest, record.time);
    addCounts(row.counts, recordCounts(record));
  }
  const size = (row: AgentLines): number => row.counts.added + row.counts.removed;
  return [...rows.values()].sort((a, b) => size(b) - size(a) || b.latest - a.latest);
}

/**
 * Lines added and removed per agent, from the change history (all its sessions still on record, this window's
 * and earlier ones), as a section of the statistics; nothing when the history is empty.
 */
export function agentLinesMarkdown(records: readonly ChangeRecord[], now: number): string[] {
  const rows = linesPerAgent(records);
  if (rows.length === 0) return [];
  const lines = ['', '## Lines changed per agent', '', 'From the change history (the Agent Changes view): every change still on record, in this window and before.', ''];
  lines.push('| agent | from | changes | lines added | lines removed | last change |', '|---|---|---|---|---|---|');
  for (const row of rows) {
    const partial = row.counts.partial ? ' (at least)' : '';
    lines.push(`| ${markdownText(row.label)} | ${markdownText(surfaceShort(row.surface))} | ${row.changes} | ${row.counts.added}${partial} | ${row.counts.removed}${partial} | ${timeText(row.latest, now)} |`);
  }
  return lines;
}
