/**
 * Seeded property test of one history folder shared by several processes. Each run starts three real processes
 * (`historyWorker`: a guard with a history on the folder), each with a session and two files of its own, and
 * runs a seeded list of operations in each, all three at once: write one of its files (contents from a small
 * pool, so the same bytes recur across processes and versions are shared), revert its session's newest change,
 * revert its whole session, list, open fresh guards on the folder and list with them (a load: budget and orphan
 * sweep), and, in runs with a budget, set a small `maxBytes` in the first process, so its budget drops the other
 * processes' records while they record.
 *
 * Checked while it runs: every revert that succeeds leaves exactly the content it should (a change's revert the
 * content before it; a session's revert every file of the session as it started); a revert is refused only for a
 * reason the run allows (its change, or part of its session, dropped by the budget, which runs without a budget
 * never allow; the files already as the revert would leave them); never because the contents of a change still
 * on record are gone. Checked at the end, on the folder as the processes left it: nothing was set aside as
 * damaged; every record file reads and every record's contents are there; in each session only the oldest
 * changes are missing, and only in runs with a budget (without one, every change made is on record); every file
 * holds what the run wrote last; and reverting every session puts every file back as it started (or is refused
 * for changes the budget dropped).
 *
 * Runs: one per 500 of READGATE_PROPERTY_RUNS (default 1000: two runs, one with a budget and one without, about
 * 10 s; `npm run test:property`: 40). Seed: READGATE_SEED (default: random, printed); run i uses seed + i (an
 * even seed has a budget), and a failure names its run's seed: READGATE_SEED=<it> READGATE_PROPERTY_RUNS=1
 * replays that run's operations (how the processes interleave is the scheduler's).
 */
import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard, createHistory } from '../../../src/core/index';
import { missingLinks } from '../../../src/core/history/sessionChain';
import { seeded } from '../helpers/seeded';
import { makeTempDir } from '../helpers/tempDir';
import { startWorker, type Worker, type WorkerRecord } from './historyWorkers';

const RUNS = Math.max(1, Math.round(Number(process.env.READGATE_PROPERTY_RUNS ?? 1000) / 500));
const WORKERS = 3;
const OPS = 40;
const FILES = 2;
const POOL = 6;

type Pick = (min: number, max: number) => number;
type Op = 'write' | 'revertLast' | 'revertSession' | 'list' | 'openList' | 'configure';

interface RevertAnswer {
  ok: boolean;
  code?: string;
  message: string;
}

function rng(seed: number): Pick {
  let state = seed >>> 0;
  return (min, max) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return min + Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * (max - min + 1));
  };
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Text gzip shrinks little, so a small budget holds few versions. */
function text(pick: Pick, tag: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  let body = '';
  for (let i = pick(300, 900); i > 0; i--) body += alphabet[pick(0, 63)];
  return `${tag}\n${body}\n`;
}

function opsOf(pick: Pick, budgeted: boolean, first: boolean): Op[] {
  const table: [Op, number][] = [['write', 50], ['revertLast', 15], ['revertSession', 7], ['list', 10], ['openList', 8], ['configure', budgeted && first ? 10 : 0]];
  const total = table.reduce((sum, [, weight]) => sum + weight, 0);
  return Array.from({ length: OPS }, () => {
    let roll = pick(1, total);
    for (const [op, weight] of table) if ((roll -= weight) <= 0) return op;
    return 'write';
  });
}

class Run {
  readonly root = makeTempDir('readgate-property-root-');
  readonly dir = path.join(makeTempDir('readgate-property-'), 'history');
  /** Every content the run can write, by version id. */
  readonly contents = new Map<string, string>();
  /** What each file holds as far as the run knows. */
  readonly expected = new Map<string, string>();
  readonly initial = new Map<string, string>();
  readonly pool: string[];
  /** Changes applied (each one record, unless the budget dropped it). */
  applied = 0;
  /** Changes applied per process. */
  readonly made = Array.from({ length: WORKERS }, () => 0);

  constructor(
    readonly seed: number,
    readonly budgeted: boolean,
    readonly pick: Pick,
  ) {
    this.pool = Array.from({ length: POOL }, (_, i) => this.known(text(pick, `pool ${i}`)));
  }

  known(content: string): string {
    this.contents.set(sha256(content), content);
    return content;
  }

  filesOf(worker: number): string[] {
    return Array.from({ length: FILES }, (_, j) => path.join(this.root, `w${worker}-${j}.txt`));
  }

  note(what: string): string {
    return `${what} (seed ${this.seed}${this.budgeted ? ', with a budget' : ''}; rerun with READGATE_SEED=${this.seed} READGATE_PROPERTY_RUNS=1)`;
  }
}

async function write(run: Run, worker: Worker, index: number, pick: Pick): Promise<void> {
  const file = run.filesOf(index)[pick(0, FILES - 1)];
  const choices = run.pool.filter((content) => content !== run.expected.get(file));
  const content = choices[pick(0, choices.length - 1)];
  const result = await worker.call<{ ok: boolean; message?: string }>('write', { path: file, content });
  assert.ok(result.ok, run.note(`a write failed: ${result.message}`));
  run.expected.set(file, content);
  applied(run, index);
}

/** A refusal the run allows: nothing to revert, or the budget took the target (only with a budget). */
function allowedRefusal(run: Run, index: number, answer: RevertAnswer): boolean {
  if (answer.code === 'EDIT_NO_CHANGE') return true;
  if (answer.code !== 'INVALID_INPUT') return false;
  if (run.made[index] === 0 && /holds no change of session/.test(answer.message)) return true;
  return run.budgeted && /There is no change|no longer has all its changes on record|holds no change of session/.test(answer.message);
}

function applied(run: Run, index: number): void {
  run.applied++;
  run.made[index]++;
}

async function revertLast(run: Run, worker: Worker, index: number, sessionId: string): Promise<void> {
  const { records } = await worker.call<{ records: WorkerRecord[] }>('list', { sessionId });
  const [newest] = records;
  if (!newest) return;
  const answer = await worker.call<RevertAnswer>('revert', { target: { changeId: newest.id }, sessionId });
  if (answer.ok) {
    for (const file of newest.files) {
      const before = run.contents.get(file.before!);
      assert.strictEqual(fs.readFileSync(file.path, 'utf8'), before, run.note(`the revert of ${newest.id} did not restore the content before it`));
      run.expected.set(file.path, before!);
    }
    applied(run, index);
    return;
  }
  if (/no longer holds the file contents/.test(answer.message)) {
    const still = (await worker.call<{ records: WorkerRecord[] }>('list', { sessionId })).records.some((record) => record.id === newest.id);
    assert.ok(!still, run.note(`a change on record could not be reverted: ${answer.message}`));
    return;
  }
  assert.ok(allowedRefusal(run, index, answer), run.note(`the revert of ${newest.id} was refused: ${answer.code}: ${answer.message}`));
}

async function revertSession(run: Run, worker: Worker, index: number, sessionId: string): Promise<void> {
  const answer = await worker.call<RevertAnswer>('revert', { target: { sessionId }, sessionId });
  if (!answer.ok) {
    assert.ok(allowedRefusal(run, index, answer), run.note(`the revert of session ${sessionId} was refused: ${answer.code}: ${answer.message}`));
    return;
  }
  for (const file of run.filesOf(index)) {
    assert.strictEqual(fs.readFileSync(file, 'utf8'), run.initial.get(file), run.note(`the revert of session ${sessionId} left ${path.basename(file)} changed`));
    run.expected.set(file, run.initial.get(file)!);
  }
  applied(run, index);
}

async function operate(run: Run, worker: Worker, index: number, pick: Pick): Promise<void> {
  const sessionId = `w${index}`;
  for (const op of opsOf(pick, run.budgeted, index === 0)) {
    if (op === 'write') await write(run, worker, index, pick);
    else if (op === 'revertLast') await revertLast(run, worker, index, sessionId);
    else if (op === 'revertSession') await revertSession(run, worker, index, sessionId);
    else if (op === 'list') await worker.call('list');
    else if (op === 'openList') await worker.call('openList', { times: 2, everyMs: 1 });
    else await worker.call('configure', { maxBytes: 6_000 });
  }
}

/** The folder as the processes left it (see the header). */
async function checkFolder(run: Run): Promise<void> {
  const damaged = path.join(run.dir, 'damaged');
  if (fs.existsSync(damaged)) assert.fail(run.note(`files were set aside as damaged: ${fs.readdirSync(damaged, { recursive: true }).join(', ')}`));
  const history = createHistory({ dir: run.dir });
  const listing = await history.listing();
  assert.deepStrictEqual(listing.unreadable, [], run.note('every record file reads'));
  assert.strictEqual(listing.records.length, fs.readdirSync(path.join(run.dir, 'records')).filter((name) => name.endsWith('.json')).length, run.note('every record file is listed'));
  for (const record of listing.records) {
    const contents = await history.revertContents(record);
    assert.ok('change' in contents, run.note(`the contents of ${record.id} are gone: ${JSON.stringify(contents)}`));
  }
  if (!run.budgeted) assert.strictEqual(listing.records.length, run.applied, run.note('without a budget, every change made is on record'));
  for (let index = 0; index < WORKERS; index++) {
    const session = listing.records.filter((record) => record.sessionId === `w${index}`);
    const missing = missingLinks(session);
    const oldest = session[session.length - 1];
    assert.ok(missing.length === 0 || (run.budgeted && missing.length === 1 && oldest.previous === missing[0]), run.note(`session w${index} lost changes other than its oldest: ${missing}`));
  }
  for (const [file, content] of run.expected) assert.strictEqual(fs.readFileSync(file, 'utf8'), content, run.note(`${path.basename(file)} holds what the run wrote last`));
}

/** Every session reverted by a fresh guard: each file back as it started, or refused for what the budget took. */
async function revertAll(run: Run): Promise<void> {
  const guard = createGuard({ roots: [run.root], history: { dir: run.dir } });
  try {
    for (let index = 0; index < WORKERS; index++) {
      const result = await guard.revert({ sessionId: `w${index}` });
      if (!result.ok) {
        assert.ok(allowedRefusal(run, index, { ok: false, code: result.code, message: result.message }), run.note(`the final revert of w${index} was refused: ${result.code}: ${result.message}`));
        continue;
      }
      for (const file of run.filesOf(index)) assert.strictEqual(fs.readFileSync(file, 'utf8'), run.initial.get(file), run.note(`the final revert of w${index} left ${path.basename(file)} changed`));
    }
  } finally {
    await guard.dispose();
  }
}

async function oneRun(seed: number): Promise<void> {
  const run = new Run(seed, seed % 2 === 0, rng(seed));
  const workers: Worker[] = [];
  try {
    for (let index = 0; index < WORKERS; index++) {
      for (const file of run.filesOf(index)) {
        const content = run.known(`initial ${path.basename(file)}\n`);
        fs.writeFileSync(file, content);
        run.initial.set(file, content);
        run.expected.set(file, content);
      }
      workers.push(await startWorker({ roots: [run.root], dir: run.dir, sessionId: `w${index}`, ...(run.budgeted && index === 0 ? { maxBytes: 6_000 } : {}) }));
    }
    // Each process's operations and choices from a generator of its own: the same seed, the same operations,
    // however the processes interleave.
    await Promise.all(workers.map((worker, index) => operate(run, worker, index, rng(seed * 31 + index + 1))));
  } finally {
    await Promise.all(workers.map((worker) => worker.end()));
  }
  await checkFolder(run);
  await revertAll(run);
}

suite('history: seeded property: several processes editing, listing, reverting and budgeting one folder', () => {
  test(`${RUNS} runs of ${WORKERS} processes × ${OPS} operations: every record intact, every revert correct`, async function () {
    this.timeout(120_000 + RUNS * 60_000);
    const base = seeded().seed;
    console.log(`      seed ${base} (rerun with READGATE_SEED=${base})`);
    // Consecutive seeds alternate: an even seed is a run with a budget, an odd one without.
    for (let i = 0; i < RUNS; i++) await oneRun((base + i) % 0xffffffff);
  });
});
