/**
 * REVERT_CONFLICT: a revert that would overwrite what was changed since, and was not told to take the merged parts;
 * nothing is written, and the message names each conflicting file and lines and the two ways on.
 */
import { formatRanges } from '../text/lineRanges';
import { displayPath } from '../path/displayPath';
import { type Refusal, refuse } from './refusal';

const WHY = {
  lines: 'changed since',
  changedSinceCreated: 'created by the change and changed since, so it is not deleted',
  pathTaken: 'another file is at this path now, so it is not brought back',
  missing: 'gone since',
  alreadyReverted: 'already put back by a later change',
};

/**
 * What the words need of a conflict (an `ApprovalConflict` is one). Its reasons are the keys above, so a reason
 * the revert plan adds fails to compile here until it has its words.
 */
export interface ConflictToDescribe {
  path: string;
  reason: keyof typeof WHY;
  ranges: readonly { start: number; end: number }[];
}

/** One line per conflict: the file, its lines now, and why. */
export function describeConflicts(conflicts: readonly ConflictToDescribe[]): string {
  return conflicts
    .map((conflict) => {
      const pairs = conflict.ranges.filter((range) => range.end >= range.start).flatMap((range) => [range.start, range.end]);
      const lines = pairs.length ? ` lines ${formatRanges(pairs)}` : '';
      return `${displayPath(conflict.path)}${lines}: ${WHY[conflict.reason]}`;
    })
    .join('; ');
}

export const revertConflict = {
  /** Approved, but without `takeMerged`: the merged parts are not written. `what`: "change <id>" or "session <id>". */
  notTaken(conflicts: string, what: string): Refusal {
    return refuse(
      'REVERT_CONFLICT',
      `The revert of ${what} conflicts with changes made since: ${conflicts}. Nothing was written. To revert every other part and keep those lines as they are now, approve the revert with takeMerged: true; or change those lines by hand and revert again.`,
    );
  },
  /** Every part conflicts: there is nothing the revert could write. */
  nothingToWrite(conflicts: string, what: string): Refusal {
    return refuse(
      'REVERT_CONFLICT',
      `Nothing of ${what} can be reverted: ${conflicts}. Nothing was written. Change the files by hand if a part should still be undone.`,
    );
  },
};
