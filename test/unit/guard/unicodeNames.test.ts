/**
 * A file whose name is on disk in NFD ("cafe\u0301.txt", from macOS or git) while the agent names it in NFC
 * ("caf\u00e9.txt"), end to end: both spellings are one file for reads, edits, writes, multiEdit, check and the
 * ledger, and no visually identical twin is ever created. Real NFD names in a real temp dir.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import { makeTempDir } from '../helpers/tempDir';
import { ok, put, refused } from '../helpers/results';

const NFC = 'caf\u00e9.txt';
const NFD = 'cafe\u0301.txt';

function setup(deny: string[] = []) {
  const root = makeTempDir();
  const guard = createGuard({ roots: [root], deny });
  return { root, session: guard.session('s1') };
}

suite('guard: names on disk in another Unicode form', () => {
  test('reads an NFD file by its NFC name and names it as it is on disk', async () => {
    const { root, session } = setup();
    put(path.join(root, NFD), 'bonjour\n');
    const read = ok(await session.read(NFC));
    assert.ok(read.kind === 'content' && read.text.includes('bonjour'), read.text);
    assert.deepStrictEqual(session.entries().map((entry) => entry.path), [path.join(root, NFD)]);
  });

  test('an edit by NFC after a read by NFD edits the one file, and no twin appears', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, NFD), 'one\ntwo\n');
    ok(await session.read(NFD));
    const edited = ok(await session.edit(NFC, [{ oldString: 'two', newString: 'TWO' }]));
    assert.deepStrictEqual(edited.files.map((f) => [f.path, f.created]), [[file, false]]);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\nTWO\n');
    assert.deepStrictEqual(fs.readdirSync(root), [NFD]);
    assert.strictEqual(await session.check(NFD), 'fresh');
  });

  test('an edit by NFD after a read by NFC edits the one file, and no twin appears', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, NFD), 'one\ntwo\n');
    ok(await session.read(NFC));
    ok(await session.edit(NFD, [{ oldString: 'one', newString: 'ONE' }]));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'ONE\ntwo\n');
    assert.deepStrictEqual(fs.readdirSync(root), [NFD]);
    assert.strictEqual(await session.check(NFC), 'fresh');
  });

  test('a write by the NFC name of an existing NFD file replaces that file after a full read', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, NFD), 'old\n');
    refused(await session.write(NFC, 'new\n'), 'EDIT_REQUIRES_PRIOR_READ');
    ok(await session.read(NFD));
    const written = ok(await session.write(NFC, 'new\n'));
    assert.deepStrictEqual(written.files.map((f) => [f.path, f.created]), [[file, false]]);
    assert.ok(written.text.includes(file), written.text);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'new\n');
    assert.deepStrictEqual(fs.readdirSync(root), [NFD]);
  });

  test('a change noted at the on-disk name is named in the refusal of an edit by the NFC name', async () => {
    const root = makeTempDir();
    let now = 1000;
    const guard = createGuard({ roots: [root], clock: { now: () => now } });
    const session = guard.session('s1');
    const file = put(path.join(root, NFD), 'one\ntwo\n');
    ok(await session.read(NFC));
    now += 10;
    fs.writeFileSync(file, 'one\nTWO\n');
    guard.noteChange(file, { kind: 'editor' });
    refused(await session.edit(NFC, [{ oldString: 'two', newString: '2' }]), 'FILE_CHANGED_SINCE_READ', 'typing in the editor');
  });

  test('a multiEdit naming both spellings changes the one file once', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, NFD), 'a\nb\n');
    ok(await session.read(NFC));
    const result = ok(await session.multiEdit([
      { path: NFC, edits: [{ oldString: 'a', newString: 'A' }] },
      { path: NFD, edits: [{ oldString: 'b', newString: 'B' }] },
    ]));
    assert.strictEqual(result.files.length, 1);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'A\nB\n');
    assert.deepStrictEqual(fs.readdirSync(root), [NFD]);
  });

  test('a folder in NFD on disk is found by its NFC name, and a new file goes into it', async () => {
    const { root, session } = setup();
    const folder = path.join(root, 'r\u00e9sum\u00e9'.normalize('NFD'));
    const file = put(path.join(folder, 'a.txt'), 'one\n');
    ok(await session.read('r\u00e9sum\u00e9/a.txt'));
    ok(await session.edit('r\u00e9sum\u00e9/a.txt', [{ oldString: 'one', newString: 'two' }]));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'two\n');
    ok(await session.write('r\u00e9sum\u00e9/new.txt', 'new\n'));
    assert.deepStrictEqual(fs.readdirSync(root), [path.basename(folder)]);
    assert.deepStrictEqual(fs.readdirSync(folder).sort(), ['a.txt', 'new.txt']);
  });

  test('a new file is created with its name as given', async () => {
    const { root, session } = setup();
    const created = ok(await session.write(NFD, 'new\n'));
    assert.deepStrictEqual(created.files.map((f) => [f.path, f.created]), [[path.join(root, NFD), true]]);
    assert.deepStrictEqual(fs.readdirSync(root), [NFD]);
  });

  test('prefers the exact name when both spellings exist: each is its own file', async () => {
    const { root, session } = setup();
    const nfc = put(path.join(root, NFC), 'composed\n');
    const nfd = put(path.join(root, NFD), 'decomposed\n');
    ok(await session.read(NFD));
    refused(await session.edit(NFC, [{ oldString: 'composed', newString: 'x' }]), 'EDIT_REQUIRES_PRIOR_READ');
    ok(await session.edit(NFD, [{ oldString: 'decomposed', newString: 'changed' }]));
    assert.strictEqual(fs.readFileSync(nfd, 'utf8'), 'changed\n');
    assert.strictEqual(fs.readFileSync(nfc, 'utf8'), 'composed\n');
  });

  test('several other spellings and no exact one: refused, nothing read or written', async () => {
    const { root, session } = setup();
    // Two orders of the same two marks: both NFC to "\u1ead", neither is it.
    put(path.join(root, 'a\u0323\u0302.txt'), 'one\n');
    put(path.join(root, '\u00e2\u0323.txt'), 'two\n');
    refused(await session.read('\u1ead.txt'), 'PATH_INVALID', 'exact name');
    refused(await session.write('\u1ead.txt', 'new\n'), 'PATH_INVALID', 'exact name');
    refused(await session.multiEdit([{ path: '\u1ead.txt', edits: [{ oldString: '', newString: 'x' }] }]), 'PATH_INVALID');
    assert.deepStrictEqual(fs.readdirSync(root).sort(), ['a\u0323\u0302.txt', '\u00e2\u0323.txt'].sort());
    assert.strictEqual(fs.readFileSync(path.join(root, 'a\u0323\u0302.txt'), 'utf8'), 'one\n');
  });

  test('a deny rule on a name holds whichever spelling names it, and nothing is created', async () => {
    const { root, session } = setup([`**/${NFC.replace('.txt', '.env')}`]);
    const secret = put(path.join(root, NFD.replace('.txt', '.env')), 'TOKEN=1\n');
    refused(await session.read(NFC.replace('.txt', '.env')), 'PATH_DENIED');
    refused(await session.read(NFD.replace('.txt', '.env')), 'PATH_DENIED');
    refused(await session.write(NFC.replace('.txt', '.env'), 'TOKEN=2\n'), 'PATH_DENIED');
    refused(await session.write(`sub/${NFD.replace('.txt', '.env')}`, 'TOKEN=2\n'), 'PATH_DENIED');
    assert.strictEqual(fs.readFileSync(secret, 'utf8'), 'TOKEN=1\n');
    assert.deepStrictEqual(fs.readdirSync(root), [path.basename(secret)]);
  });
});
