/**
 * The edits a call asks for: one replacement of text (`Edit`) and one file of a multiEdit (`MultiEditChange`).
 * Part of the public contract (`types.ts` re-exports them); defined here, below the patch planner that makes them.
 */

/** `oldString` "" on a path that does not exist creates the file with `newString`. */
export interface Edit {
  oldString: string;
  newString: string;
  replaceAll?: boolean;
  /**
   * The 1-based line where `oldString` starts, in the file as it is before the call's edits: only a match there
   * counts (a patch places each hunk exactly; equal text elsewhere is no ambiguity then).
   */
  line?: number;
  /**
   * Only `oldString` exactly as given matches, never its curly/straight quote variants: another tool that will
   * look for the same text itself (an agent's own edit tool, judged before it runs) must find what was checked.
   */
  exact?: boolean;
}

/**
 * One file of a multiEdit: its edits, and optionally the version they were made against; or its deletion, or
 * its move to another path (with edits of its content, when given). Deleting or moving a file needs it fully
 * seen in its current version, as a write does; a move's destination must not exist and passes the same path
 * rules. All of a call's files change together or none does.
 */
export interface MultiEditChange {
  path: string;
  /** The file's edits, in order (an empty `oldString` in the first creates the file). Optional with `delete` or `moveTo`. */
  edits?: Edit[];
  /** Authorizes this file's change at exactly this version, as `MutationOptions.expectedVersion` does for edit. */
  expectedVersion?: string;
  /** Removes the file (no `edits`, no `moveTo`). */
  delete?: true;
  /** Moves the file to this path after its edits apply (the destination must not exist). */
  moveTo?: string;
}
