/**
 * The guard end to end on real file systems: symlinks, hard links, inode changes, special files, directories,
 * modes, encodings and line endings, binary and missing files, directory creation, huge files, write failures,
 * roots and deny rules. Every test uses a real temporary directory and the default Node file system.
 */
import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { createGuard } from '../../../src/core/index';
import type { ApprovalDecision, GuardOptions, MutationResult } from '../../../src/core/index';
import { makeTempDir } from '../helpers/tempDir';
import { put, refused, ok, lines } from '../helpers/results';
import { lockDirectory } from '../helpers/lockDirectory';


function setup(options: Partial<GuardOptions> = {}) {
  const root = makeTempDir();
  const guard = createGuard({ roots: [root], ...options });
  return { root, guard, session: guard.session('s1') };
}

suite('guard on real file systems: links and identity', () => {
  test('edits the target through a symlink, keeps the link a link, and reports the name the caller used', async () => {
    const { root, session } = setup();
    const real = put(path.join(root, 'real.txt'), 'alpha\nbeta\n');
    const link = path.join(root, 'link.txt');
    fs.symlinkSync('real.txt', link);

    ok(await session.read('link.txt'));
    const result = ok(await session.edit('link.txt', [{ oldString: 'beta', newString: 'BETA' }]));

    assert.strictEqual(fs.readFileSync(real, 'utf8'), 'alpha\nBETA\n');
    // An atomic rename onto the link's name would replace the link with a regular file.
    assert.ok(fs.lstatSync(link).isSymbolicLink(), 'the link was replaced by a regular file');
    assert.strictEqual(fs.readlinkSync(link), 'real.txt');
    assert.strictEqual(result.files[0].path, link);
  });

  test('a read through the real name authorizes an edit through a symlink to it (one identity)', async () => {
    const { root, session } = setup();
    const real = put(path.join(root, 'real.txt'), 'one\ntwo\n');
    fs.symlinkSync(real, path.join(root, 'alias.txt'));

    ok(await session.read('real.txt'));
    ok(await session.edit('alias.txt', [{ oldString: 'two', newString: 'TWO' }]));
    assert.strictEqual(fs.readFileSync(real, 'utf8'), 'one\nTWO\n');
  });

  // Issue (write path keeps every byte): an in-place rewrite of a hard-linked file was torn by ENOSPC or a crash,
  // and an atomic replacement would split it from its other names. Such files are refused, by any name.
  test('refuses to edit or write a hard-linked file by either name, before asking for a read, and keeps both names one file', async () => {
    const { root, session } = setup();
    const first = put(path.join(root, 'first.txt'), 'one\ntwo\nthree\n');
    const second = path.join(root, 'second.txt');
    fs.linkSync(first, second);
    const inode = fs.statSync(first).ino;

    refused(await session.edit('second.txt', [{ oldString: 'two', newString: 'TWO' }]), 'WRITE_FAILED', 'has 2 hard links', 'Nothing was changed');
    ok(await session.read('first.txt'));
    refused(await session.edit('first.txt', [{ oldString: 'two', newString: 'TWO' }]), 'WRITE_FAILED', 'hard links');
    refused(await session.write('first.txt', 'new\n'), 'WRITE_FAILED', 'hard links');

    for (const name of [first, second]) {
      assert.strictEqual(fs.readFileSync(name, 'utf8'), 'one\ntwo\nthree\n');
      assert.strictEqual(fs.statSync(name).ino, inode);
    }
    assert.strictEqual(fs.statSync(first).nlink, 2);
  });

  test('a file deleted and re-created at the same path with the same bytes keeps what the session saw; other bytes are a change with a diff', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'a.txt'), 'same\ncontent\n');
    ok(await session.read('a.txt'));

    // Holding the old inode open guarantees the re-created file gets a different one.
    const fd = fs.openSync(file, 'r');
    try {
      const oldInode = fs.fstatSync(fd).ino;
      fs.rmSync(file);
      put(file, 'same\ncontent\n');
      assert.notStrictEqual(fs.statSync(file).ino, oldInode, 'test premise: the re-created file has a new inode');
    } finally {
      fs.closeSync(fd);
    }

    // The path is the key and the content decides: these are the bytes the session saw.
    ok(await session.edit('a.txt', [{ oldString: 'same', newString: 'other' }]));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'other\ncontent\n');
    fs.rmSync(file);
    put(file, 'other\nchanged\n');
    const message = refused(await session.edit('a.txt', [{ oldString: 'other', newString: 'x' }]), 'FILE_CHANGED_SINCE_READ');
    assert.ok(lines(message).includes('+changed') && /outside ReadGate/.test(message), message);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'other\nchanged\n');
  });

  test("another session's guarded edit (new inode) reaches a session that read before as a change with a diff, not as a stranger", async () => {
    const { root, guard } = setup();
    const file = put(path.join(root, 'shared.txt'), 'one\ntwo\nthree\nfour\nfive\nsix\n');
    const a = guard.session('A');
    const b = guard.session('B');
    ok(await b.read('shared.txt'));
    ok(await a.read('shared.txt'));
    const inodeBefore = fs.statSync(file).ino;
    ok(await a.edit('shared.txt', [{ oldString: 'two', newString: 'TWO' }]));
    assert.notStrictEqual(fs.statSync(file).ino, inodeBefore, 'test premise: the atomic write gives the file a new inode');

    // Keyed by inode alone, B's ledger would not find the file and say EDIT_REQUIRES_PRIOR_READ.
    const message = refused(await b.edit('shared.txt', [{ oldString: 'two', newString: 'deux' }]), 'FILE_CHANGED_SINCE_READ');
    assert.ok(lines(message).includes('-two'), message);
    assert.ok(lines(message).includes('+TWO'), message);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\nTWO\nthree\nfour\nfive\nsix\n');

    // The lines B saw and the change did not touch stay usable without another read.
    ok(await b.edit('shared.txt', [{ oldString: 'five', newString: 'FIVE' }]));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\nTWO\nthree\nfour\nFIVE\nsix\n');
  });

  test("a session that read only other lines edits them without re-reading after another session's guarded edit", async () => {
    const { root, guard } = setup();
    const file = put(path.join(root, 'shared.txt'), 'one\ntwo\nthree\nfour\nfive\nsix\n');
    const a = guard.session('A');
    const b = guard.session('B');
    ok(await b.read('shared.txt', { offset: 4, limit: 3 }));
    ok(await a.read('shared.txt'));
    ok(await a.edit('shared.txt', [{ oldString: 'two', newString: 'TWO' }]));

    // The change missed lines 4-6, so B's coverage moves to the new version (and the new inode).
    ok(await b.edit('shared.txt', [{ oldString: 'five', newString: 'FIVE' }]));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'one\nTWO\nthree\nfour\nFIVE\nsix\n');
    // ...but carrying coverage over must not unlock the line B never saw.
    refused(await b.edit('shared.txt', [{ oldString: 'TWO', newString: 'deux' }]), 'EDIT_OUTSIDE_SEEN_RANGE');
  });
});

suite('guard on real file systems: special files and directories', () => {
  test('refuses a FIFO for read, edit and write without opening it (opening would block forever)', async () => {
    const { root, session } = setup();
    const fifo = path.join(root, 'pipe');
    execFileSync('mkfifo', [fifo]);

    refused(await session.read('pipe'), 'SPECIAL_FILE', 'FIFO');
    refused(await session.edit('pipe', [{ oldString: 'a', newString: 'b' }]), 'SPECIAL_FILE');
    refused(await session.edit('pipe', [{ oldString: '', newString: 'b' }]), 'SPECIAL_FILE');
    refused(await session.write('pipe', 'b'), 'SPECIAL_FILE');
    assert.ok(fs.lstatSync(fifo).isFIFO());
  });

  test('refuses a unix socket', async () => {
    const { root, session } = setup();
    const socketPath = path.join(root, 'server.sock');
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, resolve);
    });
    try {
      refused(await session.read('server.sock'), 'SPECIAL_FILE', 'socket');
      refused(await session.edit('server.sock', [{ oldString: 'a', newString: 'b' }]), 'SPECIAL_FILE');
      refused(await session.write('server.sock', 'b'), 'SPECIAL_FILE');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('refuses /dev/null and /dev/zero as special files (reading /dev/zero would never end)', async () => {
    const guard = createGuard({ roots: ['/dev'] });
    const session = guard.session('s1');
    refused(await session.read('/dev/null'), 'SPECIAL_FILE', 'character device');
    refused(await session.read('/dev/zero'), 'SPECIAL_FILE', 'character device');
    refused(await session.edit('/dev/zero', [{ oldString: 'a', newString: 'b' }]), 'SPECIAL_FILE');
    refused(await session.edit('/dev/null', [{ oldString: '', newString: 'b' }]), 'SPECIAL_FILE');
    refused(await session.write('/dev/null', 'b'), 'SPECIAL_FILE');
  });

  test('refuses a directory for read (listing some entries) and for edit and write', async () => {
    const { root, session } = setup();
    put(path.join(root, 'src', 'alpha.ts'), 'a\n');
    put(path.join(root, 'src', 'beta.ts'), 'b\n');
    put(path.join(root, 'src', 'nested', 'gamma.ts'), 'c\n');

    refused(await session.read('src'), 'TARGET_IS_DIRECTORY', 'alpha.ts', 'beta.ts', 'nested');
    refused(await session.edit('src', [{ oldString: 'a', newString: 'b' }]), 'TARGET_IS_DIRECTORY');
    refused(await session.edit('src', [{ oldString: '', newString: 'b' }]), 'TARGET_IS_DIRECTORY');
    refused(await session.write('src', 'b'), 'TARGET_IS_DIRECTORY');
    assert.ok(fs.statSync(path.join(root, 'src')).isDirectory());
  });
});

suite('guard on real file systems: modes', () => {
  // 0o666: a mode the umask would strip, so it also catches a temp file whose mode is only set by open().
  for (const mode of [0o640, 0o755, 0o666]) {
    test(`keeps mode ${mode.toString(8)} across an edit`, async () => {
      const { root, session } = setup();
      const file = put(path.join(root, 'script.sh'), '#!/bin/sh\necho one\n');
      fs.chmodSync(file, mode);
      ok(await session.read('script.sh'));
      ok(await session.edit('script.sh', [{ oldString: 'echo one', newString: 'echo two' }]));
      assert.strictEqual(fs.readFileSync(file, 'utf8'), '#!/bin/sh\necho two\n');
      // The temp file of an atomic write starts with default permissions (0o666 & ~umask).
      assert.strictEqual((fs.statSync(file).mode & 0o777).toString(8), mode.toString(8));
    });
  }

  test('gives a created file the same permissions as any new file (not a private temp-file mode)', async () => {
    const { root, session } = setup();
    const control = put(path.join(root, 'control.txt'), 'x');
    ok(await session.edit('made-by-edit.txt', [{ oldString: '', newString: 'x\n' }]));
    ok(await session.write('made-by-write.txt', 'x\n'));
    const expected = (fs.statSync(control).mode & 0o777).toString(8);
    assert.strictEqual((fs.statSync(path.join(root, 'made-by-edit.txt')).mode & 0o777).toString(8), expected);
    assert.strictEqual((fs.statSync(path.join(root, 'made-by-write.txt')).mode & 0o777).toString(8), expected);
  });
});

suite('guard on real file systems: encodings and line endings', () => {
  test('an LF oldString/newString edit of a CRLF file keeps every line CRLF', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'crlf.txt'), 'one\r\ntwo\r\nthree\r\nfour\r\n');
    ok(await session.read('crlf.txt'));
    ok(await session.edit('crlf.txt', [{ oldString: 'two\nthree', newString: 'TWO\nTHREE\nthree and a half' }]));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('one\r\nTWO\r\nTHREE\r\nthree and a half\r\nfour\r\n'));
  });

  test('an edit of a mixed-EOL file keeps each untouched line ending byte for byte', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'mixed.txt'), 'a\r\nb\nc\r\nd\ne\r\n');
    ok(await session.read('mixed.txt'));
    ok(await session.edit('mixed.txt', [{ oldString: 'c', newString: 'C' }]));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('a\r\nb\nC\r\nd\ne\r\n'));

    // A two-line edit: whatever endings it writes, the lines around it keep theirs.
    ok(await session.edit('mixed.txt', [{ oldString: 'b\nC', newString: 'B\nCC' }]));
    const bytes = fs.readFileSync(file).toString('latin1');
    assert.ok(bytes.startsWith('a\r\nB'), JSON.stringify(bytes));
    assert.ok(bytes.endsWith('CC\r\nd\ne\r\n'), JSON.stringify(bytes));
  });

  test('keeps a UTF-8 BOM after an edit and after a write', async () => {
    const { root, session } = setup();
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const file = put(path.join(root, 'bom.txt'), Buffer.concat([bom, Buffer.from('x = 1\ny = 2\n')]));
    const read = ok(await session.read('bom.txt'));
    assert.ok(!read.text.includes('\ufeff'), 'the BOM must not be shown as content');
    ok(await session.edit('bom.txt', [{ oldString: 'y = 2', newString: 'y = 3' }]));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.concat([bom, Buffer.from('x = 1\ny = 3\n')]));
    ok(await session.write('bom.txt', 'z = 4\n'));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.concat([bom, Buffer.from('z = 4\n')]));
  });

  test('edits a Latin-1 file keeping every other byte and encoding the new text as Latin-1', async () => {
    const { root, session } = setup();
    const original = Buffer.from('café\nnaïve\nfin\n', 'latin1');
    assert.ok(original.includes(0xe9), 'test premise: Latin-1 bytes');
    const file = put(path.join(root, 'legacy.txt'), original);
    ok(await session.read('legacy.txt'));
    // Decoding as UTF-8 with replacement characters would destroy the 0xE9 bytes on write.
    ok(await session.edit('legacy.txt', [{ oldString: 'naïve', newString: 'résumé' }]));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('café\nrésumé\nfin\n', 'latin1'));
  });

  test('refuses a character a Latin-1 file cannot hold, leaving the file unchanged', async () => {
    const { root, session } = setup();
    const original = Buffer.from('prix: 5 F\ncafé\n', 'latin1');
    const file = put(path.join(root, 'legacy.txt'), original);
    ok(await session.read('legacy.txt'));
    refused(await session.edit('legacy.txt', [{ oldString: '5 F', newString: '5 €' }]), 'INVALID_INPUT', 'Latin-1');
    assert.deepStrictEqual(fs.readFileSync(file), original);
  });

  test('round-trips an edit of a UTF-16 LE file with BOM', async () => {
    const { root, session } = setup();
    const bom = Buffer.from([0xff, 0xfe]);
    const file = put(path.join(root, 'wide.txt'), Buffer.concat([bom, Buffer.from('alpha\r\nbeta\r\ngamma\r\n', 'utf16le')]));
    const read = ok(await session.read('wide.txt'));
    assert.ok(read.ok && read.kind === 'content' && read.totalLines === 3);
    ok(await session.edit('wide.txt', [{ oldString: 'beta', newString: 'bêta ✓' }]));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.concat([bom, Buffer.from('alpha\r\nbêta ✓\r\ngamma\r\n', 'utf16le')]));
  });

  test('a write over an all-CRLF file produces CRLF', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'win.txt'), 'a\r\nb\r\n');
    ok(await session.read('win.txt'));
    ok(await session.write('win.txt', 'x\ny\nz\n'));
    assert.deepStrictEqual(fs.readFileSync(file), Buffer.from('x\r\ny\r\nz\r\n'));
  });
});

suite('guard on real file systems: binary and missing files', () => {
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1000)]);

  test('refuses to read a binary file, naming its type and size', async () => {
    const { root, session } = setup();
    put(path.join(root, 'logo.png'), png);
    refused(await session.read('logo.png'), 'BINARY_FILE', 'PNG image', '1,008 bytes');
  });

  test('refuses to edit an unread binary file with BINARY_FILE, not a request to read what cannot be read', async () => {
    const { root, session } = setup();
    const file = put(path.join(root, 'logo.png'), png);
    // EDIT_REQUIRES_PRIOR_READ would send the agent into a read → BINARY_FILE → edit loop.
    refused(await session.edit('logo.png', [{ oldString: 'PNG', newString: 'GIF' }]), 'BINARY_FILE');
    refused(await session.write('logo.png', 'text'), 'BINARY_FILE');
    assert.deepStrictEqual(fs.readFileSync(file), png);
  });

  test('a missing file suggests a near miss that differs only in case', async () => {
    const { root, session } = setup();
    put(path.join(root, 'Readme.md'), '# hi\n');
    refused(await session.read('readme.md'), 'FILE_NOT_FOUND', path.join(root, 'Readme.md'));
    refused(await session.edit('readme.md', [{ oldString: 'hi', newString: 'ho' }]), 'FILE_NOT_FOUND', path.join(root, 'Readme.md'));
  });

  test('never suggests a file that a deny rule hides', async () => {
    const open = setup();
    put(path.join(open.root, '.env'), 'SECRET=1\n');
    put(path.join(open.root, 'envs'), 'x\n');
    // Premise: without the deny rule `.env` is a near miss of `env`.
    refused(await open.session.read('env'), 'FILE_NOT_FOUND', path.join(open.root, '.env'));

    const guarded = setup({ deny: ['**/.env*'] });
    put(path.join(guarded.root, '.env'), 'SECRET=1\n');
    put(path.join(guarded.root, 'envs'), 'x\n');
    const message = refused(await guarded.session.read('env'), 'FILE_NOT_FOUND', path.join(guarded.root, 'envs'));
    assert.ok(!message.includes('.env'), `a denied file was suggested:\n${message}`);
  });
});

suite('guard on real file systems: creating directories', () => {
  test('an edit with an empty oldString creates the file and its missing parent directories', async () => {
    const { root, session } = setup();
    const result = ok(await session.edit('a/b/c/new.txt', [{ oldString: '', newString: 'hello\n' }]));
    const file = path.join(root, 'a', 'b', 'c', 'new.txt');
    assert.strictEqual(result.files[0].path, file);
    assert.strictEqual(result.files[0].created, true);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'hello\n');
  });

  test('a create refused by a symlinked directory pointing outside the roots creates no directory', async () => {
    const { root, session } = setup();
    const outside = makeTempDir('readgate-outside-');
    fs.symlinkSync(outside, path.join(root, 'out'));
    refused(await session.edit('out/new/deep/file.txt', [{ oldString: '', newString: 'x\n' }]), 'PATH_DENIED');
    refused(await session.write('out/other/file.txt', 'x\n'), 'PATH_DENIED');
    assert.deepStrictEqual(fs.readdirSync(outside), []);
    assert.ok(fs.lstatSync(path.join(root, 'out')).isSymbolicLink());
  });

  test('a create refused by a deny rule creates no directory', async () => {
    const { root, session } = setup({ deny: ['**/.env*'] });
    refused(await session.edit('config/prod/.env.local', [{ oldString: '', newString: 'A=1\n' }]), 'PATH_DENIED');
    assert.ok(!fs.existsSync(path.join(root, 'config')));
  });

  test('a create whose approval is rejected creates no directory', async () => {
    const { root, session } = setup({ approve: async (): Promise<ApprovalDecision> => ({ approved: false, reason: 'no' }) });
    refused(await session.edit('x/y/new.txt', [{ oldString: '', newString: 'x\n' }]), 'REJECTED_BY_USER');
    refused(await session.write('p/q/new.txt', 'x\n'), 'REJECTED_BY_USER');
    assert.deepStrictEqual(fs.readdirSync(root), []);
  });
});

suite('guard on real file systems: huge files', () => {
  test('reads lines near the end of a 200 MB file by streaming, and refuses to edit it', async function () {
    this.timeout(300_000);
    const { root, session } = setup();
    const file = path.join(root, 'huge.log');
    const lineBytes = 80;
    const totalLines = (200 * 1024 * 1024) / lineBytes;
    const lineOf = (n: number): string => `line ${n} `.padEnd(lineBytes - 1, '.') + '\n';
    const fd = fs.openSync(file, 'w');
    try {
      const perChunk = 100_000;
      for (let first = 1; first <= totalLines; first += perChunk) {
        const parts: string[] = [];
        for (let n = first; n < Math.min(first + perChunk, totalLines + 1); n++) parts.push(lineOf(n));
        fs.writeSync(fd, parts.join(''));
      }
    } finally {
      fs.closeSync(fd);
    }
    try {
      assert.strictEqual(fs.statSync(file).size, 200 * 1024 * 1024);
      const offset = totalLines - 14;
      const read = ok(await session.read('huge.log', { offset, limit: 10 }));
      assert.ok(read.kind === 'content', read.text.slice(0, 200));
      if (read.kind !== 'content') return;
      assert.strictEqual(read.startLine, offset);
      assert.strictEqual(read.endLine, offset + 9);
      assert.strictEqual(read.totalLines, totalLines);
      assert.strictEqual(read.truncated, false);
      const expected = Array.from({ length: 10 }, (_, i) => `${offset + i}\t${lineOf(offset + i).slice(0, -1)}`);
      assert.deepStrictEqual(lines(read.text).slice(1), expected);

      refused(await session.edit('huge.log', [{ oldString: lineOf(offset).slice(0, -1), newString: 'changed' }]), 'FILE_TOO_LARGE');
    } finally {
      fs.rmSync(file, { force: true });
    }
  });
});

suite('guard on real file systems: write failures', () => {
  test('a write that fails leaves the file byte for byte as it was and no temp file behind', async function () {
    const { root, session } = setup();
    const dir = path.join(root, 'locked');
    const original = 'keep\nme\n';
    const file = put(path.join(dir, 'f.txt'), original);
    ok(await session.read('locked/f.txt'));
    const unlock = lockDirectory(dir);
    if (!unlock) this.skip();
    let result: MutationResult;
    try {
      result = await session.edit('locked/f.txt', [{ oldString: 'me', newString: 'you' }]);
    } finally {
      unlock!();
    }
    refused(result, 'WRITE_FAILED', 'left exactly as it was');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), original);
    assert.deepStrictEqual(fs.readdirSync(dir), ['f.txt']);
  });
});

suite('guard on real file systems: roots and deny rules', () => {
  test('refuses a path outside the roots', async () => {
    const { root, session } = setup();
    const outside = put(path.join(makeTempDir('readgate-outside-'), 'x.txt'), 'x\n');
    refused(await session.read(outside), 'PATH_DENIED', 'outside the allowed roots');
    refused(await session.read(path.join(root, '..', path.basename(path.dirname(outside)), 'x.txt')), 'PATH_DENIED');
    refused(await session.write(outside, 'y\n'), 'PATH_DENIED');
    assert.strictEqual(fs.readFileSync(outside, 'utf8'), 'x\n');
  });

  test('a deny glob refuses read and write of matching files, existing or new, at any depth', async () => {
    const { root, session } = setup({ deny: ['**/.env*'] });
    const env = put(path.join(root, '.env'), 'SECRET=1\n');
    put(path.join(root, 'config', '.env.production'), 'SECRET=2\n');
    refused(await session.read('.env'), 'PATH_DENIED', '.env*');
    refused(await session.read('config/.env.production'), 'PATH_DENIED');
    refused(await session.write('.env', 'SECRET=0\n'), 'PATH_DENIED');
    refused(await session.edit('.env', [{ oldString: '1', newString: '0' }]), 'PATH_DENIED');
    refused(await session.write('.env.local', 'X=1\n'), 'PATH_DENIED');
    assert.strictEqual(fs.readFileSync(env, 'utf8'), 'SECRET=1\n');
    assert.ok(!fs.existsSync(path.join(root, '.env.local')));
  });

  test('a symlink whose target is denied is refused like the target', async () => {
    const { root, session } = setup({ deny: ['**/.env*'] });
    put(path.join(root, '.env'), 'SECRET=1\n');
    fs.symlinkSync('.env', path.join(root, 'settings.txt'));
    refused(await session.read('settings.txt'), 'PATH_DENIED');
    refused(await session.write('settings.txt', 'x\n'), 'PATH_DENIED');
    assert.strictEqual(fs.readFileSync(path.join(root, '.env'), 'utf8'), 'SECRET=1\n');
  });
});
