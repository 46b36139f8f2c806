/**
 * Lines added and removed by a recorded change ("+12 −3"), counted from the hunks the record keeps (the core's
 * `Hunk`: each with its line changes, `oldFrom`/`oldTo` and `newFrom`/`newTo`, end exclusive). Pure.
 *
 * A record's hunks are `unknown[]` (whatever the recording surface gave), so every hunk is checked: one without
 * well-formed line changes makes the file's count unknown rather than wrong. A file with no hunks changed no
 * line (a move without an edit).
 */
import type { ChangedFile, ChangeRecord } from '../../core/index';

export interface LineCounts {
  added: number;
  removed: number;
  /** Some hunk could not be read: the counts are a lower bound. */
  partial?: true;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

function changesOf(hunk: unknown): { oldFrom: number; oldTo: number; newFrom: number; newTo: number }[] | undefined {
  const changes = (hunk as { changes?: unknown } | null)?.changes;
  if (!Array.isArray(changes)) return undefined;
  const valid = changes.every(
    (c) => c && isCount(c.oldFrom) && isCount(c.oldTo) && isCount(c.newFrom) && isCount(c.newTo) && c.oldTo >= c.oldFrom && c.newTo >= c.newFrom,
  );
  return valid ? changes : undefined;
}

export function fileCounts(file: Pick<ChangedFile, 'hunks'>): LineCounts {
  const counts: LineCounts = { added: 0, removed: 0 };
  for (const hunk of Array.isArray(file.hunks) ? file.hunks : []) {
    const changes = changesOf(hunk);
    if (!changes) {
      counts.partial = true;
      continue;
    }
    for (const change of changes) {
      counts.added += change.newTo - change.newFrom;
      counts.removed += change.oldTo - change.oldFrom;
    }
  }
  return counts;
}

export function addCounts(total: LineCounts, counts: LineCounts): LineCounts {
  total.added += counts.added;
  total.removed += counts.removed;
  if (counts.partial) total.partial = true;
  return total;
}

export function recordCounts(record: Pick<ChangeRecord, 'files'>): LineCounts {
  return record.files.reduce((total, file) => addCounts(total, fileCounts(file)), { added: 0, removed: 0 } as LineCounts);
}

/** "+12 −3" (a true minus sign, as the review panel writes it); "at least +12 −3" when a hunk could not be read. */
export function countsText(counts: LineCounts): string {
  return `${counts.partial ? 'at least ' : ''}+${counts.added.toLocaleString('en-US')} −${counts.removed.toLocaleString('en-US')}`;
}
