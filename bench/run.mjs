// ReadGate benchmark: `npm run bench` (builds dist/ first). Not part of `npm test`.
//
// The parent process only orchestrates: it makes one temp dir, creates the big fixtures, and runs every part
// in a fresh child (`node --expose-gc bench/run.mjs --part <name> ...`) so memory baselines (heapUsed, RSS,
// maxRSS) are not polluted by the other parts. Each child prints one `@@RESULT <json>` line; the parent
// prints the sections and the final table, then deletes the temp dir. At the end it runs the trajectory replay
// (bench/replay.mjs) as notes. See bench/README.md.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const require = createRequire(import.meta.url);

// ---------------------------------------------------------------------------------------------- helpers

const nowNs = () => Number(process.hrtime.bigint());
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(q * (s.length - 1))))];
};
const summary = (ns) => ({ n: ns.length, medianUs: median(ns) / 1e3, p10Us: quantile(ns, 0.1) / 1e3, p90Us: quantile(ns, 0.9) / 1e3 });
const gc = () => {
  if (typeof global.gc === 'function') for (let i = 0; i < 3; i++) global.gc();
};
let sink = 0; // keeps results alive so nothing is optimized away
function check(condition, what) {
  if (!condition) throw new Error(`bench sanity check failed: ${what}`);
}
function fail(message) {
  console.error(message);
  process.exitCode = 1;
}

/** 80-byte lines (79 characters + '\n'), each unique by its number. */
const FILLER = 'the quick brown fox jumps over the lazy dog while the guard keeps track of it';
function line80(n, tag = '') {
  const head = `${String(n).padStart(8, '0')} ${tag}`;
  return (head + FILLER).slice(0, 79).padEnd(79, '.') + '\n';
}

function loadCore() {
  return require(path.join(root, 'dist/core.js'));
}

// ------------------------------------------------------------------------------------ part 1+2: ops

const MARK_A = 'const benchValue = "alpha"; // the line the edit benchmark flips';
const MARK_B = 'const benchValue = "bravo"; // the line the edit benchmark flips';

function makeText(bytes) {
  const lines = Math.max(3, Math.round(bytes / 80));
  const out = [];
  for (let i = 1; i <= lines; i++) out.push(i === (lines >> 1) ? MARK_A.padEnd(79, ' ') + '\n' : line80(i, 'src '));
  return out.join('');
}

const SIZES = [
  { name: '1 KB', bytes: 1024, reads: 3000, writes: 300 },
  { name: '20 KB', bytes: 20 * 1024, reads: 3000, writes: 300 },
  { name: '2 MB', bytes: 2 * 1024 * 1024, reads: 150, writes: 80 },
];
const ROUNDS = 5; // floors and guarded operations are interleaved in rounds, so drift hits both alike

/** A bench-only CommonJS bundle of one core module (internals dist/core.js does not export), loaded. */
async function benchBundle(dir, entry) {
  const esbuild = await import('esbuild');
  const outfile = path.join(dir, `${path.basename(entry, '.ts')}.bench.cjs`);
  await esbuild.build({ entryPoints: [path.join(root, entry)], bundle: true, format: 'cjs', platform: 'node', target: 'node20', outfile, logLevel: 'warning', absWorkingDir: root });
  return require(outfile);
}

async function partOps(dir) {
  const { createGuard } = loadCore();
  // Limits raised so a "full read" of 2 MB really returns the whole file (and can be deduplicated: a
  // truncated read never gets the placeholder). A second guard with default limits is measured too.
  const bigLimits = { maxLines: 1_000_000, maxBytes: 64 * 1024 * 1024 };
  const guard = createGuard({ roots: [dir], limits: bigLimits });
  const defaultGuard = createGuard({ roots: [dir] });
  const results = {};
  for (const size of SIZES) {
    const text = makeText(size.bytes);
    const bytesA = Buffer.from(text);
    const bytesB = Buffer.from(text.replace(MARK_A, MARK_B));
    const tag = size.name.replace(' ', '');
    const readPath = path.join(dir, `read-${tag}.ts`);
    const editPath = path.join(dir, `edit-${tag}.ts`);
    const floorWritePath = path.join(dir, `atomic-${tag}.ts`);
    fs.writeFileSync(readPath, bytesA);
    fs.writeFileSync(editPath, bytesA);
    fs.writeFileSync(floorWritePath, bytesA);
    const totalLines = text.split('\n').length - 1;

    const reader = guard.session(`reader-${tag}`);
    const deduper = guard.session(`dedup-${tag}`);
    const editor = guard.session(`editor-${tag}`);
    const defaultReader = defaultGuard.session(`reader-${tag}`);
    const first = await deduper.read(readPath);
    check(first.ok && first.kind === 'content' && !first.truncated && first.endLine === totalLines, `first read of ${size.name}`);
    const seen = await editor.read(editPath);
    check(seen.ok && seen.kind === 'content' && !seen.truncated, `editor read of ${size.name}`);

    let editState = 0; // 0: file holds MARK_A
    let floorState = 0;
    let tempCounter = 0;
    let defaultEndLine = 0;
    const ops = {
      readFloor: async () => {
        const t = nowNs();
        const st = fs.statSync(readPath);
        const s = fs.readFileSync(readPath).toString();
        const d = nowNs() - t;
        sink += s.length + st.size;
        return d;
      },
      guardedRead: async () => {
        const t = nowNs();
        const r = await reader.read(readPath, { force: true });
        const d = nowNs() - t;
        check(r.ok && r.kind === 'content' && r.endLine === totalLines && r.text.length > text.length, `guarded full read of ${size.name} returns content`);
        return d;
      },
      defaultRead: async () => {
        const t = nowNs();
        const r = await defaultReader.read(readPath, { force: true });
        const d = nowNs() - t;
        check(r.ok && r.kind === 'content', `default-limits read of ${size.name}`);
        defaultEndLine = r.endLine;
        sink += r.text.length;
        return d;
      },
      dedupHit: async () => {
        const t = nowNs();
        const r = await deduper.read(readPath);
        const d = nowNs() - t;
        check(r.ok && r.kind === 'unchanged', `second read of ${size.name} is a dedup hit`);
        return d;
      },
      atomicFloor: async () => {
        const data = floorState === 0 ? bytesB : bytesA;
        const t = nowNs();
        const temp = path.join(dir, `.atomic-${tag}.${process.pid}-${tempCounter++}.tmp`);
        const fd = fs.openSync(temp, 'wx', 0o644);
        fs.writeSync(fd, data, 0, data.length, 0);
        fs.fsyncSync(fd);
        fs.closeSync(fd);
        fs.renameSync(temp, floorWritePath);
        const d = nowNs() - t;
        floorState ^= 1;
        return d;
      },
      guardedEdit: async () => {
        const [oldString, newString] = editState === 0 ? [MARK_A, MARK_B] : [MARK_B, MARK_A];
        const t = nowNs();
        const r = await editor.edit(editPath, [{ oldString, newString }]);
        const d = nowNs() - t;
        check(r.ok, `guarded edit of ${size.name}: ${r.ok ? '' : `${r.code} ${r.message}`}`);
        editState ^= 1;
        return d;
      },
    };
    const counts = { readFloor: size.reads, guardedRead: size.reads, defaultRead: size.name === '2 MB' ? size.reads : 0, dedupHit: size.reads, atomicFloor: size.writes, guardedEdit: size.writes };
    const samples = Object.fromEntries(Object.keys(ops).map((k) => [k, []]));
    // Warm-up: a fifth of a round of everything, not recorded.
    for (const [name, op] of Object.entries(ops)) {
      for (let i = 0; i < Math.max(5, Math.ceil(counts[name] / ROUNDS / 5)) && counts[name]; i++) await op();
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, op] of Object.entries(ops)) {
        gc();
        const n = Math.ceil(counts[name] / ROUNDS);
        // The first calls after switching operations run with colder caches: warm each batch, drop those.
        for (let i = 0; i < Math.max(2, Math.ceil(n / 10)); i++) await op();
        for (let i = 0; i < n; i++) samples[name].push(await op());
      }
    }
    check(fs.readFileSync(editPath).toString() === (editState === 0 ? text : text.replace(MARK_A, MARK_B)), `edited ${size.name} file holds the expected bytes`);
    results[size.name] = Object.fromEntries(Object.entries(samples).filter(([, v]) => v.length).map(([k, v]) => [k, summary(v)]));
    results[size.name].lines = totalLines;
    results[size.name].bytes = bytesA.length;
    results[size.name].defaultEndLine = defaultEndLine;
  }
  guard.dispose();
  defaultGuard.dispose();
  return results;
}

// ---------------------------------------------------------------------------------- part 3: big file

const BIG_LINES = 2_600_000;
const BLOCK_LINES = 10_000;

function createBigFile(file) {
  const block = Buffer.alloc(BLOCK_LINES * 80);
  for (let i = 0; i < BLOCK_LINES; i++) block.write(line80(0, 'big '), i * 80, 'latin1');
  const fd = fs.openSync(file, 'w');
  try {
    for (let start = 1; start <= BIG_LINES; start += BLOCK_LINES) {
      const count = Math.min(BLOCK_LINES, BIG_LINES - start + 1);
      for (let i = 0; i < count; i++) block.write(String(start + i).padStart(8, '0'), i * 80, 'latin1');
      fs.writeSync(fd, block, 0, count * 80);
    }
  } finally {
    fs.closeSync(fd);
  }
}

const POSITIONS = { head: 1, middle: BIG_LINES / 2, tail: BIG_LINES - 9 };

/** A worker thread that samples the process RSS every ~0.5 ms, so synchronous reads cannot hide a peak. */
function startRssSampler() {
  const shared = new Int32Array(new SharedArrayBuffer(16)); // [running, peakKiB, samples, sleep slot]
  shared[0] = 1;
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const a = workerData;
     while (Atomics.load(a, 0) === 1) {
       const kib = Math.floor(process.memoryUsage.rss() / 1024);
       if (kib > Atomics.load(a, 1)) Atomics.store(a, 1, kib);
       Atomics.add(a, 2, 1);
       Atomics.wait(a, 3, 0, 0.5);
     }`,
    { eval: true, workerData: shared },
  );
  return {
    ready: () => new Promise((resolve) => setTimeout(resolve, 50)),
    reset() {
      Atomics.store(shared, 1, Math.floor(process.memoryUsage.rss() / 1024));
      Atomics.store(shared, 2, 0);
    },
    peakBytes: () => Atomics.load(shared, 1) * 1024,
    samples: () => Atomics.load(shared, 2),
    async stop() {
      Atomics.store(shared, 0, 0);
      await worker.terminate();
    },
  };
}

const MEASURED_BIG = 5;

async function partBig(dir, which) {
  const file = path.join(dir, 'big.log');
  let run;
  let verify;
  if (which.startsWith('floor')) {
    // Raw floors: readSync into one reused 1 MiB buffer.
    const hashOn = which === 'floor-hash';
    const xxhash = hashOn ? await require(path.join(root, 'node_modules/xxhash-wasm'))() : undefined;
    const target = which === 'floor-head' ? POSITIONS.head : which === 'floor-middle' ? POSITIONS.middle : POSITIONS.tail;
    const buffer = Buffer.allocUnsafeSlow(1 << 20);
    run = async () => {
      const fd = fs.openSync(file, 'r');
      const kept = [];
      let line = 1;
      let pos = 0;
      const state = hashOn ? xxhash.create64() : undefined;
      try {
        for (;;) {
          const count = fs.readSync(fd, buffer, 0, buffer.length, pos);
          if (count <= 0) break;
          const chunk = buffer.subarray(0, count);
          if (state) state.update(chunk);
          let at = 0;
          for (;;) {
            const nl = chunk.indexOf(10, at);
            if (line >= target && line < target + 10) kept.push(Buffer.from(chunk.subarray(at, nl === -1 ? count : nl)));
            if (nl === -1) break;
            line++;
            at = nl + 1;
          }
          pos += count;
          if (!hashOn && line >= target + 10) break; // stop early: the floor for a range whose end is known
        }
      } finally {
        fs.closeSync(fd);
      }
      if (state) sink += Number(state.digest() & 0xffn);
      return kept;
    };
    verify = (kept) => check(kept.length >= 10 && kept[0].toString('latin1').startsWith(String(target).padStart(8, '0')), `raw floor ${which} finds line ${target}`);
  } else {
    const { createGuard } = loadCore();
    fs.writeFileSync(path.join(dir, 'warm.txt'), 'warm\n');
    const guard = createGuard({ roots: [dir] });
    const session = guard.session('big');
    await session.read(path.join(dir, 'warm.txt')); // loads the hasher and the code paths of a read
    const offset = POSITIONS[which];
    run = () => session.read(file, { offset, limit: 10, force: true });
    verify = (r) => check(
      r.ok && r.kind === 'content' && r.startLine === offset && r.endLine === offset + 9 && r.totalLines === BIG_LINES && r.text.includes(`\t${String(offset).padStart(8, '0')} big `),
      `guarded ${which} range read of the 200 MB file returns lines ${offset}-${offset + 9}: ${r.ok ? r.text.slice(0, 200) : r.code}`,
    );
  }
  gc();
  const baseline = process.memoryUsage.rss();
  const maxRssBaseline = process.resourceUsage().maxRSS * 1024;
  const times = [];
  let peakSampled = 0;
  let rssAfter = 0;
  // Timed calls first, without the sampler: its thread would compete for the two cores and for the memory
  // map lock the page faults of the scan need.
  for (let i = 0; i <= MEASURED_BIG; i++) {
    const t = nowNs();
    const result = await run();
    const d = nowNs() - t;
    rssAfter = process.memoryUsage.rss();
    verify(result);
    if (i > 0) times.push(d); // the first call is the warm-up
  }
  const sampler = startRssSampler();
  await sampler.ready();
  for (let i = 0; i < 2; i++) {
    sampler.reset();
    const before = process.memoryUsage.rss();
    verify(await run());
    peakSampled = Math.max(peakSampled, sampler.peakBytes() - before);
  }
  const maxRss = process.resourceUsage().maxRSS * 1024;
  const samples = sampler.samples();
  await sampler.stop();
  return {
    which,
    time: summary(times),
    rssBaselineMB: baseline / 2 ** 20,
    // Highest RSS seen by the 0.5 ms sampler during a call, minus the RSS right before that call.
    peakSampledDeltaMB: peakSampled / 2 ** 20,
    // Process high-water mark at the end minus the RSS before the first call (fresh process; includes all calls).
    maxRssDeltaMB: Math.max(0, maxRss - Math.max(baseline, 0)) / 2 ** 20,
    maxRssRaisedMB: Math.max(0, maxRss - maxRssBaseline) / 2 ** 20,
    rssAfterDeltaMB: (rssAfter - baseline) / 2 ** 20,
    samplesLastCall: samples,
  };
}

// ---------------------------------------------------------------------------- part 4: preview diff

const DIFF_LINES = 20_000;

function rewriteTexts() {
  const a = [];
  const b = [];
  for (let i = 1; i <= DIFF_LINES; i++) {
    a.push(`  export const alpha${i} = computeSomething(${i}, "first version of line ${i}");\n`);
    b.push(`  export const bravo${i} = computeOtherThing(${i * 7}, 'second version, line ${i}');\n`);
  }
  return [a.join(''), b.join('')];
}

async function partDiff(dir) {
  const [textA, textB] = rewriteTexts();
  const file = path.join(dir, 'rewrite.ts');
  fs.writeFileSync(file, textA);
  const out = {};

  // (a) The whole guarded write; the approve port only touches the diff the guard computed for it.
  {
    const { createGuard } = loadCore();
    let approvedAt = 0;
    let diffHead = '';
    const guard = createGuard({
      roots: [dir],
      limits: { maxLines: 100_000, maxBytes: 64 * 1024 * 1024 },
      approve: async (request) => {
        approvedAt = nowNs();
        sink += request.files[0].diff.length;
        diffHead = request.files[0].diff.slice(0, 200);
        return { approved: true };
      },
    });
    const session = guard.session('writer');
    const r0 = await session.read(file);
    check(r0.ok && r0.kind === 'content' && !r0.truncated && r0.totalLines === DIFF_LINES, 'full read before the 20k-line write');
    const totals = [];
    const toApproval = [];
    let state = 0;
    for (let i = 0; i <= 6; i++) {
      const next = state === 0 ? textB : textA;
      gc();
      const t = nowNs();
      const r = await session.write(file, next);
      const d = nowNs() - t;
      check(r.ok, `20k-line write: ${r.ok ? '' : `${r.code} ${r.message.slice(0, 300)}`}`);
      check(diffHead.includes(`\n@@ -1,${DIFF_LINES} +1,${DIFF_LINES} @@\n`), `the approval diff is one whole-file hunk: ${diffHead.slice(0, 120)}`);
      state ^= 1;
      if (i > 0) {
        totals.push(d);
        toApproval.push(approvedAt - t);
      }
    }
    check(fs.readFileSync(file, 'utf8') === (state === 0 ? textA : textB), 'the 20k-line write left the expected bytes');
    guard.dispose();
    out.write = summary(totals);
    out.toApproval = summary(toApproval);
  }

  // (b) The diff functions alone, from a bench-only bundle of src/core/edit/lineDiff.ts (not exported by dist/core.js).
  {
    const { computeLineChanges, formatUnifiedDiff } = await benchBundle(dir, 'src/core/edit/lineDiff.ts');
    const compute = [];
    const format = [];
    const both = [];
    let hunks = 0;
    for (let i = 0; i <= 8; i++) {
      const [from, to] = i % 2 ? [textB, textA] : [textA, textB];
      gc();
      const t0 = nowNs();
      const changes = computeLineChanges(from, to);
      const t1 = nowNs();
      const diff = formatUnifiedDiff('rewrite.ts', from, to, changes);
      const t2 = nowNs();
      check(diff.text.split('\n').length >= 2 * DIFF_LINES + 3, 'the unified diff of a full rewrite lists every line');
      hunks = changes.length;
      sink += diff.text.length;
      if (i > 0) {
        compute.push(t1 - t0);
        format.push(t2 - t1);
        both.push(t2 - t0);
      }
    }
    out.compute = summary(compute);
    out.format = summary(format);
    out.both = summary(both);
    out.hunks = hunks;
  }
  return out;
}

// ------------------------------------------------------------------------- part 5: many edits in one call

const EDIT_LINES = 5_000;
const EDIT_COUNTS = [1, 100, 1_000];

/** 5,000 lines of about 60 bytes, each with a token of its own for the edits to rename. */
function manyEditsText() {
  const lines = [];
  for (let i = 0; i < EDIT_LINES; i++) lines.push(`  const value${i} = compute(${i}, "token_${i}_end"); // ${i + 1}\n`);
  return lines.join('');
}

/** `count` edits spread over the file (7919 is prime, so the lines are distinct), renaming forward or back. */
function renames(count, forward) {
  return Array.from({ length: count }, (_, k) => {
    const i = (k * 7919) % EDIT_LINES;
    const [a, b] = [`token_${i}_end`, `TOKEN_${i}_END`];
    return forward ? { oldString: a, newString: b } : { oldString: b, newString: a };
  });
}

async function partEdits(dir) {
  const text = manyEditsText();
  const file = path.join(dir, 'many-edits.ts');
  fs.writeFileSync(file, text);
  const out = { bytes: Buffer.byteLength(text), guarded: {}, pure: {} };

  // (a) Whole guarded edit calls (default approve, so each writes the file); each call renames forward or back.
  {
    const { createGuard } = loadCore();
    const guard = createGuard({ roots: [dir], limits: { maxLines: 100_000, maxBytes: 64 * 1024 * 1024 } });
    const session = guard.session('editor');
    const r0 = await session.read(file);
    check(r0.ok && r0.kind === 'content' && !r0.truncated && r0.totalLines === EDIT_LINES, 'full read before the many-edits calls');
    for (const count of EDIT_COUNTS) {
      const times = [];
      const pairs = count === 1_000 ? 4 : 10;
      for (let i = 0; i < 2 * (pairs + 1); i++) {
        const edits = renames(count, i % 2 === 0);
        gc();
        const t = nowNs();
        const r = await session.edit(file, edits);
        const d = nowNs() - t;
        check(r.ok, `guarded edit call with ${count} edits: ${r.ok ? '' : `${r.code} ${r.message.slice(0, 300)}`}`);
        if (i >= 2) times.push(d); // the first pair warms up
      }
      out.guarded[count] = summary(times);
    }
    check(fs.readFileSync(file, 'utf8') === text, 'the many-edits calls renamed every token back');
    guard.dispose();
  }

  // (b) applyEdits alone, from a bench-only bundle of src/core/edit/applyEdits.ts (not exported by dist/core.js).
  {
    const { applyEdits } = await benchBundle(dir, 'src/core/edit/applyEdits.ts');
    for (const count of EDIT_COUNTS) {
      const edits = renames(count, true);
      const times = [];
      const runs = count === 1_000 ? 8 : 20;
      for (let i = 0; i <= runs; i++) {
        gc();
        const t = nowNs();
        const r = applyEdits(text, edits, [1, EDIT_LINES]);
        const d = nowNs() - t;
        check(r.ok && r.replacements === count, `applyEdits with ${count} edits`);
        sink += r.text.length;
        if (i > 0) times.push(d);
      }
      out.pure[count] = summary(times);
    }
  }
  return out;
}

// ------------------------------------------------------------------------------- part 6: ledger size

const LEDGER_FILES = 10_000;

function createLedgerFiles(dir) {
  const files = [];
  for (let d = 0; d < 100; d++) {
    const sub = path.join(dir, 'ledger', `pkg${String(d).padStart(2, '0')}`);
    fs.mkdirSync(sub, { recursive: true });
    for (let f = 0; f < LEDGER_FILES / 100; f++) {
      const file = path.join(sub, `module${String(f).padStart(3, '0')}.ts`);
      fs.writeFileSync(file, `// module ${d}/${f}\nexport const id = ${d * 1000 + f};\nexport function name() {\n  return 'module-${d}-${f}';\n}\n`);
      files.push(file);
    }
  }
  return files;
}

async function partLedger(dir, mode) {
  const { createGuard } = loadCore();
  const files = [];
  for (let d = 0; d < 100; d++) {
    for (let f = 0; f < LEDGER_FILES / 100; f++) files.push(path.join(dir, 'ledger', `pkg${String(d).padStart(2, '0')}`, `module${String(f).padStart(3, '0')}.ts`));
  }
  // Warm the code paths and the hasher with a throwaway guard.
  {
    const warm = createGuard({ roots: [dir] });
    const s = warm.session('warm');
    for (let i = 0; i < 50; i++) await s.read(files[i]);
    warm.dispose();
  }
  const guard = createGuard({ roots: [dir], ...(mode === 'nosnap' ? { snapshotBudgetBytes: 1 } : {}) });
  const session = guard.session('ledger');
  let textBytes = 0;
  gc();
  const before = process.memoryUsage().heapUsed;
  for (const file of files) {
    const r = await session.read(file);
    check(r.ok && r.kind === 'content', `ledger read of ${file}`);
    textBytes += r.text.length;
  }
  gc();
  const after = process.memoryUsage().heapUsed;
  check((await session.check(files[0])) === 'fresh', 'the first of the 10,000 files is still tracked');
  check((await session.check(files[files.length - 1])) === 'fresh', 'the last of the 10,000 files is still tracked');
  const fileBytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
  sink += textBytes;
  guard.dispose();
  return { mode, files: files.length, deltaBytes: after - before, perEntry: (after - before) / files.length, avgFileBytes: fileBytes / files.length, avgPathChars: files.reduce((n, f) => n + f.length, 0) / files.length };
}

// ----------------------------------------------------------------------------------------- parent

function runChild(dir, part, extra) {
  const args = ['--expose-gc', fileURLToPath(import.meta.url), '--part', part, dir, ...(extra ? [extra] : [])];
  const child = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024, timeout: 240_000 });
  if (child.status !== 0) throw new Error(`bench part ${part} ${extra ?? ''} failed (exit ${child.status}${child.signal ? `, ${child.signal}` : ''})`);
  const line = child.stdout.split('\n').find((l) => l.startsWith('@@RESULT '));
  if (!line) throw new Error(`bench part ${part} printed no result:\n${child.stdout}`);
  return JSON.parse(line.slice('@@RESULT '.length));
}

const us = (v) => (v >= 10_000 ? `${(v / 1000).toFixed(1)} ms` : v >= 1000 ? `${(v / 1000).toFixed(2)} ms` : `${v.toFixed(1)} µs`);
const ms = (v) => `${v.toFixed(1)} ms`;
const mb = (v) => `${v.toFixed(1)} MB`;

function table(rows, headers) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i] ?? '').length)));
  const fmt = (r) => r.map((c, i) => (i === 0 ? String(c ?? '').padEnd(widths[i]) : String(c ?? '').padStart(widths[i]))).join('  ');
  return [fmt(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

async function main() {
  const started = Date.now();
  console.log(`ReadGate bench · Node ${process.version} · ${os.platform()} ${os.arch()} · ${os.cpus().length} CPU (${os.cpus()[0]?.model ?? '?'})`);
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-bench-')));
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true });
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  const targets = [];
  const final = [];
  const verdict = (ok) => (ok ? 'PASS' : 'MISS');
  try {
    // 1+2 ------------------------------------------------------------------------------------------
    process.stdout.write('\n[1/6] floors and guarded operations (1 KB, 20 KB, 2 MB) ... ');
    let t = Date.now();
    const ops = runChild(dir, 'ops');
    console.log(`${((Date.now() - t) / 1000).toFixed(1)} s`);
    const opRows = [];
    for (const size of SIZES) {
      const r = ops[size.name];
      const rf = r.readFloor.medianUs;
      const wf = r.atomicFloor.medianUs;
      const p = (s) => `${us(s.p10Us)}–${us(s.p90Us)}`;
      opRows.push([`raw read floor: stat+readFileSync+toString`, size.name, us(rf), p(r.readFloor), '1.00×', r.readFloor.n]);
      opRows.push([`guarded full read (force: true)`, size.name, us(r.guardedRead.medianUs), p(r.guardedRead), `${(r.guardedRead.medianUs / rf).toFixed(2)}×`, r.guardedRead.n]);
      if (r.defaultRead) opRows.push([`  same, default limits (shows lines 1–${r.defaultEndLine})`, size.name, us(r.defaultRead.medianUs), p(r.defaultRead), `${(r.defaultRead.medianUs / rf).toFixed(2)}×`, r.defaultRead.n]);
      opRows.push([`dedup hit (kind 'unchanged')`, size.name, us(r.dedupHit.medianUs), p(r.dedupHit), `${(r.dedupHit.medianUs / rf).toFixed(2)}×`, r.dedupHit.n]);
      opRows.push([`raw atomic write floor: temp+fsync+rename`, size.name, us(wf), p(r.atomicFloor), '1.00×', r.atomicFloor.n]);
      opRows.push([`guarded edit (one line, default approve)`, size.name, us(r.guardedEdit.medianUs), p(r.guardedEdit), `${(r.guardedEdit.medianUs / wf).toFixed(2)}×`, r.guardedEdit.n]);
      final.push([`read ${size.name}: raw floor / guarded / dedup hit`, `${us(rf)} / ${us(r.guardedRead.medianUs)} / ${us(r.dedupHit.medianUs)}`, `${(r.guardedRead.medianUs / rf).toFixed(2)}× / ${(r.dedupHit.medianUs / rf).toFixed(2)}×`]);
      final.push([`edit ${size.name}: atomic floor / guarded edit`, `${us(wf)} / ${us(r.guardedEdit.medianUs)}`, `${(r.guardedEdit.medianUs / wf).toFixed(2)}×`]);
    }
    console.log(table(opRows, ['operation', 'size', 'median', 'p10–p90', 'ratio', 'n']));
    console.log('ratio: guarded read and dedup hit vs the raw read floor; guarded edit vs the raw atomic write floor (same run).');
    {
      const r = ops['20 KB'];
      const x = r.guardedRead.medianUs / r.readFloor.medianUs;
      targets.push(['guarded full read 20 KB ≤ 3× raw read floor', `${x.toFixed(2)}×`, verdict(x <= 3)]);
      const d = r.dedupHit.medianUs / r.readFloor.medianUs;
      targets.push(['dedup hit 20 KB ≤ 2× raw read floor', `${d.toFixed(2)}×`, verdict(d <= 2)]);
      const e = r.guardedEdit.medianUs / r.atomicFloor.medianUs;
      targets.push(['guarded edit 20 KB ≤ 1.5× atomic write floor', `${e.toFixed(2)}×`, verdict(e <= 1.5)]);
      const r2 = ops['2 MB'];
      const e2 = r2.guardedEdit.medianUs / r2.atomicFloor.medianUs;
      targets.push(['guarded edit 2 MB ≤ 2× atomic write floor', `${e2.toFixed(2)}×`, verdict(e2 <= 2)]);
    }

    // 3 ---------------------------------------------------------------------------------------------
    process.stdout.write(`\n[2/6] 200 MB file (${BIG_LINES.toLocaleString('en-US')} lines of 80 bytes): creating ... `);
    t = Date.now();
    createBigFile(path.join(dir, 'big.log'));
    const bigSize = fs.statSync(path.join(dir, 'big.log')).size;
    check(bigSize === BIG_LINES * 80, '200 MB file size');
    process.stdout.write(`${((Date.now() - t) / 1000).toFixed(1)} s; measuring ... `);
    t = Date.now();
    const big = {};
    for (const which of ['floor-head', 'floor-middle', 'floor-tail', 'floor-hash', 'head', 'middle', 'tail']) big[which] = runChild(dir, 'big', which);
    console.log(`${((Date.now() - t) / 1000).toFixed(1)} s`);
    const bigRows = [];
    const bigRow = (label, r, floor) => [label, ms(r.time.medianUs / 1000), floor ? `${(r.time.medianUs / floor.time.medianUs).toFixed(2)}×` : '', mb(r.peakSampledDeltaMB), mb(r.maxRssDeltaMB), mb(r.rssAfterDeltaMB), r.time.n];
    bigRows.push(bigRow('raw: readSync 1 MiB, stop after line 10 (head)', big['floor-head']));
    bigRows.push(bigRow('raw: readSync 1 MiB, stop after the middle', big['floor-middle']));
    bigRows.push(bigRow('raw: readSync 1 MiB, scan to the tail', big['floor-tail']));
    bigRows.push(bigRow('raw: readSync 1 MiB, whole file + xxh64 (wasm)', big['floor-hash']));
    for (const which of ['head', 'middle', 'tail']) bigRows.push(bigRow(`guarded ${which} range (limit 10)`, big[which], big['floor-tail']));
    console.log(table(bigRows, ['200 MB operation', 'median', 'vs raw tail', 'peak ΔRSS (sampled)', 'maxRSS Δ', 'RSS after Δ', 'n']));
    console.log('peak ΔRSS (sampled): a worker thread reads process RSS every ~0.5 ms (it runs while the main thread is blocked in');
    console.log('  readSync), max over calls of (peak during the call − RSS just before it). maxRSS Δ: getrusage high-water mark after');
    console.log('  all calls − RSS before the first call, in a fresh process per row. RSS after Δ: what stays resident afterwards.');
    for (const which of ['head', 'middle', 'tail']) {
      const r = big[which];
      final.push([`200 MB ${which} range (limit 10): time, peak ΔRSS`, `${ms(r.time.medianUs / 1000)}, ${mb(Math.max(r.peakSampledDeltaMB, r.maxRssDeltaMB))}`, `${(r.time.medianUs / big['floor-tail'].time.medianUs).toFixed(2)}× raw tail scan`]);
    }
    final.push(['200 MB raw floors: tail scan / whole file + xxh64', `${ms(big['floor-tail'].time.medianUs / 1000)} / ${ms(big['floor-hash'].time.medianUs / 1000)}`, '']);
    {
      const r = big.tail;
      const tms = r.time.medianUs / 1000;
      const rss = Math.max(r.peakSampledDeltaMB, r.maxRssDeltaMB);
      const vsRaw = r.time.medianUs / big['floor-tail'].time.medianUs;
      targets.push(['200 MB tail range ≤ 1.3× a raw scan to the tail', `${vsRaw.toFixed(2)}× (${ms(tms)})`, verdict(vsRaw <= 1.3)]);
      targets.push(['200 MB tail range ≤ 64 MB extra RSS', mb(rss), verdict(rss <= 64)]);
    }
    fs.rmSync(path.join(dir, 'big.log'));

    // 4 ---------------------------------------------------------------------------------------------
    process.stdout.write('\n[3/6] preview diff of a full 20,000-line rewrite ... ');
    t = Date.now();
    const diff = runChild(dir, 'diff');
    console.log(`${((Date.now() - t) / 1000).toFixed(1)} s`);
    console.log(table([
      ['guarded write (read → plan → approval diff → approve → verify → write → record)', ms(diff.write.medianUs / 1000), diff.write.n],
      ['  of which: start of write → approve port called', ms(diff.toApproval.medianUs / 1000), diff.toApproval.n],
      ['computeLineChanges (bundled src/core/edit/lineDiff.ts)', ms(diff.compute.medianUs / 1000), diff.compute.n],
      ['formatUnifiedDiff (all 40,000 body lines)', ms(diff.format.medianUs / 1000), diff.format.n],
      [`computeLineChanges + formatUnifiedDiff (${diff.hunks} change${diff.hunks === 1 ? '' : 's'})`, ms(diff.both.medianUs / 1000), diff.both.n],
    ], ['20k-line full rewrite', 'median', 'n']));
    final.push(['20k-line rewrite: diff functions / time to approve / whole write', `${ms(diff.both.medianUs / 1000)} / ${ms(diff.toApproval.medianUs / 1000)} / ${ms(diff.write.medianUs / 1000)}`, '']);
    targets.push(['preview diff of a full 20k-line rewrite ≤ 300 ms', ms(diff.both.medianUs / 1000), verdict(diff.both.medianUs / 1000 <= 300)]);

    // 5 ---------------------------------------------------------------------------------------------
    process.stdout.write(`\n[4/6] one edit call with many edits (${EDIT_LINES.toLocaleString('en-US')}-line file) ... `);
    t = Date.now();
    const many = runChild(dir, 'edits');
    console.log(`${((Date.now() - t) / 1000).toFixed(1)} s`);
    const g1 = many.guarded[1].medianUs;
    const p1 = many.pure[1].medianUs;
    console.log(table(EDIT_COUNTS.map((count) => {
      const g = many.guarded[count].medianUs;
      const p = many.pure[count].medianUs;
      return [`${count.toLocaleString('en-US')} edit${count === 1 ? '' : 's'} (distinct lines)`, us(g), `${(g / g1).toFixed(1)}×`, us(p), `${(p / p1).toFixed(1)}×`, us(p / count), many.guarded[count].n];
    }), [`edits per call, ${(many.bytes / 1024).toFixed(0)} KB file`, 'guarded call', 'vs 1 edit', 'applyEdits alone', 'vs 1 edit', 'per edit', 'n']));
    console.log('guarded call: read → plan (applyEdits) → approval diff → approve → verify → write → record; applyEdits alone from a');
    console.log('  bench-only bundle of src/core/edit/applyEdits.ts. Each edit renames a token on its own line; every line was read.');
    {
      const g = many.guarded[1_000].medianUs;
      const p = many.pure[1_000].medianUs / p1;
      final.push(['edit call with 1 / 1,000 edits (5,000-line file)', `${us(g1)} / ${us(g)}`, `${(g / g1).toFixed(1)}×`]);
      targets.push(['edit call with 1,000 edits ≤ 1 s (5,000-line file)', us(g), verdict(g <= 1e6)]);
      // Each further edit scans the text natively but must not index or copy it whole again.
      targets.push(['applyEdits: 1,000 edits ≤ 150× one edit', `${p.toFixed(0)}×`, verdict(p <= 150)]);
    }

    // 6 ---------------------------------------------------------------------------------------------
    process.stdout.write('\n[5/6] ledger memory at 10,000 tracked files: creating ... ');
    t = Date.now();
    createLedgerFiles(dir);
    process.stdout.write(`${((Date.now() - t) / 1000).toFixed(1)} s; measuring ... `);
    t = Date.now();
    const withSnap = runChild(dir, 'ledger', 'default');
    const noSnap = runChild(dir, 'ledger', 'nosnap');
    console.log(`${((Date.now() - t) / 1000).toFixed(1)} s`);
    console.log(table([
      ['default snapshot budget (the text of each version is kept)', `${withSnap.perEntry.toFixed(0)} B`, `${(withSnap.deltaBytes / 2 ** 20).toFixed(2)} MB`],
      ['snapshotBudgetBytes: 1 (no snapshot kept): ledger entry only', `${noSnap.perEntry.toFixed(0)} B`, `${(noSnap.deltaBytes / 2 ** 20).toFixed(2)} MB`],
    ], [`heapUsed after gc, ${noSnap.files.toLocaleString('en-US')} files of ~${noSnap.avgFileBytes.toFixed(0)} B, paths ~${noSnap.avgPathChars.toFixed(0)} chars`, 'per file', 'total']));
    final.push(['ledger per tracked file: with snapshots / entry only', `${withSnap.perEntry.toFixed(0)} B / ${noSnap.perEntry.toFixed(0)} B`, '']);
    targets.push(['≤ 600 bytes per ledger entry excluding snapshots', `${noSnap.perEntry.toFixed(0)} B`, verdict(noSnap.perEntry <= 600)]);

    // summary ---------------------------------------------------------------------------------------
    console.log(`\n[6/6] summary · Node ${process.version} · ${os.cpus().length} CPU · ${((Date.now() - started) / 1000).toFixed(0)} s total`);
    console.log(table(final, ['measurement (medians)', 'value', 'ratio']));
    console.log('');
    console.log(table(targets, ['target', 'measured', 'result']));
    const misses = targets.filter((r) => r[2] === 'MISS').length;
    console.log(`\n${targets.length - misses}/${targets.length} targets pass${misses ? `, ${misses} miss` : ''}. Node ${process.version}.`);

    // notes -----------------------------------------------------------------------------------------
    // What placeholders and deltas save on real agent trajectories (bench/replay.mjs): information, no target;
    // it prints "traces not found …, skipped" without ../shared/traces. Its own sanity check failing fails the run.
    console.log('\nnotes · trajectory replay (bench/replay.mjs, information only):');
    const replay = spawnSync(process.execPath, [path.join(here, 'replay.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], timeout: 240_000 });
    if (replay.status !== 0) fail(`trajectory replay failed (exit ${replay.status}${replay.signal ? `, ${replay.signal}` : ''})`);
    // What a Claude Code hook adds to each tool call (bench/hookCost.mjs): information, no target.
    console.log('\nnotes · the agent-context hook (bench/hookCost.mjs, information only):');
    const hook = spawnSync(process.execPath, [path.join(here, 'hookCost.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], timeout: 240_000 });
    if (hook.status !== 0) fail(`hook cost measurement failed (exit ${hook.status}${hook.signal ? `, ${hook.signal}` : ''})`);
    // What the agent hook of VS Code's agents adds to each tool call (bench/agentHookCost.mjs), against its targets.
    console.log('\nnotes · the agent hook of VS Code\'s agents (bench/agentHookCost.mjs, Node start-up + ≤ 15 ms judged, ≤ 2 ms other):');
    const agentHook = spawnSync(process.execPath, [path.join(here, 'agentHookCost.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], timeout: 240_000 });
    if (agentHook.status !== 0) fail(`agent hook cost measurement failed (exit ${agentHook.status}${agentHook.signal ? `, ${agentHook.signal}` : ''})`);
    // The same hook as the agent CLIs run it for their own tools, against the headless hook guard (bench/cliHookCost.mjs).
    console.log('\nnotes · the agent CLIs\' own-tools hook (bench/cliHookCost.mjs, Node start-up + ≤ 15 ms judged, ≤ 2 ms other):');
    const cliHook = spawnSync(process.execPath, [path.join(here, 'cliHookCost.mjs')], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], timeout: 240_000 });
    if (cliHook.status !== 0) fail(`agent CLI hook cost measurement failed (exit ${cliHook.status}${cliHook.signal ? `, ${cliHook.signal}` : ''})`);
  } catch (error) {
    fail(error?.stack ?? String(error));
  } finally {
    cleanup();
  }
}

// ------------------------------------------------------------------------------------------- child entry

const argv = process.argv.slice(2);
if (argv[0] === '--part') {
  const [, part, dir, extra] = argv;
  const parts = { ops: () => partOps(dir), big: () => partBig(dir, extra), diff: () => partDiff(dir), edits: () => partEdits(dir), ledger: () => partLedger(dir, extra) };
  try {
    const result = await parts[part]();
    process.stdout.write(`@@RESULT ${JSON.stringify(result)}\n`);
  } catch (error) {
    console.error(error?.stack ?? String(error));
    process.exit(1);
  }
} else {
  await main();
}
