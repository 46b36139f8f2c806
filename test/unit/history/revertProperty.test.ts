/**
 * Seeded property test of reverting whole sessions. Each run: three files of unique lines (LF, CRLF and lone-CR
 * endings; some end in a line without a newline that nothing edits), a random sequence of line changes (replace,
 * insert, delete up to three lines) by three agent sessions interleaved with outside edits on random files, then
 * every session reverted in a random order with planSessionRevert, each plan applied in memory when clean and
 * never when it conflicts.
 *
 * Because every line is unique, "what changed" needs no diff: a line is kept or it is not. The oracle replays
 * each revert step on lines by identity with the documented rule, written out here on its own:
 *
 *   In the change's after (the base), the revert replaces the lines the change wrote with the lines it replaced:
 *   the closed interval [at, at + written] of base positions (an empty write is the gap `at`). The changes made
 *   since are the runs between two consecutive base lines still present now (or the file's ends): the base
 *   lines gone in between and the lines that appeared there; a run between kept base lines k1 and k2 is the
 *   closed interval [k1 + 1, k2]. A revert step conflicts when a run's interval meets the revert's interval —
 *   they share a line, or they touch (adjacent lines, the same gap, an insertion next to a replaced line). The
 *   conflict's region is the union of the revert's interval and every run it meets; it is reported in the lines
 *   of the file as it was when the session's revert was planned (lines the revert brought back map to nothing;
 *   an empty range is the place before a line). Where the file already holds exactly what the revert would
 *   write, it is still a conflict (`alreadyReverted`): another session's change undid this one, and reverting
 *   that session afterwards would bring it back. A conflicting step keeps the file as it is and the next step
 *   goes on from there.
 *
 * Checked per run: each plan's cleanness and its conflicts (change, file, line range, wanted text) equal the
 * oracle's; a clean plan's operations, and a conflicting plan's merged parts, produce exactly the oracle's
 * files; and every file whose sessions were all reverted cleanly ends equal to the original with the outside
 * edits applied alone (placed by their neighbouring original lines), which must then be unambiguous.
 *
 * Runs: READGATE_PROPERTY_RUNS (default 1000; `npm run test:property` runs 20000). Seed: READGATE_SEED (default:
 * random, printed). A failure names the seed of its run; READGATE_SEED=<it> READGATE_PROPERTY_RUNS=1 replays it.
 */
import * as assert from 'assert';
import { planSessionRevert } from '../../../src/core/index';
import type { LineRange, RevertChange, RevertConflict } from '../../../src/core/index';
import { seeded } from '../helpers/seeded';
import { applyOps, type Tree, viewOf } from './memoryTree';

const RUNS = Number(process.env.READGATE_PROPERTY_RUNS ?? 1000);
const FILES = ['a.txt', 'b.txt', 'sub/c.txt'];
const SESSIONS = ['s0', 's1', 's2'];

function rng(seed: number): (min: number, max: number) => number {
  let state = seed >>> 0;
  return (min, max) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return min + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (max - min + 1));
  };
}

/** One line change on one file: at `at`, `removed` lines replaced by `added` ones. */
interface LineChange {
  file: string;
  before: string[];
  at: number;
  removed: string[];
  added: string[];
}

interface AgentChange extends LineChange {
  id: string;
  session: string;
}

const afterOf = (change: LineChange): string[] => [...change.before.slice(0, change.at), ...change.added, ...change.before.slice(change.at + change.removed.length)];
const sameLines = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((line, i) => line === b[i]);

interface Scenario {
  original: Map<string, string[]>;
  /** Lines at the end that nothing edits (a last line without a newline), per file. */
  fixedTail: Map<string, number>;
  agents: AgentChange[];
  outside: LineChange[];
  files: Map<string, string[]>;
  order: string[];
}

function generate(next: (min: number, max: number) => number): Scenario {
  let counter = 0;
  const line = (prefix: string): string => `${prefix}${counter++}${['\n', '\n', '\r\n', '\r'][next(0, 3)]}`;
  const original = new Map<string, string[]>();
  const fixedTail = new Map<string, number>();
  for (const file of FILES) {
    const lines = Array.from({ length: next(4, 16) }, () => line('o'));
    const tail = next(0, 2) === 0 ? 1 : 0;
    if (tail) lines.push(`end-of-${file}`);
    original.set(file, lines);
    fixedTail.set(file, tail);
  }
  const files = new Map([...original].map(([file, lines]) => [file, [...lines]]));
  const agents: AgentChange[] = [];
  const outside: LineChange[] = [];
  const events = next(2, 10);
  for (let e = 0; e < events; e++) {
    const file = FILES[next(0, FILES.length - 1)];
    const before = files.get(file)!;
    const editable = before.length - fixedTail.get(file)!;
    const at = next(0, editable);
    const removeCount = next(0, Math.min(3, editable - at));
    const addCount = next(removeCount === 0 ? 1 : 0, 3);
    const byAgent = next(0, 9) < 6;
    const added = Array.from({ length: addCount }, () => line(byAgent ? 'A' : 'U'));
    const change: LineChange = { file, before: [...before], at, removed: before.slice(at, at + removeCount), added };
    files.set(file, afterOf(change));
    if (byAgent) agents.push({ ...change, id: `c${e}`, session: SESSIONS[next(0, SESSIONS.length - 1)] });
    else outside.push(change);
  }
  const order = SESSIONS.filter((session) => agents.some((change) => change.session === session));
  for (let i = order.length - 1; i > 0; i--) {
    const j = next(0, i);
    [order[i], order[j]] = [order[j], order[i]];
  }
  return { original, fixedTail, agents, outside, files, order };
}

/** The oracle's revert of one change on `now` (lines by identity); a conflict is returned, not applied. */
function oracleStep(change: AgentChange, now: string[], current: readonly string[]): { next: string[]; conflict?: RevertConflict } {
  const base = afterOf(change);
  const inNow = new Map(now.map((line, i) => [line, i]));
  const posNow = (basePos: number): number => (basePos < 0 ? -1 : basePos >= base.length ? now.length : inNow.get(base[basePos])!);
  const revertStart = change.at;
  const revertEnd = change.at + change.added.length;
  let regionStart = revertStart;
  let regionEnd = revertEnd;
  let previousKept = -1;
  for (let p = 0; p <= base.length; p++) {
    if (p < base.length && !inNow.has(base[p])) continue;
    const changedSince = p - previousKept - 1 > 0 || posNow(p) - posNow(previousKept) - 1 > 0;
    if (changedSince && previousKept + 1 <= revertEnd && revertStart <= p) {
      regionStart = Math.min(regionStart, previousKept + 1);
      regionEnd = Math.max(regionEnd, p);
    }
    previousKept = p;
  }
  const nowFrom = posNow(regionStart - 1) + 1;
  const nowTo = posNow(regionEnd);
  const nowRegion = now.slice(nowFrom, nowTo);
  const before = change.before;
  const wanted = before.slice(regionStart, regionEnd + change.removed.length - change.added.length);
  const touched = regionStart !== revertStart || regionEnd !== revertEnd || !sameLines(nowRegion, change.added);
  if (!touched) return { next: [...now.slice(0, nowFrom), ...change.removed, ...now.slice(nowTo)] };
  const reason = sameLines(nowRegion, wanted) ? 'alreadyReverted' : 'lines';
  return { next: now, conflict: { reason, path: change.file, changeId: change.id, lines: [rangeInCurrent(now, nowFrom, nowTo, current)], wanted: [wanted.join('')] } };
}

/** Lines `[from, to)` of the in-memory `now` as a range of the file as it was when the plan was made. */
function rangeInCurrent(now: readonly string[], from: number, to: number, current: readonly string[]): LineRange {
  const at = new Map(current.map((line, i) => [line, i]));
  const known = now.slice(from, to).filter((line) => at.has(line)).map((line) => at.get(line)!);
  if (known.length) return { start: Math.min(...known) + 1, end: Math.max(...known) + 1 };
  let before = from - 1;
  while (before >= 0 && !at.has(now[before])) before--;
  const start = before >= 0 ? at.get(now[before])! + 2 : 1;
  return { start, end: start - 1 };
}

/**
 * The original with only the outside edits, each placed between its nearest neighbouring lines that are there
 * too. Where those are not next to each other (an agent's lines stood between them, or lines it removed do), the
 * place is ambiguous: such lines, and lines placed next to them, are marked, and if any is left at the end the
 * result is undefined (lines an outside edit added and a later one removed leave no ambiguity behind).
 */
function outsideAlone(scenario: Scenario, file: string): string[] | undefined {
  let lines = [...scenario.original.get(file)!];
  const ambiguous = new Set<string>();
  for (const edit of scenario.outside.filter((change) => change.file === file)) {
    lines = lines.filter((line) => !edit.removed.includes(line));
    if (!edit.added.length) continue;
    const left = edit.before.slice(0, edit.at).reverse().find((line) => lines.includes(line));
    const right = edit.before.slice(edit.at + edit.removed.length).find((line) => lines.includes(line));
    const leftAt = left === undefined ? -1 : lines.indexOf(left);
    const rightAt = right === undefined ? lines.length : lines.indexOf(right);
    const neighbours = [left, right].some((line) => line !== undefined && ambiguous.has(line));
    if (rightAt !== leftAt + 1 || neighbours) for (const line of edit.added) ambiguous.add(line);
    lines.splice(leftAt + 1, 0, ...edit.added);
  }
  return lines.some((line) => ambiguous.has(line)) ? undefined : lines;
}

const text = (lines: readonly string[]): string => lines.join('');
const treeOf = (files: Map<string, string[]>): Tree => new Map([...files].map(([file, lines]) => [file, text(lines)]));

interface Tally {
  cleanSessions: number;
  conflictingSessions: number;
  filesCheckedAgainstOutsideEdits: number;
}

function runOnce(seed: number, tally: Tally): void {
  const scenario = generate(rng(seed));
  // READGATE_DEBUG=1 with a replayed seed prints the scenario.
  if (process.env.READGATE_DEBUG) {
    const shown = (c: LineChange) => ({ file: c.file, at: c.at, removed: c.removed, added: c.added });
    const agents = scenario.agents.map((c) => ({ id: c.id, session: c.session, ...shown(c) }));
    console.log(JSON.stringify({ agents, outside: scenario.outside.map(shown), order: scenario.order }));
  }
  let real: Tree = treeOf(scenario.files);
  const model = new Map([...scenario.files].map(([file, lines]) => [file, [...lines]]));
  const blocked = new Set<string>();
  for (const session of scenario.order) {
    const changes = scenario.agents.filter((change) => change.session === session);
    const revertChanges: RevertChange[] = changes.map((change) => ({ id: change.id, files: [{ path: change.file, kind: 'edit', before: text(change.before), after: text(afterOf(change)) }] }));
    const plan = planSessionRevert(revertChanges, viewOf(real));

    const current = new Map([...model].map(([file, lines]) => [file, [...lines]]));
    const expected: RevertConflict[] = [];
    for (const change of [...changes].reverse()) {
      const step = oracleStep(change, model.get(change.file)!, current.get(change.file)!);
      model.set(change.file, step.next);
      if (step.conflict) expected.push(step.conflict);
    }
    assert.deepStrictEqual(plan.conflicts, expected, `session ${session}: the conflicts`);
    assert.strictEqual(plan.clean, expected.length === 0);
    const merged = applyOps(real, plan.ops);
    assert.deepStrictEqual(Object.fromEntries(merged), Object.fromEntries(treeOf(model)), `session ${session}: the files after its ${plan.clean ? 'revert' : 'merged parts'}`);
    if (plan.clean) {
      real = merged;
      tally.cleanSessions++;
    } else {
      for (const [file, lines] of current) model.set(file, lines);
      blocked.add(session);
      tally.conflictingSessions++;
    }
  }
  for (const file of FILES) {
    if (scenario.agents.some((change) => change.file === file && blocked.has(change.session))) continue;
    const alone = outsideAlone(scenario, file);
    assert.ok(alone, `${file}: every session's revert was clean, yet the outside edits are ambiguous on the original`);
    assert.strictEqual(real.get(file), text(alone), `${file}: the outside edits alone`);
    if (scenario.outside.some((change) => change.file === file) && scenario.agents.some((change) => change.file === file)) tally.filesCheckedAgainstOutsideEdits++;
  }
}

suite('history: revert of sessions (seeded property)', () => {
  test('equals the outside edits alone where no revert conflicts, and reports conflicts exactly where revert and later changes meet', function () {
    this.timeout(600_000);
    const base = seeded();
    console.log(`      revert property: ${RUNS} runs from ${base.note}`);
    const tally: Tally = { cleanSessions: 0, conflictingSessions: 0, filesCheckedAgainstOutsideEdits: 0 };
    for (let run = 0; run < RUNS; run++) {
      const seed = (base.seed + run) >>> 0;
      try {
        runOnce(seed, tally);
      } catch (error) {
        throw new Error(`property failed on run ${run} with seed ${seed} (replay: READGATE_SEED=${seed} READGATE_PROPERTY_RUNS=1): ${(error as Error).message}`);
      }
    }
    console.log(`      revert property: ${tally.cleanSessions} clean and ${tally.conflictingSessions} conflicting session reverts, ${tally.filesCheckedAgainstOutsideEdits} files checked against the outside edits alone`);
    // Not vacuous: both outcomes happen, and files with agent and outside edits were checked against the edits alone.
    if (RUNS >= 200) {
      assert.ok(tally.cleanSessions > RUNS / 4, `too few clean session reverts: ${JSON.stringify(tally)}`);
      assert.ok(tally.conflictingSessions > RUNS / 20, `too few conflicting session reverts: ${JSON.stringify(tally)}`);
      assert.ok(tally.filesCheckedAgainstOutsideEdits > RUNS / 10, `too few files with both kinds of edits checked: ${JSON.stringify(tally)}`);
    }
  });
});
