/** The words of the status bar's reminder of changes waiting for review (pure). */

/** An agent's change waiting for review, as the reminder names it. */
export interface WaitingChange {
  who: string;
  files: string[];
}

/** The reminder's text and tooltip (pure): how many changes wait, and who wants to change what. */
export function reviewReminder(waiting: readonly WaitingChange[]): { text: string; tooltip: string } | undefined {
  if (waiting.length === 0) return undefined;
  const count = waiting.length === 1 ? '1 change' : `${waiting.length} changes`;
  const lines = waiting.slice(0, 5).map((change) => `${change.who} wants to change ${change.files.join(', ')}`);
  if (waiting.length > 5) lines.push(`… and ${waiting.length - 5} more`);
  return { text: `$(git-compare) ${count} to review`, tooltip: `${lines.join('\n')}\n\nClick to review in the ReadGate panel.` };
}
