/**
 * A patch's plan (`planPatch`) as the guard's changes: one multiEdit entry per file, so the whole patch is one
 * reviewed, all-or-nothing change. A created file is an edit with an empty `oldString`, a deleted file
 * `{ delete: true }`, a renamed file `{ moveTo }` carrying the edits of its content, and every hunk, block or
 * chunk one edit anchored at its line (`Edit.line`), so equal text elsewhere in the file never makes it
 * ambiguous and the guard checks exactly the lines the hunk names (they must be seen). An insertion, which
 * replaces no line, takes the line after it (or, at the end, the line before) into its edit. Pure.
 */
import type { Refusal } from '../refusals/refusal';
import type { Edit, MultiEditChange } from '../edit/editTypes';
import { splitLines } from './lineImage';
import type { PatchOperation, PlacedEdit } from './planPatch';
import { invalidInput } from '../refusals/invalidInput';

/** A file's change and the lines of its current text the change covers (1-based, inclusive; 'all' for a whole file). */
export interface PatchChange {
  change: MultiEditChange;
  covers: 'all' | [number, number][];
  /** An empty file filled by the patch: written whole (`session.write`), which it can only be alone. */
  write?: string;
}

const lineCount = (text: string): number => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

/**
 * The guard's edits for one file's placed parts. Parts that touch (an insertion right before or after a
 * replaced line, or at the same place as another part) become one edit, since the guard applies edits one
 * after another and an anchored line must still be there; an insertion alone takes the line after it (at the
 * end of the file, the line before) into its edit. Lines are numbered as in the file before the patch.
 */
export function guardEdits(placed: readonly PlacedEdit[], lf: string): { edits: Edit[]; covers: [number, number][] } {
  const lines = splitLines(lf);
  const at = (line: number): string => lines[line - 1].text + (lines[line - 1].eol ? '\n' : '');
  // Each part as the original lines from..to it replaces (to = from - 1 for an insertion before `from`).
  const parts = placed
    .map((edit) => ({ from: edit.line, to: edit.line + lineCount(edit.oldText) - 1, newText: edit.newText }))
    .sort((a, b) => a.from - b.from || a.to - b.to);
  const groups: { from: number; to: number; newText: string }[] = [];
  for (const part of parts) {
    const last = groups[groups.length - 1];
    if (last && part.from <= last.to + 1) {
      // Touching: the original lines between them (none, or the rest of an overlap) stay as they are.
      for (let line = last.to + 1; line < part.from; line++) last.newText += at(line);
      last.newText += part.newText;
      last.to = Math.max(last.to, part.to);
    } else groups.push({ ...part });
  }
  // An insertion alone is anchored at a neighbouring line no other edit uses (after it, else before it); with
  // both taken, it joins the edit next to it.
  const owner = new Map<number, (typeof groups)[number]>();
  for (const group of groups) for (let line = group.from; line <= group.to; line++) owner.set(line, group);
  const kept = groups.filter((group) => group.to >= group.from);
  for (const group of groups.filter((g) => g.to < g.from)) {
    const point = group.from;
    if (point <= lines.length && !owner.has(point)) {
      Object.assign(group, { to: point, newText: group.newText + at(point) });
      owner.set(point, group);
      kept.push(group);
    } else if (point - 1 >= 1 && !owner.has(point - 1)) {
      Object.assign(group, { from: point - 1, to: point - 1, newText: at(point - 1) + group.newText });
      owner.set(point - 1, group);
      kept.push(group);
    } else if (owner.has(point - 1)) {
      owner.get(point - 1)!.newText += group.newText;
    } else {
      const next = owner.get(point)!;
      next.newText = group.newText + next.newText;
    }
  }
  kept.sort((a, b) => a.from - b.from);
  const edits: Edit[] = [];
  const covers: [number, number][] = [];
  for (const { from, to, newText } of kept) {
    let oldText = '';
    for (let line = from; line <= to; line++) oldText += at(line);
    edits.push({ oldString: oldText, newString: newText, line: from });
    covers.push([from, to]);
  }
  return { edits, covers };
}

/** The changes being built, with the names already used and the moves later edits join. */
class ChangeList {
  readonly changes: PatchChange[] = [];
  /** A renamed file's later edits go with its move, under its new name. */
  readonly moved = new Map<string, PatchChange>();
  readonly renamedFrom = new Map<string, string>();
  private readonly named = new Set<string>();

  constructor(readonly resolve: (path: string) => string) {}

  claim(path: string): Refusal | undefined {
    if (this.named.has(path)) return invalidInput.patchNamesTwice(path);
    this.named.add(path);
    return undefined;
  }

  /** Adds a change of the files `paths` name (each used once). */
  add(paths: string[], change: PatchChange): Refusal | undefined {
    for (const path of paths) {
      const taken = this.claim(path);
      if (taken) return taken;
    }
    this.changes.push(change);
    return undefined;
  }
}

function addModify(list: ChangeList, operation: Extract<PatchOperation, { op: 'modify' }>, texts: (path: string) => string | undefined): Refusal | undefined {
  const renamed = list.moved.get(operation.path);
  const source = list.renamedFrom.get(operation.path) ?? operation.path;
  const lf = texts(source) ?? '';
  if (lf === '') {
    // An empty file has no line to anchor an edit at: its new content is written whole.
    if (renamed) return invalidInput.patchRenamesEmpty(source);
    const content = operation.edits.map((edit) => edit.newText).join('');
    return list.add([operation.path], { change: { path: list.resolve(operation.path) }, covers: 'all', write: content });
  }
  const { edits, covers } = guardEdits(operation.edits, lf);
  if (!renamed) return list.add([operation.path], { change: { path: list.resolve(operation.path), edits }, covers });
  renamed.change.edits = edits;
  return undefined;
}

/**
 * `texts`: the current text of each existing file the plan names (by the patch's path); `resolve` maps a
 * patch path to the guard's. Refused when one file would be named twice (deleted and created again).
 */
export function patchChanges(
  operations: readonly PatchOperation[],
  texts: (path: string) => string | undefined,
  resolve: (path: string) => string = (path) => path,
): PatchChange[] | Refusal {
  const list = new ChangeList(resolve);
  for (const operation of operations) {
    let refused: Refusal | undefined;
    switch (operation.op) {
      case 'create':
        refused = list.add([operation.path], {
          change: { path: resolve(operation.path), edits: [{ oldString: '', newString: operation.content }] },
          covers: [],
        });
        break;
      case 'delete':
        refused = list.add([operation.path], { change: { path: resolve(operation.path), delete: true }, covers: 'all' });
        break;
      case 'rename': {
        const entry: PatchChange = { change: { path: resolve(operation.from), moveTo: resolve(operation.to), edits: [] }, covers: 'all' };
        refused = list.add([operation.from, operation.to], entry);
        list.moved.set(operation.to, entry);
        list.renamedFrom.set(operation.to, operation.from);
        break;
      }
      case 'modify':
        refused = addModify(list, operation, texts);
        break;
    }
    if (refused) return refused;
  }
  return list.changes;
}
