import * as assert from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { createHistory, planRevert } from '../../../src/core/index';
import type { ChangeRecord, RecordInput } from '../../../src/core/index';
import { recordingLogger } from '../helpers/recordingLogger';
import { makeTempDir } from '../helpers/tempDir';
import { applyOps, tree, viewOf } from './memoryTree';

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));
const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

function change(overrides: Partial<RecordInput> = {}): RecordInput {
  return {
    sessionId: 'session-1',
    label: 'Claude Code 2.0.14',
    surface: 'mcp',
    tool: 'readgate_edit',
    explanation: 'raise the retry count',
    approvedBy: 'user',
    files: [{ path: '/w/a.ts', kind: 'edit', before: bytes('retries = 3\n'), after: bytes('retries = 5\n'), hunks: [{ oldStart: 1 }] }],
    ...overrides,
  };
}

/** Every file under `dir`, relative, with its mode. */
function filesUnder(dir: string): { file: string; mode: number }[] {
  const out: { file: string; mode: number }[] = [];
  const walk = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else out.push({ file: path.relative(dir, full), mode: fs.statSync(full).mode & 0o777 });
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

suite('history: recording changes', () => {
  test('records a change of each kind, from each surface, with the record API.md describes', async () => {
    const dir = makeTempDir();
    const history = createHistory({ dir });
    const kinds: RecordInput['files'] = [
      { path: '/w/edit.ts', kind: 'edit', before: bytes('a\n'), after: bytes('b\n') },
      { path: '/w/new.ts', kind: 'create', before: null, after: bytes('new\n') },
      { path: '/w/gone.ts', kind: 'delete', before: bytes('old\n'), after: null },
      { path: '/w/moved.ts', from: '/w/was.ts', kind: 'rename', before: bytes('m\n'), after: bytes('m\n') },
    ];
    const surfaces = ['chat', 'tool', 'mcp', 'api', 'palette'];
    const records: (ChangeRecord | undefined)[] = [];
    for (const surface of surfaces) records.push(await history.record(change({ surface, files: kinds, approvedBy: 'policy' })));
    for (const [i, record] of records.entries()) {
      assert.ok(record, `the ${surfaces[i]} change was not recorded`);
      assert.strictEqual(record.surface, surfaces[i]);
      assert.deepStrictEqual(
        record.files.map((file) => [file.path, file.kind, file.from, file.before, file.after]),
        [
          ['/w/edit.ts', 'edit', undefined, sha256(bytes('a\n')), sha256(bytes('b\n'))],
          ['/w/new.ts', 'create', undefined, null, sha256(bytes('new\n'))],
          ['/w/gone.ts', 'delete', undefined, sha256(bytes('old\n')), null],
          ['/w/moved.ts', 'rename', '/w/was.ts', sha256(bytes('m\n')), sha256(bytes('m\n'))],
        ],
      );
    }
    const first = records[0]!;
    assert.deepStrictEqual(
      { sessionId: first.sessionId, label: first.label, tool: first.tool, explanation: first.explanation, approvedBy: first.approvedBy },
      { sessionId: 'session-1', label: 'Claude Code 2.0.14', tool: 'readgate_edit', explanation: 'raise the retry count', approvedBy: 'policy' },
    );
    assert.strictEqual(new Set(records.map((record) => record!.id)).size, surfaces.length, 'record ids are unique');
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.files[0]), 'a record handed out cannot change the stored one');
  });

  test('tells its listeners of each stored change once it is listed, and of none it dropped', async () => {
    const history = createHistory({ dir: makeTempDir() });
    const heard: { id: string; listed: boolean }[] = [];
    const unsubscribe = history.onDidRecord((record) => {
      // Heard only once a listing holds it: a view that lists now shows the change.
      void history.list().then((records) => heard.push({ id: record.id, listed: records.some((listed) => listed.id === record.id) }));
    });
    const first = await history.record(change());
    const second = await history.record(change({ explanation: 'another' }));
    await history.flush();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepStrictEqual(heard, [
      { id: first!.id, listed: true },
      { id: second!.id, listed: true },
    ]);
    unsubscribe();
    await history.record(change({ explanation: 'not heard' }));
    await history.close();
    const afterClose = history.onDidRecord(() => assert.fail('a dropped change was announced'));
    assert.strictEqual(await history.record(change({ explanation: 'dropped' })), undefined);
    afterClose();
    assert.strictEqual(heard.length, 2);
  });

  test('gives back the exact bytes of every version: CRLF, BOM, bytes that are not UTF-8, an empty file', async () => {
    const history = createHistory({ dir: makeTempDir() });
    const contents = [bytes('\xef\xbb\xbfone\r\ntwo\rthree\n'), bytes('\x00\xff\xfe\x80 latin-1 \xe9\r\n'), bytes(''), new Uint8Array(Buffer.from([0xff, 0xfe, 0x61, 0x00, 0x0a, 0x00]))];
    const record = await history.record(
      change({
        files: [
          { path: 'a', kind: 'edit', before: contents[0], after: contents[1] },
          { path: 'b', kind: 'edit', before: contents[2], after: contents[3] },
        ],
      }),
    );
    assert.ok(record);
    const ids = [record.files[0].before, record.files[0].after, record.files[1].before, record.files[1].after];
    for (const [i, id] of ids.entries()) assert.deepStrictEqual(await history.versionBytes(id!), contents[i], `version ${i}`);
  });

  test('stores the same bytes once however many changes name them', async () => {
    const dir = makeTempDir();
    const history = createHistory({ dir });
    const shared = bytes('the same content\n'.repeat(100));
    await history.record(change({ files: [{ path: 'a', kind: 'create', before: null, after: shared }] }));
    await history.record(change({ files: [{ path: 'b', kind: 'create', before: null, after: shared }] }));
    const versions = filesUnder(dir).filter((entry) => entry.file.startsWith('versions'));
    assert.deepStrictEqual(versions.map((entry) => entry.file), [path.join('versions', sha256(shared).slice(0, 2), `${sha256(shared)}.gz`)]);
  });

  test('stores versions compressed (gzip), each readable with a plain gunzip', async () => {
    const dir = makeTempDir();
    const history = createHistory({ dir });
    const content = bytes('compress me please\n'.repeat(1000));
    const record = await history.record(change({ files: [{ path: 'a', kind: 'create', before: null, after: content }] }));
    const stored = fs.readFileSync(path.join(dir, 'versions', record!.files[0].after!.slice(0, 2), `${record!.files[0].after}.gz`));
    assert.ok(stored.length < content.length / 10, `stored ${stored.length} bytes for ${content.length}`);
    assert.deepStrictEqual(new Uint8Array(zlib.gunzipSync(stored)), content);
  });

  test('keeps its files private: folders 0700, files 0600, no temp file left', async () => {
    const dir = path.join(makeTempDir(), 'history');
    const history = createHistory({ dir });
    await history.record(change());
    assert.strictEqual(fs.statSync(dir).mode & 0o777, 0o700);
    assert.strictEqual(fs.statSync(path.join(dir, 'records')).mode & 0o777, 0o700);
    const files = filesUnder(dir);
    assert.strictEqual(files.length, 3, JSON.stringify(files));
    assert.ok(files.every((entry) => entry.mode === 0o600 && !entry.file.includes('.tmp')), JSON.stringify(files));
  });

  test('records survive a new History on the same folder', async () => {
    const dir = makeTempDir();
    const first = createHistory({ dir });
    const a = await first.record(change({ sessionId: 's1' }));
    const b = await first.record(change({ sessionId: 's2', files: [{ path: 'x', kind: 'delete', before: bytes('gone\r\n'), after: null }] }));
    const reloaded = createHistory({ dir });
    assert.deepStrictEqual(await reloaded.list(), [b, a]);
    assert.deepStrictEqual(await reloaded.get(a!.id), a);
    assert.deepStrictEqual(await reloaded.versionBytes(b!.files[0].before!), bytes('gone\r\n'));
  });

  test('lists newest first and filters by session and by path (a rename matches by its old name too)', async () => {
    let now = 1_000;
    const history = createHistory({ dir: makeTempDir(), clock: { now: () => now++ } });
    const a = await history.record(change({ sessionId: 's1', files: [{ path: 'p', kind: 'edit', before: bytes('1'), after: bytes('2') }] }));
    const b = await history.record(change({ sessionId: 's2', files: [{ path: 'q', from: 'p', kind: 'rename', before: bytes('2'), after: bytes('2') }] }));
    const c = await history.record(change({ sessionId: 's1', files: [{ path: 'r', kind: 'create', before: null, after: bytes('3') }] }));
    assert.deepStrictEqual((await history.list()).map((r) => r.id), [c!.id, b!.id, a!.id]);
    assert.deepStrictEqual((await history.list({ sessionId: 's1' })).map((r) => r.id), [c!.id, a!.id]);
    assert.deepStrictEqual((await history.list({ path: 'p' })).map((r) => r.id), [b!.id, a!.id]);
    assert.deepStrictEqual((await history.list({ sessionId: 's2', path: 'r' })).map((r) => r.id), []);
  });

  test('records changes made at the same time without corrupting each other (the caller awaits nothing)', async () => {
    const dir = makeTempDir();
    const history = createHistory({ dir, clock: { now: () => 5 } });
    const pending = Array.from({ length: 40 }, (_, i) =>
      history.record(change({ sessionId: `s${i % 3}`, files: [{ path: `f${i % 5}`, kind: 'edit', before: bytes(`v${i}\n`), after: bytes(`v${i + 1}\n`) }] })),
    );
    await history.flush();
    const records = await Promise.all(pending);
    assert.ok(records.every(Boolean));
    const reloaded = await createHistory({ dir, clock: { now: () => 5 } }).list();
    assert.strictEqual(reloaded.length, 40);
    assert.deepStrictEqual(reloaded.map((r) => r.id), records.map((r) => r!.id).reverse(), 'made in the same millisecond, they still list newest first');
    // 41 distinct contents v0..v40, each stored once.
    assert.strictEqual(filesUnder(dir).filter((entry) => entry.file.startsWith('versions')).length, 41);
  });

  test('an invalid change is not recorded, logs why, and never throws', async () => {
    const logger = recordingLogger();
    const history = createHistory({ dir: makeTempDir(), logger });
    const invalid = [
      change({ files: [] }),
      change({ files: [{ path: 'a', kind: 'create', before: bytes('x'), after: bytes('y') }] }),
      change({ files: [{ path: 'a', kind: 'rename', before: bytes('x'), after: bytes('y') }] }),
      change({ files: [{ path: 'a', kind: 'edit', before: 'text' as unknown as Uint8Array, after: bytes('y') }] }),
      null as unknown as RecordInput,
    ];
    for (const input of invalid) assert.strictEqual(await history.record(input), undefined);
    assert.strictEqual(logger.warnings().length, invalid.length);
    assert.deepStrictEqual(await history.list(), []);
  });

  test('a change whose hunks cannot be stored as JSON is dropped with a warning, its versions removed', async () => {
    const dir = makeTempDir();
    const logger = recordingLogger();
    const history = createHistory({ dir, logger });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.strictEqual(await history.record(change({ files: [{ path: 'a', kind: 'edit', before: bytes('1'), after: bytes('2'), hunks: [cyclic] }] })), undefined);
    assert.strictEqual(logger.warnings().length, 1);
    assert.deepStrictEqual(filesUnder(dir), []);
  });

  test('drops a change when too much content is already waiting to be stored', async () => {
    const logger = recordingLogger();
    const history = createHistory({ dir: makeTempDir(), logger, maxPendingBytes: 1000 });
    const first = history.record(change({ files: [{ path: 'a', kind: 'create', before: null, after: new Uint8Array(800) }] }));
    const second = history.record(change({ files: [{ path: 'b', kind: 'create', before: null, after: new Uint8Array(800) }] }));
    assert.ok(await first);
    assert.strictEqual(await second, undefined);
    assert.match(logger.warnings()[0].message, /waiting/);
    assert.ok(await history.record(change({ files: [{ path: 'c', kind: 'create', before: null, after: new Uint8Array(800) }] })), 'recorded again once the queue drained');
  });

  test('a damaged version reads as missing, is logged and set aside (never deleted), and is stored again by the next change with those bytes', async () => {
    const dir = makeTempDir();
    const logger = recordingLogger();
    const history = createHistory({ dir, logger });
    const content = bytes('precious\n');
    const record = await history.record(change({ files: [{ path: 'a', kind: 'create', before: null, after: content }] }));
    const id = record!.files[0].after!;
    const blob = path.join(dir, 'versions', id.slice(0, 2), `${id}.gz`);
    fs.writeFileSync(blob, zlib.gzipSync(Buffer.from('not what was stored\n')));
    assert.strictEqual(await history.versionBytes(id), undefined);
    assert.match(logger.warnings()[0].message, /damaged/);
    assert.ok(!fs.existsSync(blob));
    assert.ok(fs.existsSync(path.join(dir, 'damaged', 'versions', `${id}.gz`)), 'set aside');
    await history.record(change({ files: [{ path: 'b', kind: 'create', before: null, after: content }] }));
    assert.deepStrictEqual(await history.versionBytes(id), content);
  });

  test('a record file that is not a record is set aside at load with a warning (never deleted); the others load', async () => {
    const dir = makeTempDir();
    const good = await createHistory({ dir }).record(change());
    fs.writeFileSync(path.join(dir, 'records', 'broken-00000-000000.json'), '{"format":1,"record":{');
    const logger = recordingLogger();
    const reloaded = createHistory({ dir, logger });
    assert.deepStrictEqual(await reloaded.list(), [good]);
    assert.strictEqual(logger.warnings().length, 1);
    assert.ok(!fs.existsSync(path.join(dir, 'records', 'broken-00000-000000.json')));
    assert.ok(fs.existsSync(path.join(dir, 'damaged', 'records', 'broken-00000-000000.json')));
  });

  test('a revert is recorded like any change (revertOf names the change) and can itself be reverted', async () => {
    const history = createHistory({ dir: makeTempDir() });
    const path = '/w/a.ts';
    const [before, after, later] = ['let retries = 3;\n\nrun();\n', 'let retries = 5;\n\nrun();\n', 'let retries = 5;\n\nrun();\nlater();\n'].map(bytes);
    let files = tree({ [path]: later });
    const original = await history.record(change({ files: [{ path, kind: 'edit', before, after }] }));
    const plan = planRevert((await history.revertInput(original!))!, viewOf(files));
    assert.strictEqual(plan.clean, true);
    const [op] = plan.ops;
    assert.ok(op.type === 'write' && op.current && typeof op.content !== 'string');
    files = applyOps(files, plan.ops);
    const revert = await history.record(change({ tool: 'revert', surface: 'palette', revertOf: original!.id, files: [{ path, kind: 'edit', before: op.current as Uint8Array, after: op.content }] }));
    assert.strictEqual(revert!.revertOf, original!.id);
    assert.deepStrictEqual((await history.list({ path })).map((r) => r.id), [revert!.id, original!.id]);
    const again = planRevert((await history.revertInput(revert!))!, viewOf(files));
    assert.deepStrictEqual(files.get(path), bytes('let retries = 3;\n\nrun();\nlater();\n'));
    assert.deepStrictEqual(applyOps(files, again.ops).get(path), later);
  });

  test('revertInput gives planRevert the bytes of a record, and the plan restores them', async () => {
    const history = createHistory({ dir: makeTempDir() });
    const record = await history.record(change());
    const input = await history.revertInput(record!);
    assert.ok(input);
    const files = tree({ '/w/a.ts': bytes('retries = 5\n') });
    const plan = planRevert(input, viewOf(files));
    assert.deepStrictEqual(applyOps(files, plan.ops).get('/w/a.ts'), bytes('retries = 3\n'));
  });
});

suite('history: export as JSON Lines', () => {
  test('writes one record per line, oldest first, without contents', async () => {
    let now = 10;
    const history = createHistory({ dir: makeTempDir(), clock: { now: () => now++ } });
    const a = await history.record(change({ sessionId: 's1' }));
    const b = await history.record(change({ sessionId: 's2' }));
    const lines: string[] = [];
    assert.strictEqual(await history.exportJsonLines((line) => void lines.push(line)), 2);
    assert.ok(lines.every((line) => line.endsWith('\n') && !line.slice(0, -1).includes('\n')));
    assert.deepStrictEqual(lines.map((line) => JSON.parse(line)), [a, b]);
    assert.ok(!lines.join('').includes('retries'), 'no file content');
  });

  test('with contents, each line carries the base64 bytes of every version it names', async () => {
    const history = createHistory({ dir: makeTempDir() });
    const record = await history.record(change());
    const lines: string[] = [];
    await history.exportJsonLines((line) => void lines.push(line), { contents: true, sessionId: 'session-1' });
    const exported = JSON.parse(lines[0]) as ChangeRecord & { contents: Record<string, string> };
    assert.deepStrictEqual(Buffer.from(exported.contents[record!.files[0].before!], 'base64').toString(), 'retries = 3\n');
    assert.deepStrictEqual(Buffer.from(exported.contents[record!.files[0].after!], 'base64').toString(), 'retries = 5\n');
  });

  test('exports only the records the filter matches', async () => {
    const history = createHistory({ dir: makeTempDir() });
    await history.record(change({ sessionId: 's1' }));
    await history.record(change({ sessionId: 's2' }));
    const lines: string[] = [];
    assert.strictEqual(await history.exportJsonLines((line) => void lines.push(line), { sessionId: 's2' }), 1);
    assert.strictEqual(JSON.parse(lines[0]).sessionId, 's2');
  });
});
