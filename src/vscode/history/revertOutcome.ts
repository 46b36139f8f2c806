/**
 * How a revert that did not happen is put to the user, by code: what happened and what to do next. The core's own
 * message (written for callers of the library: "approve with takeMerged", "list the changes with history()") is
 * one click away, under Show Details. Pure.
 */
const NEXT_STEPS: Partial<Record<string, string>> = {
  FILE_CHANGED_SINCE_READ:
    'a file changed while the revert waited for review, so nothing was written. Run the revert again: it is planned against the files as they are then.',
  REVERT_CONFLICT: 'every part of it conflicts with later changes, so nothing was written. Change those lines by hand if a part should still be undone.',
  EDIT_NO_CHANGE: 'there is nothing to revert: the files already are as they were. Nothing was written.',
  PATH_DENIED: 'a file it would change is outside the workspace folders or denied by readgate.paths.deny now. Nothing was written.',
  BINARY_FILE: 'a file it would change is not text, and ReadGate reverts text files only. Nothing was written.',
  WRITE_FAILED: 'writing failed, and the files are as they were. Show Details says why.',
};

/** The message for a revert that did not happen: the user's own "no" is a cancel, the rest a next step. */
export function revertFailureText(code: string, message: string): string {
  if (code === 'REJECTED_BY_USER' || code === 'CANCELLED') return 'The revert was cancelled: nothing was written.';
  const next = NEXT_STEPS[code];
  if (next) return `ReadGate did not revert: ${next}`;
  // What cannot be reverted (a change, or its contents, no longer on record; a file that cannot be written so):
  // its first sentence says which, the rest addresses library callers.
  if (code === 'INVALID_INPUT') return `ReadGate did not revert: ${firstSentence(message)} Nothing was written.`;
  return `ReadGate did not revert (${code}): ${message.split('\n')[0]}`;
}

function firstSentence(message: string): string {
  const line = message.split('\n')[0];
  const end = line.search(/\.(\s|$)/);
  return end < 0 ? line : line.slice(0, end + 1);
}
