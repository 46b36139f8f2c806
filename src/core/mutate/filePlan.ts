/**
 * What a change of one file asks for (`PlanInput`) and what the guard decided to write for it (`FilePlan`): the
 * approval shows a plan, the commit applies it. Types only.
 */
import type { TextEncoding } from '../text/encoding';
import type { LineIndex } from '../text/lineEndings';
import type { LineChange, Ranges } from '../text/lineRanges';
import type { FileStat } from '../ports';
import type { FileText } from '../text/loadText';
import type { Edit } from '../types';

/** `loose`: another tool decides the new content (nothing is planned to change): the whole file must be seen. */
/** A write `verbatim` is planned as given: another tool writes it, without the file's line endings kept for it. */
export type ChangeRequest = { kind: 'edit'; edits: Edit[] } | { kind: 'write'; content: string; verbatim?: boolean } | { kind: 'delete' } | { kind: 'loose' };

export interface PlanInput {
  path: string;
  target: string;
  /** The target's identity as the path check found it (the lock key before the lock is held). */
  identity?: string;
  request: ChangeRequest;
  expectedVersion?: string;
  /** The file moves here (after its edits apply); both paths passed the path policy. */
  moveTo?: { path: string; target: string; identity?: string };
}

export interface FilePlan {
  path: string;
  target: string;
  created: boolean;
  /** The file is removed (`afterText` is ''). */
  deleted?: boolean;
  /** The file moves here: `afterBytes` are created there and the file at `target` is removed. */
  movedTo?: { path: string; target: string };
  /** The file as planned against (absent for a new file). */
  stat?: FileStat;
  /**
   * Permission bits for a new file (a deleted file a revert brings back, with its recorded mode); absent: the
   * default. A plan of an existing file keeps `stat.mode`.
   */
  mode?: number;
  before?: FileText;
  beforeText: string;
  encoding: TextEncoding;
  afterText: string;
  /** Coverage of the current version before the change (what the session had seen). */
  seenBefore: Ranges;
  /** Coverage of the new version if the plan is applied as proposed. */
  seenAfter: Ranges;
  replacements: number;
  /** Line changes from `beforeText` to `afterText` (computed once, for the approval diff and the result). */
  changes: LineChange[];
  /** `afterText` encoded in the file's encoding. */
  afterBytes: Uint8Array;
  beforeIndex: LineIndex;
  afterIndex: LineIndex;
}
