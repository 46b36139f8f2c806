/**
 * The one atomic write of a small file, on real folders: the content whole with exactly the mode asked for, a
 * target replaced in one step, and no temp file left behind when the write fails.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { atomicTempPath, atomicTempWriter, openTempFile, writeFileAtomic } from '../../../src/core/nodeFs/atomicWrite';
import { makeTempDir } from '../helpers/tempDir';

const modeOf = (file: string): number => fs.statSync(file).mode & 0o777;

/** Runs `work` under `mask`, so a mode the umask would narrow shows whether the write sets it itself. */
function withUmask<T>(mask: number, work: () => T): T {
  const before = process.umask(mask);
  try {
    return work();
  } finally {
    process.umask(before);
  }
}

suite('atomic write of a small file', () => {
  test('writes the content whole with exactly the given mode, whatever the umask', () => {
    const dir = makeTempDir();
    const secret = path.join(dir, 'window.json');
    const shared = path.join(dir, 'mcp-bridge.js');
    withUmask(0o077, () => {
      writeFileAtomic(secret, '{"token":"s3cret"}', 0o600);
      writeFileAtomic(shared, new Uint8Array([0x2f, 0x2f, 0x0a]), 0o644);
    });
    assert.strictEqual(fs.readFileSync(secret, 'utf8'), '{"token":"s3cret"}');
    assert.strictEqual(modeOf(secret), 0o600);
    assert.strictEqual(fs.readFileSync(shared, 'utf8'), '//\n');
    assert.strictEqual(modeOf(shared), 0o644);
    assert.deepStrictEqual(fs.readdirSync(dir).sort(), ['mcp-bridge.js', 'window.json']);
  });

  test('replaces an existing file in one step and takes the new mode', () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'entry.json');
    fs.writeFileSync(file, 'old and longer than the new content', { mode: 0o666 });
    fs.chmodSync(file, 0o666);
    const before = fs.statSync(file).ino;
    writeFileAtomic(file, 'new', 0o600);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'new');
    assert.strictEqual(modeOf(file), 0o600);
    assert.notStrictEqual(fs.statSync(file).ino, before, 'a new file renamed into place, not the old one written over');
    assert.deepStrictEqual(fs.readdirSync(dir), ['entry.json']);
  });

  test('a failed write throws, leaves the target as it was and no temp file behind', () => {
    // The fault: a folder where the file should go, so the final rename fails after the temp file was written.
    const dir = makeTempDir();
    const target = path.join(dir, 'entry.json');
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'inside'), 'kept');
    assert.throws(() => writeFileAtomic(target, '{"a":1}', 0o600), (error: NodeJS.ErrnoException) => ['EISDIR', 'ENOTEMPTY', 'EEXIST'].includes(error.code ?? ''));
    assert.deepStrictEqual(fs.readdirSync(dir), ['entry.json']);
    assert.deepStrictEqual(fs.readdirSync(target), ['inside']);
    // A folder that is not there fails before any temp file exists.
    assert.throws(() => writeFileAtomic(path.join(dir, 'missing', 'x.json'), 'x', 0o600), /ENOENT/);
    assert.deepStrictEqual(fs.readdirSync(dir), ['entry.json']);
  });

  test('temp names are hidden, beside the target, unique, and name their writer', () => {
    const target = '/some/folder/1234-abc.json';
    const [a, b] = [atomicTempPath(target), atomicTempPath(target)];
    assert.notStrictEqual(a, b);
    assert.strictEqual(path.dirname(a), '/some/folder');
    assert.ok(path.basename(a).startsWith('.1234-abc.json.') && a.endsWith('.tmp'), a);
    assert.strictEqual(atomicTempWriter(path.basename(a)), process.pid);
    for (const other of ['1234-abc.json', '.1234-abc.json.tmp', '.x.json.12-XYZ.tmp', '.x.json.ab-12.tmp', 'x.json.12-ab.tmp']) assert.strictEqual(atomicTempWriter(other), undefined, other);
  });

  test('a temp file is never opened through what is already at its path (a planted file or link)', () => {
    const dir = makeTempDir();
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(victim, 'untouched');
    const planted = atomicTempPath(path.join(dir, 'entry.json'));
    fs.symlinkSync(victim, planted);
    assert.throws(() => openTempFile(planted, 0o600), /EEXIST/);
    assert.strictEqual(fs.readFileSync(victim, 'utf8'), 'untouched');
  });
});
