/**
 * Names on disk in another Unicode form than the agent's (Linux names are bytes: "cafe\u0301.txt", NFD as macOS
 * or git write it, is another name than "caf\u00e9.txt"). The exact name wins; else the one entry with the same
 * NFC text is the file; several are refused; deny rules hold for every spelling. Real names on a real temp dir.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { PathPolicy, type PathCheck, type PathPolicyOptions } from '../../../src/core/path/pathPolicy';
import type { FileSystem } from '../../../src/core/ports';
import { makeTempDir } from '../helpers/tempDir';
import { assertAllowed } from '../helpers/pathChecks';

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';
// Three spellings of one NFC text ("\u1ead", a with dot below and circumflex), none of them NFC.
const DOT_THEN_HAT = 'a\u0323\u0302';
const HAT_THEN_DOT = '\u00e2\u0323';

function makeRoot(): string {
  const root = path.join(makeTempDir(), 'root');
  fs.mkdirSync(root);
  return root;
}

function write(file: string, text = 'x\n'): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** The Node port, counting directory listings. */
function countingFs(): { fs: FileSystem; listings: string[] } {
  const node = createNodeFileSystem();
  const listings: string[] = [];
  return { fs: { ...node, readdir: (dir) => (listings.push(dir), node.readdir(dir)) }, listings };
}

function policy(options: PathPolicyOptions, fileSystem: FileSystem = createNodeFileSystem()): PathPolicy {
  return new PathPolicy(options, fileSystem);
}


function refusal(result: PathCheck, code: 'PATH_INVALID' | 'PATH_DENIED'): string {
  assert.strictEqual(result.ok, false, `expected ${code}, got ${JSON.stringify(result)}`);
  assert.strictEqual(!result.ok && result.code, code, !result.ok ? result.message : '');
  return result.ok ? '' : result.message;
}

suite('PathPolicy: names in another Unicode form', () => {
  test('finds an NFD file by its NFC name, as it is spelled on disk', async () => {
    const root = makeRoot();
    const file = write(path.join(root, `${NFD}.txt`));
    assertAllowed(await policy({ roots: [root] }).check(`${NFC}.txt`), { path: file, target: file, exists: true });
  });

  test('uses an existing exact name as given and lists no folder for it', async () => {
    const root = makeRoot();
    const file = write(path.join(root, `${NFD}.txt`));
    const { fs: counting, listings } = countingFs();
    assertAllowed(await policy({ roots: [root] }, counting).check(file), { path: file, target: file, exists: true });
    assert.deepStrictEqual(listings, []);
  });

  test('prefers the exact name when both an NFC and an NFD file exist', async () => {
    const root = makeRoot();
    const nfc = write(path.join(root, `${NFC}.txt`));
    const nfd = write(path.join(root, `${NFD}.txt`));
    const paths = policy({ roots: [root] });
    assertAllowed(await paths.check(nfc), { path: nfc, target: nfc, exists: true });
    assertAllowed(await paths.check(nfd), { path: nfd, target: nfd, exists: true });
  });

  test('resolves a folder component too, and a new file below it keeps the name as given', async () => {
    const root = makeRoot();
    const file = write(path.join(root, NFD, 'a.txt'));
    const paths = policy({ roots: [root] });
    assertAllowed(await paths.check(`${NFC}/a.txt`), { path: file, target: file, exists: true });
    const created = path.join(root, NFD, `new-${NFC}.txt`);
    assertAllowed(await paths.check(`${NFC}/new-${NFC}.txt`), { path: created, target: created, exists: false });
  });

  test('a name no spelling of which exists is new, spelled as given', async () => {
    const root = makeRoot();
    write(path.join(root, 'other.txt'));
    const file = path.join(root, `${NFD}.txt`);
    assertAllowed(await policy({ roots: [root] }).check(file), { path: file, target: file, exists: false });
  });

  test('refuses when several spellings exist and none is exact, listing them escaped', async () => {
    const root = makeRoot();
    write(path.join(root, `${DOT_THEN_HAT}.txt`));
    write(path.join(root, `${HAT_THEN_DOT}.txt`));
    const message = refusal(await policy({ roots: [root] }).check('\u1ead.txt'), 'PATH_INVALID');
    for (const mention of ['a\\u0323\\u0302.txt', '\\u00e2\\u0323.txt', '\\u1ead.txt', 'exact name']) {
      assert.ok(message.includes(mention), `message lacks ${mention}: ${message}`);
    }
  });

  test('an exact name among several spellings is used without refusal', async () => {
    const root = makeRoot();
    write(path.join(root, `${DOT_THEN_HAT}.txt`));
    const exact = write(path.join(root, `${HAT_THEN_DOT}.txt`));
    assertAllowed(await policy({ roots: [root] }).check(exact), { path: exact, target: exact, exists: true });
  });

  test('a link named in another form is followed, and its hop still checked', async () => {
    const root = makeRoot();
    const outside = write(path.join(path.dirname(root), 'outside.txt'));
    fs.symlinkSync(outside, path.join(root, `${NFD}.txt`));
    refusal(await policy({ roots: [root] }).check(`${NFC}.txt`), 'PATH_DENIED');
  });

  test('a link text is followed byte for byte (as the kernel does), not matched by form', async () => {
    const root = makeRoot();
    write(path.join(root, `${NFD}.txt`));
    fs.symlinkSync(`${NFC}.txt`, path.join(root, 'link.txt'));
    const dangling = path.join(root, `${NFC}.txt`);
    assertAllowed(await policy({ roots: [root] }).check('link.txt'), { path: path.join(root, 'link.txt'), target: dangling, exists: false });
  });

  test('an entry listed and gone before its lstat is a change under the walk: walked again, then refused', async () => {
    const root = makeRoot();
    const node = createNodeFileSystem();
    let phantoms = 1;
    const racing: FileSystem = { ...node, readdir: async (dir) => [...(await node.readdir(dir)), ...(phantoms-- > 0 ? [`${NFD}.txt`] : [])] };
    const file = path.join(root, `${NFC}.txt`);
    assertAllowed(await policy({ roots: [root] }, racing).check(file), { path: file, target: file, exists: false });
    phantoms = Infinity;
    assert.ok(refusal(await policy({ roots: [root] }, racing).check(file), 'PATH_INVALID').includes('changed while it was resolved'));
  });

  test('a root configured in NFD contains paths named in NFC', async () => {
    const root = path.join(makeTempDir(), NFD);
    const file = write(path.join(root, 'a.txt'));
    const named = path.join(path.dirname(root), NFC, 'a.txt');
    assertAllowed(await policy({ roots: [root] }).check(named), { path: file, target: file, exists: true });
  });
});

suite('PathPolicy: deny rules hold for every spelling', () => {
  test('a rule written in NFC refuses the NFD file by either spelling', async () => {
    const root = makeRoot();
    write(path.join(root, `${NFD}.env`));
    const paths = policy({ roots: [root], deny: [`${NFC}.env`] });
    refusal(await paths.check(`${NFC}.env`), 'PATH_DENIED');
    refusal(await paths.check(`${NFD}.env`), 'PATH_DENIED');
  });

  test('a rule written in NFD refuses the NFC file and a new file in either spelling', async () => {
    const root = makeRoot();
    write(path.join(root, `${NFC}.env`));
    const paths = policy({ roots: [root], deny: [`**/${NFD}.env`] });
    refusal(await paths.check(`${NFC}.env`), 'PATH_DENIED');
    refusal(await paths.check(`sub/${NFD}.env`), 'PATH_DENIED');
  });

  test('a link to the NFD spelling of a denied name is refused at its hop', async () => {
    const root = makeRoot();
    write(path.join(root, `${NFD}.env`));
    fs.symlinkSync(`${NFD}.env`, path.join(root, 'innocent.txt'));
    refusal(await policy({ roots: [root], deny: [`${NFC}.env`] }).check('innocent.txt'), 'PATH_DENIED');
  });

  test('several spellings of a name denied only by its real path are refused as denied, never listed', async () => {
    const root = makeRoot();
    write(path.join(root, 'real', 'sub', `${DOT_THEN_HAT}.env`));
    write(path.join(root, 'real', 'sub', `${HAT_THEN_DOT}.env`));
    fs.symlinkSync('real', path.join(root, 'link'));
    const message = refusal(await policy({ roots: [root], deny: ['real/sub/*.env'] }).check('link/sub/\u1ead.env'), 'PATH_DENIED');
    assert.ok(!message.includes('\\u0323'), message);
  });

  test('a denied folder in NFD on disk refuses a file named below it in NFC', async () => {
    const root = makeRoot();
    write(path.join(root, `secrets-${NFD}`, 'key.pem'));
    const paths = policy({ roots: [root], deny: [`secrets-${NFC}`] });
    refusal(await paths.check(`secrets-${NFC}/key.pem`), 'PATH_DENIED');
    refusal(await paths.check(`secrets-${NFC}/new.pem`), 'PATH_DENIED');
  });

  test('a rule relative to a root configured in NFD applies to names spelled in NFC', async () => {
    const root = path.join(makeTempDir(), NFD);
    write(path.join(root, '.env'));
    const named = path.join(path.dirname(root), NFC, '.env');
    refusal(await policy({ roots: [root], deny: ['.env'] }).check(named), 'PATH_DENIED');
  });
});
