/**
 * What a revert writes, decided purely: a change's files with their content before and after
 * it, and the files as they are now, in; the operations that undo the change while keeping every later change,
 * and the conflicts, out. No I/O: the guard reads the files, and writes the plan through approval, all or none.
 *
 * Per file, by the change's kind:
 * - edit: a three-way merge (`mergeLines.ts`) with base = the change's after, ours = the file now, theirs = the
 *   change's before. Lines changed since are kept byte for byte; a line the revert must restore that was changed
 *   since (or touches such a line) is a `lines` conflict, and keeps its current content in the merged parts. A
 *   file gone since is `missing`.
 * - create: the file is deleted only while it holds exactly the bytes the change created; changed since, it is
 *   a `changedSinceCreated` conflict naming the lines that changed, and stays.
 * - delete: the file is written back with its bytes from before, only where the path is free now. Any file there
 *   is a `pathTaken` conflict: the revert never merges into a file it did not make (a new file at that path is
 *   someone's new work, and merging "no file" with it would only be a guess).
 * - Whatever a change made since already put back (lines that already read as before, a created file already
 *   gone, a deleted file already back with the same bytes) is an `alreadyReverted` conflict, never skipped
 *   silently: if another session's change undid this one, reverting that session afterwards would bring this
 *   change back, and "revert both" would not leave the files as they were without both.
 * - rename (from → path): the file is moved back to `from`, which must be free now (or freed by this same
 *   revert), else `pathTaken`; its content is merged as for an edit, so changes made since under the new name
 *   are kept.
 * A multi-file change plans every file: a conflict in any makes the whole plan a conflict (`clean: false`); its
 * `ops` are then the merged parts, applied only if the caller (the user) takes them.
 *
 * A session (`planSessionRevert`) is reverted change by change, newest first, each against the state the
 * previous one produced, in memory: so a session's later change to the lines of its earlier one is undone
 * first and the earlier one then applies cleanly, while everything others changed since each change is merged
 * as above. The plan's operations take each touched path from what it is now to what it is after the last step
 * (a file moved back and forth is one move, or none). Conflicts are reported in the lines of the files as they
 * are now: each line of the in-memory state remembers which line of the current file it is.
 */
import { fromBinary, splitLines, toBinary } from './contentLines';
import { changedRuns, mergeLines } from './mergeLines';
import type { Content, CurrentFiles, LineRange, RevertChange, RevertConflict, RevertFile, RevertOp, RevertPlan } from './revertTypes';

/** A file in the in-memory state of a revert. */
interface StateFile {
  binary: string;
  lines: string[];
  /** For each line, its index in the current file at `originPath`, or -1 for a line the revert brought. */
  origins: number[];
  /** The path whose current file this content descends from; null for content the revert brought back. */
  originPath: string | null;
  /** Permission bits of a deleted file the revert brings back (its record's `mode`), when known. */
  mode?: number;
}

class RevertState {
  private readonly initial = new Map<string, string | null>();
  private readonly files = new Map<string, StateFile | null>();
  sawBytes = false;

  constructor(private readonly current: CurrentFiles) {}

  binaryOf(content: Content): string {
    if (typeof content !== 'string') this.sawBytes = true;
    return toBinary(content);
  }

  initialOf(path: string): string | null {
    if (!this.initial.has(path)) {
      const content = this.current(path);
      this.initial.set(path, content === null || content === undefined ? null : this.binaryOf(content));
    }
    return this.initial.get(path)!;
  }

  get(path: string): StateFile | null {
    if (!this.files.has(path)) {
      const binary = this.initialOf(path);
      const lines = binary === null ? [] : splitLines(binary);
      this.files.set(path, binary === null ? null : { binary, lines, origins: lines.map((_, i) => i), originPath: path });
    }
    return this.files.get(path)!;
  }

  set(path: string, file: StateFile | null): void {
    this.get(path);
    this.files.set(path, file);
  }

  paths(): string[] {
    return [...this.files.keys()].sort();
  }
}

function restored(binary: string, mode: number | undefined): StateFile {
  const lines = splitLines(binary);
  return { binary, lines, origins: lines.map(() => -1), originPath: null, ...(mode !== undefined ? { mode } : {}) };
}

/** Lines `[start, start + length)` of a state file as a range of the current file's lines. */
function currentRange(file: StateFile, start: number, length: number): LineRange {
  const known = file.origins.slice(start, start + length).filter((origin) => origin >= 0);
  if (known.length) return { start: Math.min(...known) + 1, end: Math.max(...known) + 1 };
  let before = start - 1;
  while (before >= 0 && file.origins[before] < 0) before--;
  const at = before >= 0 ? file.origins[before] + 2 : 1;
  return { start: at, end: at - 1 };
}

interface Step {
  state: RevertState;
  changeId: string | undefined;
  conflicts: RevertConflict[];
}

interface Run {
  start: number;
  length: number;
  wanted?: string[];
}

function conflict(step: Step, reason: RevertConflict['reason'], path: string, file: StateFile | null, runs: Run[] = []): void {
  const mapped = file?.originPath ? runs.map((run) => currentRange(file, run.start, run.length)) : [];
  const wanted = runs.some((run) => run.wanted) && file?.originPath ? runs.map((run) => (run.wanted ?? []).join('')) : undefined;
  step.conflicts.push({
    reason,
    path: file?.originPath ?? path,
    ...(step.changeId !== undefined ? { changeId: step.changeId } : {}),
    lines: mapped,
    ...(wanted ? { wanted: wanted as Content[] } : {}),
  });
}

/** `file` with the change (after → before) undone by a three-way merge; conflicts noted on `path`. */
function merged(step: Step, path: string, file: StateFile, before: string, after: string): StateFile {
  const result = mergeLines(splitLines(after), file.lines, splitLines(before));
  for (const [reason, already] of [
    ['lines', false],
    ['alreadyReverted', true],
  ] as const) {
    const runs = result.conflicts.filter((c) => c.alreadyThere === already).map((c) => ({ start: c.oursStart, length: c.oursLength, wanted: c.wanted }));
    if (runs.length) conflict(step, reason, path, file, runs);
  }
  const origins = result.origins.map((i) => (i >= 0 ? file.origins[i] : -1));
  return { binary: result.lines.join(''), lines: result.lines, origins, originPath: file.originPath, ...(file.mode !== undefined ? { mode: file.mode } : {}) };
}

const whole = (file: StateFile | null) => (file ? [{ start: 0, length: file.lines.length }] : []);

/** A file the revert puts at a free path: a deleted file restored, a renamed one moved back (freeing `vacates`). */
interface Placement {
  path: string;
  file: StateFile;
  vacates?: string;
  source: RevertFile;
}

/** What reverting one change does to each of its files, before paths are checked: edits, removals, placements. */
interface Intents {
  edits: Map<string, StateFile>;
  vacated: Set<string>;
  placements: Placement[];
}

function intentsOf(step: Step, change: RevertChange): Intents {
  const { state } = step;
  const binary = (content: Content | null): string | null => (content === null ? null : state.binaryOf(content));
  const edits = new Map<string, StateFile>();
  const vacated = new Set<string>();
  const placements: Placement[] = [];
  for (const file of change.files) {
    const before = binary(file.before);
    const after = binary(file.after);
    const now = state.get(file.path);
    if (file.kind === 'edit' && before !== null && after !== null) {
      if (!now) conflict(step, 'missing', file.path, null);
      else edits.set(file.path, merged(step, file.path, now, before, after));
    } else if (file.kind === 'create' && after !== null) {
      if (!now) conflict(step, 'alreadyReverted', file.path, null);
      else if (now.binary === after) vacated.add(file.path);
      else {
        const runs = changedRuns(splitLines(after), now.lines).map((run) => ({ start: run.oursStart, length: run.oursLength }));
        conflict(step, 'changedSinceCreated', file.path, now, runs);
      }
    } else if (file.kind === 'delete' && before !== null) {
      placements.push({ path: file.path, file: restored(before, file.mode), source: file });
    } else if (file.kind === 'rename' && before !== null && after !== null && file.from !== undefined) {
      if (!now) conflict(step, 'missing', file.path, null);
      else placements.push({ path: file.from, file: merged(step, file.path, now, before, after), vacates: file.path, source: file });
    }
  }
  return { edits, vacated, placements };
}

/** Reverts one change in the state. */
function revertChange(step: Step, change: RevertChange): void {
  const { state } = step;
  const { edits, vacated, placements } = intentsOf(step, change);
  // A placement needs its path free once this step's removals are made, and a rename frees its path only if it
  // is placed: repeat until no more renames can be placed (a chain b → c, a → b reverts as c → b, b → a).
  const placed = new Set<Placement>();
  const isFree = (path: string): boolean => !edits.has(path) && (vacated.has(path) || !state.get(path)) && ![...placed].some((p) => p.path === path);
  for (let progress = true; progress;) {
    progress = false;
    for (const placement of placements) {
      if (placed.has(placement) || !isFree(placement.path)) continue;
      placed.add(placement);
      if (placement.vacates) vacated.add(placement.vacates);
      progress = true;
    }
  }
  for (const placement of placements) {
    if (placed.has(placement)) continue;
    const there = state.get(placement.path);
    const alreadyBack = placement.source.kind === 'delete' && there?.binary === placement.file.binary;
    conflict(step, alreadyBack ? 'alreadyReverted' : 'pathTaken', placement.path, there, whole(there));
  }
  for (const [path, file] of edits) state.set(path, file);
  for (const path of vacated) state.set(path, null);
  for (const placement of placed) state.set(placement.path, placement.file);
}

/** The operations that take every touched path from what it is now to what the state holds. */
function operations(state: RevertState): RevertOp[] {
  const asContent = (binary: string): Content => fromBinary(binary, state.sawBytes);
  const moves: RevertOp[] = [];
  const writes: RevertOp[] = [];
  const deletes: RevertOp[] = [];
  const movedAway = new Set<string>();
  const paths = state.paths();
  for (const path of paths) {
    const file = state.get(path);
    const origin = file?.originPath;
    if (!file || !origin || origin === path || state.initialOf(path) !== null) continue;
    const from = state.initialOf(origin);
    if (from === null || state.get(origin) !== null || movedAway.has(origin)) continue;
    movedAway.add(origin);
    moves.push({ type: 'move', from: origin, to: path, current: asContent(from), content: asContent(file.binary) });
  }
  const moveTargets = new Set(moves.map((op) => (op.type === 'move' ? op.to : '')));
  for (const path of paths) {
    if (moveTargets.has(path) || movedAway.has(path)) continue;
    const now = state.initialOf(path);
    const next = state.get(path);
    if (next && next.binary !== now) {
      writes.push({
        type: 'write',
        path,
        current: now === null ? null : asContent(now),
        content: asContent(next.binary),
        ...(now === null && next.mode !== undefined ? { mode: next.mode } : {}),
      });
    } else if (!next && now !== null) deletes.push({ type: 'delete', path, current: asContent(now) });
  }
  return [...moves, ...writes, ...deletes];
}

function plan(changesNewestFirst: readonly RevertChange[], current: CurrentFiles): RevertPlan {
  const state = new RevertState(current);
  const conflicts: RevertConflict[] = [];
  for (const change of changesNewestFirst) revertChange({ state, changeId: change.id, conflicts }, change);
  const ops = operations(state);
  const asBytes = state.sawBytes;
  const shaped = conflicts.map((c) => (c.wanted ? { ...c, wanted: c.wanted.map((w) => fromBinary(w as string, asBytes)) } : c));
  return { clean: shaped.length === 0, ops, conflicts: shaped };
}

/** The revert of one change against the files as they are now. */
export function planRevert(change: RevertChange, current: CurrentFiles): RevertPlan {
  return plan([change], current);
}

/**
 * The revert of a session's changes, given in the order they were made (oldest first): each is reverted,
 * newest first, against the state the revert of the later ones left, and the result is one plan.
 */
export function planSessionRevert(changes: readonly RevertChange[], current: CurrentFiles): RevertPlan {
  return plan([...changes].reverse(), current);
}
