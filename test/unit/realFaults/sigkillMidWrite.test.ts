/**
 * SIGKILL mid-write: a child guard rewrites a 4 MB file over and over, alternating two known contents A and B
 * (read, then write), and is SIGKILLed at seeded random moments, 5-200 ms after its first write applied (so
 * the kills fall anywhere in the following writes, not in its start-up). After every kill the file holds
 * exactly the original, A or B: never a mix of them, never a truncated file.
 *
 * A and B (and the original) differ in line 1 and in every 8192nd line after it, and B is 4 KB longer: any
 * torn or truncated result differs from all three, while the guard's own diffing stays cheap enough that a
 * good share of each write's time is the actual file-system write.
 *
 * Killed writers leave their temp files behind; once those are a minute old, the next guarded write in the folder
 * (here from this process) removes them.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import { childProgram, coreBundle, startChild } from '../helpers/childGuard';
import { isTemp } from '../helpers/tree';
import { makeTempDir } from '../helpers/tempDir';
import { seeded } from '../helpers/seeded';
import { sha256 } from '../helpers/treeSnapshot';

const MB = 1024 * 1024;
const KILLS = 8;

/** ~`bytes` of numbered 64-byte lines; line 1 and every 8192nd line after it carry `tag`. */
const content = (tag: string, bytes: number): string =>
  Array.from({ length: Math.ceil(bytes / 64) }, (_, i) => {
    const word = i % 8192 === 0 ? tag : 'same';
    return `${word} ${String(i + 1).padStart(8, '0')} `.padEnd(63, word[0]) + '\n';
  }).join('');

suite('real faults: SIGKILL in the middle of a write', () => {
  test(`after each of ${KILLS} SIGKILLs at random moments the file is exactly the original, A or B`, async function () {
    this.timeout(120_000);
    const random = seeded();
    const root = makeTempDir('readgate-sigkill-');
    const side = makeTempDir('readgate-sigkill-contents-');
    const file = path.join(root, 'big.txt');
    const original = content('orig', 4 * MB);
    const a = content('AAAA', 4 * MB);
    const b = content('BBBB', 4 * MB + 4096);
    fs.writeFileSync(file, original);
    fs.writeFileSync(path.join(side, 'a.txt'), a);
    fs.writeFileSync(path.join(side, 'b.txt'), b);
    const known = new Map([
      [sha256(original), 'original'],
      [sha256(a), 'A'],
      [sha256(b), 'B'],
    ]);

    const log: string[] = [];
    let writes = 0;
    let midWrite = 0;
    for (let kill = 1; kill <= KILLS; kill++) {
      const child = startChild(childProgram('writeLoop'), { args: [coreBundle(), root, file, path.join(side, 'a.txt'), path.join(side, 'b.txt')] });
      await child.waitForLine((line) => line.startsWith('ok '), 60_000, `a first applied write from the writer child (${random.note})`);
      const wait = random.between(5, 200);
      await new Promise((resolve) => setTimeout(resolve, wait));
      const done = await child.kill();
      const lines = child.lines();
      const oks = lines.filter((line) => line.startsWith('ok ')).length;
      const inWrite = lines[lines.length - 1]?.startsWith('writing ') ?? false;
      writes += oks;
      if (inWrite) midWrite++;
      const bytes = fs.readFileSync(file);
      const which = known.get(sha256(bytes));
      log.push(`kill ${kill}, ${wait} ms after the first write: ${oks} writes applied, ${inWrite ? 'killed inside a write call' : 'killed between writes'}, file is ${which ?? `UNKNOWN (${bytes.length} bytes)`}`);
      assert.strictEqual(done.signal, 'SIGKILL', `the writer child was not killed by SIGKILL but ended ${JSON.stringify({ code: done.code, signal: done.signal })}:\n${done.stderr}`);
      assert.ok(
        which !== undefined,
        `after SIGKILL ${kill} the file is neither the original, A nor B (${bytes.length} bytes; a torn or truncated write); ${random.note}\n${log.join('\n')}\nfirst 64 bytes: ${JSON.stringify(bytes.subarray(0, 64).toString())}\nlast 64 bytes: ${JSON.stringify(bytes.subarray(-64).toString())}`,
      );
    }
    const leftBehind = fs.readdirSync(root).filter(isTemp);
    // As if the crash was a minute ago: the next write in the folder cleans up.
    const aMinuteAgo = new Date(Date.now() - 61_000);
    for (const name of leftBehind) fs.utimesSync(path.join(root, name), aMinuteAgo, aMinuteAgo);
    const session = createGuard({ roots: [root], limits: { maxFileBytes: 64 * 1024 * 1024 } }).session('after the kills');
    const read = await session.read(file, { limit: 1 });
    assert.ok(read.ok, JSON.stringify(read).slice(0, 300));
    const written = await session.write(file, fs.readFileSync(file, 'utf8') === a ? b : a, { expectedVersion: read.version });
    assert.ok(written.ok, JSON.stringify(written).slice(0, 300));
    assert.deepStrictEqual(fs.readdirSync(root).filter(isTemp), [], 'temp files of the killed writers are still there after the next write');
    console.log(`      ${random.note}; ${writes} writes applied, ${midWrite} of ${KILLS} kills inside a write call, ${leftBehind.length} temp files left by them and removed by the next write`);
  });
});
