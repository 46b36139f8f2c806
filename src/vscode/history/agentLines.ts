/**
 * Lines added and removed per agent, from the change history: the statistics' "Lines changed per agent" table.
 * An agent is a label on a surface ("Claude Code 2.0.14" over MCP), summed over all its sessions still on
 * record, so the numbers cover the history's whole span (its budget's days), not only this window. Tool calls
 * without a chat session are one row, as in the statistics' table of sessions. Beside the lines, the problems
 * its changes introduced and resolved, from their marks (`problemMarks.ts`). Pure.
 */
import type { ChangeRecord } from '../../core/index';
import { isStandaloneSession } from '../sessions/sessionKeys';
import { STANDALONE_CALLS_LABEL } from '../sessions/sessionLabels';
import { markdownText } from '../util/markdownText';
import { addCounts, type LineCounts, recordCounts } from './changeCounts';
import { surfaceShort, timeText } from './historyWords';
import type { ChangeProblems } from './problemMarks';

export interface AgentLines {
  label: string;
  surface: string;
  changes: number;
  counts: LineCounts;
  /** Problems its changes introduced (errors and warnings) and resolved, as the problems section counted them. */
  problems: { introduced: number; resolved: number };
  /** Time of its newest change. */
  latest: number;
}

/** A change record's mark, if it has one. */
export type MarkOf = (recordId: string) => ChangeProblems | undefined;

/** One row per agent, most lines changed first. */
export function linesPerAgent(records: readonly ChangeRecord[], markOf: MarkOf = () => undefined): AgentLines[] {
  const rows = new Map<string, AgentLines>();
  for (const record of records) {
    const label = isStandaloneSession(record.sessionId) ? STANDALONE_CALLS_LABEL : record.label;
    const key = `${record.surface}\n${label}`;
    let row = rows.get(key);
    if (!row) {
      rows.set(
        key,
        (row = { label, surface: record.surface, changes: 0, counts: { added: 0, removed: 0 }, problems: { introduced: 0, resolved: 0 }, latest: record.time }),
      );
    }
    row.changes++;
    const mark = markOf(record.id);
    if (mark) {
      row.problems.introduced += mark.errors + mark.warnings;
      row.problems.resolved += mark.resolved;
    }
    row.latest = Math.max(row.latest, record.time);
    addCounts(row.counts, recordCounts(record));
  }
  const size = (row: AgentLines): number => row.counts.added + row.counts.removed;
  return [...rows.values()].sort((a, b) => size(b) - size(a) || b.latest - a.latest);
}

/**
 * Lines added and removed per agent, from the change history (all its sessions still on record, this window's
 * and earlier ones), and the problems they introduced and resolved, as a section of the statistics; nothing when
 * the history is empty.
 */
export function agentLinesMarkdown(records: readonly ChangeRecord[], now: number, markOf: MarkOf = () => undefined): string[] {
  const rows = linesPerAgent(records, markOf);
  if (rows.length === 0) return [];
  const lines = [
    '',
    '## Lines changed per agent',
    '',
    'From the change history (the Agent Changes view): every change still on record, in this window and before.',
  ];
  lines.push(
    'Problems are what the problems section counted after each change (errors, and warnings when readgate.problems.afterChange includes them); a change made while it was off counts none.',
    '',
  );
  lines.push(
    '| agent | from | changes | lines added | lines removed | problems introduced | problems resolved | last change |',
    '|---|---|---|---|---|---|---|---|',
  );
  for (const row of rows) {
    const partial = row.counts.partial ? ' (at least)' : '';
    const problems = `${row.problems.introduced} | ${row.problems.resolved}`;
    lines.push(
      `| ${markdownText(row.label)} | ${markdownText(surfaceShort(row.surface))} | ${row.changes} | ${row.counts.added}${partial} | ${row.counts.removed}${partial} | ${problems} | ${timeText(row.latest, now)} |`,
    );
  }
  return lines;
}
