/**
 * Lines added and removed per agent, from the change history: the statistics' "Lines changed per agent" table.
 * An agent is a label on a surface ("Claude Code 2.0.14" over MCP), summed over all its sessions still on
 * record, so the numbers cover the history's whole span (its budget's days), not only this window. Pure.
 */
import type { ChangeRecord } from '../../core/index';
import { addCounts, type LineCounts, recordCounts } from './changeCounts';

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
    const key = `${record.surface}\n${record.label}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { label: record.label, surface: record.surface, changes: 0, counts: { added: 0, removed: 0 }, latest: record.time }));
    row.changes++;
    row.latest = Math.max(row.latest, record.time);
    addCounts(row.counts, recordCounts(record));
  }
  const size = (row: AgentLines): number => row.counts.added + row.counts.removed;
  return [...rows.values()].sort((a, b) => size(b) - size(a) || b.latest - a.latest);
}
