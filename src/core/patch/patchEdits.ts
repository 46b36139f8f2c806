/**
 * A planned change of one file as the single guard edit the Apply Patch command writes (until the guard takes
 * a plan's operations directly): the lines from the plan's first placed edit to its last, old and new,
 * extended by neighbouring lines until the old text is unique in the file, so the guard's usual rules apply
 * (those lines must be read; every other byte, the encoding and the line endings are kept). Placement itself
 * is `planPatch`'s; this only reshapes its result. Works on the text with '\n' line breaks, as the guard matches.
 */
import { displayPath } from '../path/displayPath';
import { toLf } from '../text/lineEndings';
import type { Refusal } from '../refusals/refusal';
import { joinLines, type PlacedEdit, splitLines } from './lineImage';
import type { FilePatch } from './patchTypes';
import { type PatchOperation, planPatch } from './planPatch';
import { invalidInput } from '../refusals/invalidInput';

export interface PatchEdit {
  path: string;
  /** Empty: create the file with `newString`. */
  oldString: string;
  newString: string;
  /** 1-based lines of the current file the edit covers (to be read first); 0..0 for a created file. */
  firstLine: number;
  lastLine: number;
  /** The file exists but is empty: no old text can name a place, so its new content is written whole. */
  wholeFile?: true;
}

/** The guard edit for one file's patch, given the file's current text (undefined: it does not exist). */
export function patchEdit(file: FilePatch, current: string | undefined): PatchEdit | Refusal {
  if (file.kind === 'delete' || file.kind === 'rename' || file.kind === 'copy') {
    const verb = file.kind === 'delete' ? 'deletes' : file.kind === 'rename' ? `renames ${displayPath(file.from)} to` : `copies ${displayPath(file.from)} to`;
    return invalidInput.singleEditCannot(`${verb} ${displayPath(file.path)}; a single edit can create or change a file, not ${file.kind} one`);
  }
  const plan = planPatch([file], (path) => (path === file.path ? { exists: current !== undefined, text: current } : { exists: false }));
  if (!plan.ok) return plan;
  return operationEdit(plan.operations[0], current === undefined ? undefined : toLf(current));
}

/** One create or modify operation of a plan as a guard edit, given the file's current '\n' text. */
export function operationEdit(operation: PatchOperation, lf: string | undefined): PatchEdit | Refusal {
  if (operation.op === 'create') return { path: operation.path, oldString: '', newString: operation.content, firstLine: 0, lastLine: 0 };
  if (operation.op !== 'modify' || lf === undefined) {
    return invalidInput.singleEditCannot(`${operation.op === 'delete' ? 'deletes' : 'renames'} a file, which a single edit cannot do`);
  }
  if (lf === '') {
    return { path: operation.path, oldString: '', newString: operation.edits.map((edit) => edit.newText).join(''), firstLine: 0, lastLine: 0, wholeFile: true };
  }
  return spanEdit(operation.path, lf, operation.edits);
}

function spanEdit(path: string, lf: string, edits: readonly PlacedEdit[]): PatchEdit {
  const lines = splitLines(lf);
  const oldCount = (edit: PlacedEdit): number => splitLines(edit.oldText).length;
  const first = edits[0].line - 1;
  const last = edits[edits.length - 1];
  const editsEnd = last.line - 1 + oldCount(last);
  let middle = '';
  let cursor = first;
  for (const edit of edits) {
    middle += joinLines(lines.slice(cursor, edit.line - 1)) + edit.newText;
    cursor = edit.line - 1 + oldCount(edit);
  }
  let start = first;
  let end = editsEnd;
  const texts = () => ({
    oldString: joinLines(lines.slice(start, end)),
    newString: joinLines(lines.slice(start, first)) + middle + joinLines(lines.slice(editsEnd, end)),
  });
  // Grow until the old text names one place (the guard refuses an ambiguous one) and is not empty.
  let { oldString, newString } = texts();
  while (oldString === '' || occurrences(lf, oldString) > 1) {
    if (start > 0) start--;
    else if (end < lines.length) end++;
    else break;
    ({ oldString, newString } = texts());
  }
  return { path, oldString, newString, firstLine: start + 1, lastLine: Math.max(start + 1, end) };
}

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at !== -1 && count < 2; at = text.indexOf(part, at + 1)) count++;
  return count;
}
