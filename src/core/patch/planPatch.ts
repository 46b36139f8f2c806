/**
 * The plan of a parsed patch: which files to create, delete, rename and change, and for each change exactly
 * which lines of the file it replaces, decided purely from the patch and the files' current texts. Nothing
 * is written here; the caller carries the operations out through the guard (all or nothing), which checks
 * again that every file still holds what the plan was made from.
 *
 * Every section of the patch is accounted for: a section ReadGate does not carry out refuses the whole plan.
 * Sections apply in order, each to the result of the ones before (as git apply, aider and codex do): a file
 * renamed and then changed, two sections of one file, a file deleted and created again.
 *
 * The operations, in order (each sees the result of the ones before it):
 * - `create`: a file that must not exist, with `content` ('\n' line breaks);
 * - `delete`: a file that must hold exactly `expected`;
 * - `rename`: `from` to `to`, which must not exist;
 * - `modify`: one per changed file that existed, after the creates, deletes and renames, under its final path,
 *   with one `PlacedEdit` per hunk, block or chunk in the lines the file had before the patch (a renamed
 *   file's lines are those of its source). Parts whose lines touch are one edit.
 *
 * Refusals name the file as the patch names it, the part, and the first line that differs (placeHunks.ts,
 * placeBlocks.ts, placeChunks.ts). Unlike codex, an `*** Add File:` or `*** Move to:` onto an existing file
 * is refused (FILE_EXISTS) instead of overwriting it, and codex's `*** Delete File:` deletes the file only
 * while it holds the text the plan saw.
 */
import { displayPath } from '../path/displayPath';
import { toLf } from '../text/lineEndings';
import type { Refusal } from '../refusals/refusal';
import { isBlob } from './blobHash';
import { LineImage, type PlacedEdit, splitLines } from './lineImage';
import { differences, exactLines, lineName, stale } from './mismatch';
import type { FilePatch, PatchChanges } from './patchTypes';
import { isBlank, placeBlocks } from './placeBlocks';
import { placeChunks } from './placeChunks';
import { placeHunks } from './placeHunks';
import { invalidInput } from '../refusals/invalidInput';

export type { PlacedEdit } from './lineImage';

/** A file as the plan sees it: its text as the guard matches it, and its bytes when the caller has them. */
export interface FileView {
  exists: boolean;
  /** The decoded text (any line breaks; the plan folds them to '\n'); undefined for a file that is not text. */
  text?: string;
  /** The raw bytes, to check a diff's `index` line (needed only for hunks without context lines). */
  bytes?: Uint8Array;
  /** Lines (1-based) a refusal may not quote: an agent's session has not read them. */
  hidden?: (line: number) => boolean;
}

export type PatchView = (path: string) => FileView;

export interface PlanOptions {
  /** Place hunks without context lines by their line numbers even when the file is not provably their base (git apply --unidiff-zero). */
  unidiffZero?: boolean;
  /** Start each hunk's search at its named line plus the previous hunk's offset (default true; false is git apply's rule). */
  followOffsets?: boolean;
}

export type PatchOperation =
  | { op: 'create'; path: string; content: string }
  | { op: 'delete'; path: string; expected: string }
  | { op: 'rename'; from: string; to: string }
  | { op: 'modify'; path: string; edits: PlacedEdit[] };

export type PatchPlan = { ok: true; operations: PatchOperation[] } | Refusal;

interface DiskFile {
  kind: 'disk';
  path: string;
  image: LineImage;
  bytes?: Uint8Array;
  /** A section changed it already (its bytes no longer prove anything about a later section's base). */
  touched: boolean;
  /** Where its `modify` operation goes: after the operations planned before its first change or its last rename. */
  anchor: number;
}

interface NewFile {
  kind: 'new';
  image: LineImage;
  op: { op: 'create'; path: string; content: string };
}

type Slot = DiskFile | NewFile;

const refuse = (code: Refusal['code'], message: string): Refusal => ({ ok: false, code, message });

export function planPatch(files: readonly FilePatch[], view: PatchView, options: PlanOptions = {}): PatchPlan {
  const refused = files.find((file) => file.kind === 'refused');
  if (refused?.kind === 'refused') return invalidInput.patch(refused.message);
  return new Planner(view, options).plan(files);
}

class Planner {
  private readonly slots = new Map<string, Slot | 'gone'>();
  private readonly operations: PatchOperation[] = [];
  private readonly disk: DiskFile[] = [];

  constructor(
    private readonly view: PatchView,
    private readonly options: PlanOptions,
  ) {}

  plan(files: readonly FilePatch[]): PatchPlan {
    for (const file of files) {
      const refusal = this.section(file);
      if (refusal) return refusal;
    }
    const modified: { anchor: number; operation: PatchOperation }[] = [];
    for (const slot of this.disk) {
      if (this.slots.get(slot.path) !== slot) continue;
      const joined = this.joined(slot.path, slot.image);
      if (joined) return joined;
      const edits = slot.image.edits().filter((edit) => edit.oldText !== edit.newText);
      if (edits.length > 0) modified.push({ anchor: slot.anchor, operation: { op: 'modify', path: slot.path, edits } });
    }
    // In the patch's order: each file's change where its first section was (after its rename, if any).
    const backwards = modified.map((entry, order) => ({ ...entry, order })).sort((a, b) => b.anchor - a.anchor || b.order - a.order);
    for (const { anchor, operation } of backwards) this.operations.splice(anchor, 0, operation);
    for (const operation of this.operations) {
      if (operation.op !== 'create') continue;
      const slot = [...this.slots.values()].find(
        (candidate): candidate is NewFile => candidate !== 'gone' && candidate.kind === 'new' && candidate.op === operation,
      );
      if (slot) {
        const joined = this.joined(operation.path, slot.image);
        if (joined) return joined;
        operation.content = slot.image.text();
      }
    }
    if (this.operations.length === 0) {
      return refuse('EDIT_NO_CHANGE', 'The patch leaves every file as it is: it has already been applied, or it changes nothing. Nothing was changed.');
    }
    return { ok: true, operations: this.operations };
  }

  private joined(path: string, image: LineImage): Refusal | undefined {
    const index = image.joinedLine();
    if (index === -1) return undefined;
    return invalidInput.patchJoinsLine(image.quote(index), path);
  }

  /** The file at `path` now (after the sections before), or undefined when there is none. */
  private lookup(path: string): Slot | Refusal | undefined {
    const known = this.slots.get(path);
    if (known !== undefined) return known === 'gone' ? undefined : known;
    const file = this.view(path);
    if (!file.exists) return undefined;
    if (file.text === undefined) {
      return refuse('BINARY_FILE', `The patch changes ${displayPath(path)}, which is not a text file ReadGate can patch. Nothing was changed.`);
    }
    const slot: DiskFile = {
      kind: 'disk',
      path,
      image: new LineImage(toLf(file.text), file.hidden ? (orig) => file.hidden!(orig + 1) : undefined),
      bytes: file.bytes,
      touched: false,
      anchor: -1,
    };
    this.slots.set(path, slot);
    this.disk.push(slot);
    return slot;
  }

  private section(file: FilePatch): Refusal | undefined {
    switch (file.kind) {
      case 'refused':
        return invalidInput.patch(file.message);
      case 'create':
        return this.create(file.path, file.content);
      case 'delete':
        return this.delete(file.path, file.expected);
      case 'modify':
        return this.modify(file.path, file.changes);
      case 'rename':
        return this.rename(file.from, file.path, file.changes);
      case 'copy':
        return this.copy(file.from, file.path, file.changes);
    }
  }

  private absent(path: string, verb: string): Refusal | undefined {
    const existing = this.lookup(path);
    if (existing && 'ok' in existing) return existing;
    if (existing) {
      return refuse(
        'FILE_EXISTS',
        `The patch ${verb} ${displayPath(path)}, but it exists. Nothing was changed. Remove it first, or make the patch against its current content.`,
      );
    }
    return undefined;
  }

  private present(path: string, verb: string): Slot | Refusal {
    const slot = this.lookup(path);
    if (slot) return slot;
    return refuse(
      'FILE_NOT_FOUND',
      `The patch ${verb} ${displayPath(path)}, which does not exist. Nothing was changed. Check that the patch is for this workspace, and that ${displayPath(path)} was not renamed or deleted since it was made.`,
    );
  }

  private create(path: string, content: string): Refusal | undefined {
    const exists = this.absent(path, 'creates');
    if (exists) return exists;
    this.newFile(path, content);
    return undefined;
  }

  private newFile(path: string, content: string): NewFile {
    const slot: NewFile = { kind: 'new', image: new LineImage(content), op: { op: 'create', path, content } };
    this.slots.set(path, slot);
    this.operations.push(slot.op);
    return slot;
  }

  private delete(path: string, expected: string | undefined): Refusal | undefined {
    const slot = this.present(path, 'deletes');
    if ('ok' in slot) return slot;
    if (slot.kind === 'new' || slot.touched) return invalidInput.patchChangesThenDeletes(path);
    const text = slot.image.text();
    if (expected !== undefined && text !== expected) return stale(path, deletionMismatch(slot.image, expected));
    this.operations.push({ op: 'delete', path, expected: text });
    this.slots.set(path, 'gone');
    return undefined;
  }

  private modify(path: string, changes: PatchChanges): Refusal | undefined {
    const slot = this.lookup(path);
    if (slot && 'ok' in slot) return slot;
    if (!slot && changes.format === 'search-replace' && isBlank(changes.blocks[0].search)) return this.change(path, this.newFile(path, ''), changes);
    if (!slot) return this.present(path, 'changes') as Refusal;
    return this.change(path, slot, changes);
  }

  private rename(from: string, to: string, changes: PatchChanges | undefined): Refusal | undefined {
    const slot = this.present(from, 'renames');
    if ('ok' in slot) return slot;
    if (from === to) return invalidInput.patchRenamesToItself(from);
    const exists = this.absent(to, `renames ${displayPath(from)} to`);
    if (exists) return exists;
    this.slots.set(from, 'gone');
    this.slots.set(to, slot);
    if (slot.kind === 'new') slot.op.path = to;
    else {
      this.operations.push({ op: 'rename', from: slot.path, to });
      slot.path = to;
      slot.anchor = this.operations.length;
    }
    return changes ? this.change(to, slot, changes) : undefined;
  }

  private copy(from: string, to: string, changes: PatchChanges | undefined): Refusal | undefined {
    const slot = this.present(from, 'copies');
    if ('ok' in slot) return slot;
    const exists = this.absent(to, `copies ${displayPath(from)} to`);
    if (exists) return exists;
    const copy = this.newFile(to, slot.image.text());
    return changes ? this.change(to, copy, changes) : undefined;
  }

  private change(path: string, slot: Slot, changes: PatchChanges): Refusal | undefined {
    let refusal: Refusal | undefined;
    if (changes.format === 'search-replace') refusal = placeBlocks(path, slot.image, changes.blocks);
    else if (changes.format === 'apply-patch') refusal = placeChunks(path, slot.image, changes.chunks);
    else {
      const notTheBase = this.notTheBase(slot, changes.index);
      refusal = placeHunks(path, slot.image, changes.hunks, {
        unidiffZero: this.options.unidiffZero === true,
        followOffsets: this.options.followOffsets !== false,
        notTheBase,
      });
    }
    if (slot.kind === 'disk') {
      slot.touched = true;
      if (slot.anchor === -1) slot.anchor = this.operations.length;
    }
    return refusal;
  }

  /** Why the file is not provably the version the diff's index line names (undefined: it is). */
  private notTheBase(slot: Slot, index: { old: string } | undefined): string | undefined {
    if (!index) return 'the diff has no "index <hash>..<hash>" line naming that version';
    if (slot.kind === 'new' || slot.touched) return 'an earlier section of the patch changes it';
    if (!slot.bytes) return 'its bytes were not available to compare with the diff\'s "index" line';
    return isBlob(slot.bytes, index.old) ? undefined : `its content is not the blob ${index.old} the diff's "index" line names`;
  }
}

function deletionMismatch(image: LineImage, expected: string): string {
  const wanted = splitLines(expected);
  const none = (): string => 'the patch';
  const found = differences(image, wanted, 0, exactLines, none);
  if (found.length === 0 && image.length > wanted.length) {
    found.push(`${lineName(image, wanted.length, none)}: the patch expects the end of the file, the file has ${image.quote(wanted.length)}`);
  }
  return `the patch deletes it expecting exactly the lines it removes, but the file holds other text: ${found.join('; ')}.`;
}
