/**
 * File modes through the history, through the real guard on real temp folders: a deleted file's permission bits
 * are recorded with its deletion, and its revert recreates it with exactly those bits and bytes (an executable
 * script keeps its `+x`, a private file stays 0600, whatever the umask); a record without a mode (one written
 * before modes were kept) still reverts, with the default mode; and a stored mode that is not permission bits
 * is dropped when the record is read back, the record itself kept.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { ChangeRecord } from '../../../src/core/index';
import { parseRecord } from '../../../src/core/history/changeRecord';
import { assertOk, fixture } from '../helpers/guardFixture';
import { historyFixture } from './guardFixture';

const modeOf = (file: string): number => fs.statSync(file).mode & 0o7777;
const octal = (mode: number): string => mode.toString(8).padStart(4, '0');

async function newest(f: { guard: { history(): Promise<ChangeRecord[]> } }): Promise<ChangeRecord> {
  const [record] = await f.guard.history();
  assert.ok(record, 'no record');
  return record;
}

/** A file with exactly `mode` (chmod, so the umask does not narrow it). */
function fileWithMode(f: { file(name: string, content: string | Uint8Array): string }, name: string, content: string | Uint8Array, mode: number): string {
  const file = f.file(name, content);
  fs.chmodSync(file, mode);
  assert.strictEqual(octal(modeOf(file)), octal(mode));
  return file;
}

/** What a file created now gets by default (the umask applied to 0666). */
function defaultMode(): number {
  const umask = process.umask(0o022);
  process.umask(umask);
  return 0o666 & ~umask;
}

/** The stored record file of `id`, read and rewritten as JSON. */
/** Rewrites a stored record as an earlier ReadGate wrote it: the first format, which has no checksum. */
function rewriteRecord(historyDir: string, id: string, change: (record: { files: Record<string, unknown>[] }) => void): void {
  const file = path.join(historyDir, 'records', `${id}.json`);
  const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { record: { files: Record<string, unknown>[] } };
  change(stored.record);
  fs.writeFileSync(file, JSON.stringify({ format: 1, record: stored.record }));
}

suite('guard history: file modes', () => {
  test('a deleted 0755 script and a deleted 0600 file come back with exactly their modes and bytes', async () => {
    const f = historyFixture();
    const scriptBytes = '#!/bin/sh\necho hi\r\n';
    const secretBytes = Buffer.from([0x6b, 0x65, 0x79, 0x3d, 0xc3, 0xa9, 0x0a]);
    const script = fileWithMode(f, 'bin/run.sh', scriptBytes, 0o755);
    const secret = fileWithMode(f, 'secret.env', secretBytes, 0o600);
    assertOk(await f.session.read(script));
    assertOk(await f.session.read(secret));
    assertOk(await f.session.multiEdit([{ path: script, delete: true }, { path: secret, delete: true }]));
    const deletion = await newest(f);
    assert.deepStrictEqual(deletion.files.map((file) => [file.kind, file.mode]), [['delete', 0o755], ['delete', 0o600]], 'the modes are on record');
    assert.ok(!fs.existsSync(script) && !fs.existsSync(secret));

    assertOk(await f.guard.revert({ changeId: deletion.id }));
    assert.strictEqual(fs.readFileSync(script, 'utf8'), scriptBytes);
    assert.ok(fs.readFileSync(secret).equals(secretBytes));
    assert.strictEqual(octal(modeOf(script)), '0755', 'the script is executable again');
    assert.strictEqual(octal(modeOf(secret)), '0600', 'the private file is private again');
  });

  test('a deleted file comes back with its mode by a change revert and a session revert, whatever the umask', async () => {
    const f = historyFixture();
    const script = fileWithMode(f, 'tool.sh', '#!/bin/sh\n', 0o755);
    const secret = fileWithMode(f, 'id_key', 'private\n', 0o600);
    assertOk(await f.session.read(script));
    assertOk(await f.session.delete(script));
    const scriptDeletion = await newest(f);
    const other = f.guard.session('private');
    assertOk(await other.read(secret));
    assertOk(await other.delete(secret));
    const umask = process.umask(0o077);
    try {
      assertOk(await f.guard.revert({ changeId: scriptDeletion.id }));
      assertOk(await f.guard.revert({ sessionId: 'private' }));
    } finally {
      process.umask(umask);
    }
    assert.strictEqual(octal(modeOf(script)), '0755', 'a narrow umask does not take the group and others bits');
    assert.strictEqual(octal(modeOf(secret)), '0600');
    assert.strictEqual(fs.readFileSync(secret, 'utf8'), 'private\n');
  });

  test('a record without a mode (written before modes were kept) still reverts, with the default mode', async () => {
    const first = historyFixture();
    const script = fileWithMode(first, 'old.sh', '#!/bin/sh\nexit 0\n', 0o755);
    assertOk(await first.session.read(script));
    assertOk(await first.session.delete(script));
    const deletion = await newest(first);
    assert.strictEqual(deletion.files[0].mode, 0o755);
    await first.guard.dispose();
    rewriteRecord(first.historyDir, deletion.id, (record) => delete record.files[0].mode);

    const second = fixture({ history: { dir: first.historyDir }, roots: [first.root] });
    const [old] = await second.guard.history();
    assert.strictEqual(old.id, deletion.id);
    assert.ok(!('mode' in old.files[0]), 'the old record has no mode');
    assertOk(await second.guard.revert({ changeId: deletion.id }));
    assert.strictEqual(fs.readFileSync(script, 'utf8'), '#!/bin/sh\nexit 0\n');
    assert.strictEqual(octal(modeOf(script)), octal(defaultMode()));
  });

  test('a stored mode that is not permission bits is dropped: the record is kept without it', async () => {
    const base = { id: 'r1', time: 1, sessionId: 's', label: 's', surface: 'api', tool: 'delete', approvedBy: 'user' };
    const file = { path: '/w/a.sh', kind: 'delete', before: 'a'.repeat(64), after: null, hunks: [] };
    for (const bad of [0o10000, -1, 1.5, '0755', null, Number.NaN]) {
      const parsed = parseRecord({ ...base, files: [{ ...file, mode: bad }, { ...file, path: '/w/b', mode: 0o640 }] });
      assert.ok(parsed, `a record with mode ${String(bad)} still parses`);
      assert.deepStrictEqual(parsed.files[0], file, `mode ${String(bad)} is dropped`);
      assert.strictEqual(parsed.files[1].mode, 0o640, 'a good mode beside it is kept');
    }
    assert.strictEqual(parseRecord({ ...base, files: [{ ...file, mode: 0 }] })?.files[0].mode, 0);
    assert.strictEqual(parseRecord({ ...base, files: [{ ...file, mode: 0o7777 }] })?.files[0].mode, 0o7777);
    assert.deepStrictEqual(parseRecord({ ...base, files: [file] })?.files[0], file, 'no mode: as it was');

    // Through a guard: the stored record with a bad mode is listed without it and reverts with the default mode.
    const first = historyFixture();
    const script = fileWithMode(first, 'bad.sh', 'x\n', 0o700);
    assertOk(await first.session.read(script));
    assertOk(await first.session.delete(script));
    const deletion = await newest(first);
    await first.guard.dispose();
    rewriteRecord(first.historyDir, deletion.id, (record) => void (record.files[0].mode = 0o20755));
    const second = fixture({ history: { dir: first.historyDir }, roots: [first.root] });
    const [read] = await second.guard.history();
    assert.strictEqual(read.id, deletion.id, 'the record is kept');
    assert.ok(!('mode' in read.files[0]), 'without its bad mode');
    assertOk(await second.guard.revert({ changeId: deletion.id }));
    assert.strictEqual(octal(modeOf(script)), octal(defaultMode()));
  });
});
