/**
 * Trouble is not damage: a record or a version the history cannot read just now (too many open files under a
 * real `prlimit --nofile`, a file of another user the process may not read) is skipped for that call and kept on
 * disk, never removed; an export leaves such a file out and says so instead of failing. The history runs in real
 * child processes (`historyWorker`); the second user is `nobody` (needs root: CI runs as root).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createHistory } from '../../../src/core/index';
import type { RecordInput } from '../../../src/core/index';
import { needsRoot } from '../helpers/needsRoot';
import { makeTempDir } from '../helpers/tempDir';
import { startWorker } from '../history/historyWorkers';

const NOBODY = { uid: 65534, gid: 65534 };

const edit = (i: number): RecordInput => ({
  sessionId: 's',
  label: 'test',
  surface: 'api',
  tool: 'edit',
  approvedBy: 'approver',
  files: [{ path: `/w/f${i % 7}.txt`, kind: 'edit', before: new Uint8Array(Buffer.from(`v${i}\n`)), after: new Uint8Array(Buffer.from(`v${i + 1}\n`)) }],
});

/** Every file under `dir` (relative) with its bytes, to compare before and after. */
function contents(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true }).map(String)) {
    const full = path.join(dir, entry);
    if (fs.statSync(full).isFile()) out.set(entry, fs.readFileSync(full, 'base64'));
  }
  return out;
}

/** A folder `nobody` may traverse, with a history folder nobody owns in it, and a project root nobody owns. */
function nobodysFolders(): { root: string; dir: string } {
  const base = makeTempDir('readgate-nobody-');
  fs.chmodSync(base, 0o755);
  const root = path.join(base, 'project');
  const dir = path.join(base, 'history');
  for (const folder of [root, dir]) {
    fs.mkdirSync(folder, { mode: 0o700 });
    fs.chownSync(folder, NOBODY.uid, NOBODY.gid);
  }
  return { root, dir };
}

suite('real faults: the history tells trouble from damage', () => {
  test('listing under prlimit --nofile=40 removes none of 120 intact records; every one is listed once files can be opened again', async function () {
    this.timeout(60_000);
    const root = makeTempDir('readgate-nofile-root-');
    const dir = path.join(makeTempDir('readgate-nofile-'), 'history');
    const history = createHistory({ dir });
    for (let i = 0; i < 120; i++) await history.record(edit(i));
    await history.flush();
    assert.strictEqual((await history.list()).length, 120, 'premise: 120 records');
    const before = contents(dir);
    const limited = await startWorker({ roots: [root], dir, sessionId: 'limited' }, { nofile: 40 });
    const listed = await limited.call<{ records: unknown[] }>('list');
    await limited.end();
    assert.deepStrictEqual(contents(dir), before, 'no record or version was removed or changed');
    assert.ok(!limited.warnings().some((line) => /removed/.test(line.warn)), JSON.stringify(limited.warnings()));
    assert.ok(listed.records.length <= 120);
    assert.strictEqual((await createHistory({ dir }).list()).length, 120);
  });

  test("a record of another user (root's, mode 0600) is kept when nobody's history lists the folder", async function () {
    this.timeout(60_000);
    needsRoot("a history running as nobody beside a record only root may read");
    const { root, dir } = nobodysFolders();
    const file = path.join(root, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    fs.chownSync(file, NOBODY.uid, NOBODY.gid);
    // A record of root's, written by a history running as root, copied into nobody's records folder with root as
    // its owner, before nobody's history first reads the folder.
    const rootsDir = path.join(makeTempDir('readgate-roots-history-'), 'history');
    const theirs = await createHistory({ dir: rootsDir }).record({ ...edit(1), sessionId: 'root' });
    const theirName = `${theirs!.id}.json`;
    fs.mkdirSync(path.join(dir, 'records'), { mode: 0o700 });
    fs.chownSync(path.join(dir, 'records'), NOBODY.uid, NOBODY.gid);
    fs.copyFileSync(path.join(rootsDir, 'records', theirName), path.join(dir, 'records', theirName));
    fs.chmodSync(path.join(dir, 'records', theirName), 0o600);
    const worker = await startWorker({ roots: [root], dir, sessionId: 'nobody' }, { as: NOBODY });
    assert.deepStrictEqual(await worker.call('write', { path: file, content: 'two\n' }), { ok: true });
    const listed = await worker.call<{ records: { sessionId: string }[] }>('list');
    await worker.end();
    assert.deepStrictEqual(listed.records.map((record) => record.sessionId), ['nobody'], 'the unreadable record is skipped');
    assert.ok(fs.existsSync(path.join(dir, 'records', theirName)), "root's record is still there");
    assert.deepStrictEqual((await createHistory({ dir }).list()).map((record) => record.sessionId).sort(), ['nobody', 'root'], 'root lists both');
  });

  test('an export as nobody with a content file only root may read exports everything else and names what it left out', async function () {
    this.timeout(60_000);
    needsRoot('an export running as nobody with a version file only root may read');
    const { root, dir } = nobodysFolders();
    const file = path.join(root, 'a.txt');
    fs.writeFileSync(file, 'one\n');
    fs.chownSync(file, NOBODY.uid, NOBODY.gid);
    const worker = await startWorker({ roots: [root], dir, sessionId: 'nobody' }, { as: NOBODY });
    assert.deepStrictEqual(await worker.call('write', { path: file, content: 'two\n' }), { ok: true });
    assert.deepStrictEqual(await worker.call('write', { path: file, content: 'three\n' }), { ok: true });
    await worker.call('flush');
    const [newest] = await createHistory({ dir }).list();
    const closed = newest.files[0].after!;
    const blob = path.join(dir, 'versions', closed.slice(0, 2), `${closed}.gz`);
    fs.chownSync(blob, 0, 0);
    fs.chmodSync(blob, 0o600);
    const exported = await worker.call<{ count?: number; lines: string[]; error?: string }>('export', { contents: true });
    await worker.end();
    assert.strictEqual(exported.error, undefined, 'the export does not fail');
    assert.strictEqual(exported.count, 2);
    const lines = exported.lines.map((line) => JSON.parse(line) as { id?: string; contents?: Record<string, string | null>; omitted?: { change?: string; version?: string; reason: string }[] });
    assert.strictEqual(lines.length, 3, 'two records and the list of what was left out');
    const last = lines[1];
    assert.strictEqual(last.contents?.[closed], null);
    assert.strictEqual(Buffer.from(last.contents![newest.files[0].before!]!, 'base64').toString(), 'two\n');
    assert.deepStrictEqual(lines[2].omitted?.map((item) => [item.change, item.version]), [[newest.id, closed]]);
    assert.match(lines[2].omitted![0].reason, /EACCES/);
  });
});
