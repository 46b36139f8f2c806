/**
 * File identity by path and content (issue 11): a session's ledger is keyed by the canonical path and the
 * content decides, however the file was replaced. `entries()`, `check()` and `edit()` must agree in every case,
 * and a reused inode never carries history. Real temp dirs, real renames, real inode reuse.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createGuard, type ErrorCode, type GuardSession } from '../../../src/core/index';
import { makeTempDir } from '../helpers/tempDir';
import { lines, put } from '../helpers/results';

const numbered = (n: number): string => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');
const ORIGINAL = numbered(10);

/** Replaces `file` by rename (as git checkout, sed -i and safe-save do); the old inode is held so the new one differs. */
function replaceByRename(file: string, content: string): void {
  const held = fs.openSync(file, 'r');
  try {
    const before = fs.fstatSync(held).ino;
    const temp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(temp, content);
    fs.renameSync(temp, file);
    assert.notStrictEqual(fs.statSync(file).ino, before, 'test premise: the replacement has a new inode');
  } finally {
    fs.closeSync(held);
  }
}

/** Deletes `file` and creates `other` (same folder) until it lands on `file`'s freed inode. Fails loudly if it never does. */
function createOnReusedInode(file: string, other: string, content: string): void {
  const inode = fs.statSync(file).ino;
  fs.rmSync(file);
  for (let i = 0; i < 2000; i++) {
    fs.writeFileSync(other, content);
    if (fs.statSync(other).ino === inode) return;
    fs.rmSync(other);
    // Occupy the inode the file system handed out instead, so the freed one comes round.
    fs.writeFileSync(`${other}.pad${i}`, '');
  }
  assert.fail('test premise: this file system never reused the freed inode within 2000 creations');
}

interface Case {
  name: string;
  /** What happens after the session read lines 1–5 of a.txt (ORIGINAL). Returns the path to check and edit. */
  act(root: string, file: string, session: GuardSession): Promise<string> | string;
  read?: false;
  check: 'unknown' | 'stale' | 'fresh';
  /** ok, or the refusal code; `mentions` must all appear in the refusal. */
  edit: 'ok' | ErrorCode;
  mentions?: string[];
  entries: number;
}

const CASES: Case[] = [
  { name: 'unseen', read: false, act: (_r, file) => file, check: 'unknown', edit: 'EDIT_REQUIRES_PRIOR_READ', entries: 0 },
  { name: 'fresh', act: (_r, file) => file, check: 'fresh', edit: 'ok', entries: 1 },
  {
    name: 'changed outside seen lines',
    act: (_r, file) => (fs.writeFileSync(file, ORIGINAL.replace('line 9\n', 'line 9 (theirs)\n')), file),
    check: 'stale',
    edit: 'ok',
    entries: 1,
  },
  {
    name: 'changed in seen lines',
    act: (_r, file) => (fs.writeFileSync(file, ORIGINAL.replace('line 3\n', 'line 3 (theirs)\n')), file),
    check: 'stale',
    edit: 'FILE_CHANGED_SINCE_READ',
    mentions: ['+line 3 (theirs)', 'outside ReadGate'],
    entries: 1,
  },
  { name: 'replaced, same bytes', act: (_r, file) => (replaceByRename(file, ORIGINAL), file), check: 'fresh', edit: 'ok', entries: 1 },
  {
    name: 'replaced, other bytes outside seen lines',
    act: (_r, file) => (replaceByRename(file, ORIGINAL.replace('line 8\n', 'eight\n')), file),
    check: 'stale',
    edit: 'ok',
    entries: 1,
  },
  {
    name: 'replaced, other bytes in seen lines',
    act: (_r, file) => (replaceByRename(file, ORIGINAL.replace('line 4\n', 'four\n')), file),
    check: 'stale',
    edit: 'FILE_CHANGED_SINCE_READ',
    mentions: ['-line 4', '+four'],
    entries: 1,
  },
  { name: 'vanished', act: (_r, file) => (fs.rmSync(file), file), check: 'stale', edit: 'FILE_CHANGED_SINCE_READ', mentions: ['was deleted after you read it'], entries: 1 },
  {
    name: 'reappeared (seen missing, then created)',
    read: false,
    act: async (root, _file, session) => {
      const late = path.join(root, 'late.txt');
      assert.strictEqual((await session.read(late)).ok, false);
      fs.writeFileSync(late, ORIGINAL);
      return late;
    },
    check: 'stale',
    edit: 'FILE_CHANGED_SINCE_READ',
    mentions: ['did not exist when you looked'],
    entries: 1,
  },
  {
    name: 'inode reused by another file with the same bytes',
    act: (root, file) => (createOnReusedInode(file, path.join(root, 'd.txt'), ORIGINAL), path.join(root, 'd.txt')),
    check: 'unknown',
    edit: 'EDIT_REQUIRES_PRIOR_READ',
    entries: 1,
  },
  {
    name: 'inode reused by another file with other bytes',
    act: (root, file) => (createOnReusedInode(file, path.join(root, 'd.txt'), numbered(12)), path.join(root, 'd.txt')),
    check: 'unknown',
    edit: 'EDIT_REQUIRES_PRIOR_READ',
    entries: 1,
  },
  {
    name: 'hard-link alias (never replaced: its other name would split off)',
    act: (root, file) => (fs.linkSync(file, path.join(root, 'b.txt')), path.join(root, 'b.txt')),
    check: 'fresh',
    edit: 'WRITE_FAILED',
    mentions: ['hard links'],
    entries: 1,
  },
  {
    name: 'renamed here (same file, same bytes: a rename keeps inode and birth time)',
    act: (root, file) => (fs.renameSync(file, path.join(root, 'c.txt')), path.join(root, 'c.txt')),
    check: 'fresh',
    edit: 'ok',
    entries: 1,
  },
  {
    name: 'symlink alias',
    act: (root) => (fs.symlinkSync('a.txt', path.join(root, 'l.txt')), path.join(root, 'l.txt')),
    check: 'fresh',
    edit: 'ok',
    entries: 1,
  },
];

suite('file identity: path is the key, content decides (entries, check and edit agree)', () => {
  for (const c of CASES) {
    test(c.name, async () => {
      const root = makeTempDir();
      const file = put(path.join(root, 'a.txt'), ORIGINAL);
      const session = createGuard({ roots: [root] }).session('s');
      if (c.read !== false) assert.ok((await session.read(file, { offset: 1, limit: 5 })).ok);
      const subject = await c.act(root, file, session);
      const before = fs.existsSync(subject) ? fs.readFileSync(subject) : undefined;

      assert.strictEqual(await session.check(subject), c.check, 'check()');
      assert.strictEqual(session.entries().length, c.entries, `entries(): ${JSON.stringify(session.entries().map((e) => e.path))}`);
      const result = await session.edit(subject, [{ oldString: 'line 2\n', newString: 'two\n' }]);
      if (c.edit === 'ok') {
        assert.ok(result.ok, JSON.stringify(result));
        assert.strictEqual(await session.check(subject), 'fresh', 'check() after the session’s own edit');
      } else {
        assert.ok(!result.ok && result.code === c.edit, `expected ${c.edit}, got ${JSON.stringify(result).slice(0, 500)}`);
        for (const mention of c.mentions ?? []) assert.ok(lines(result.message).includes(mention) || result.message.includes(mention), `lacks ${mention}: ${result.message}`);
        if (before) assert.deepStrictEqual(fs.readFileSync(subject), before, 'a refused edit changed the file');
      }
      // Whatever happened, a path appears once.
      const named = session.entries().map((e) => e.path);
      assert.strictEqual(new Set(named).size, named.length, `an entry is listed twice: ${JSON.stringify(named)}`);
    });
  }

  test("own writes keep exactly one entry per file (each atomic write gives the file a new inode)", async () => {
    const root = makeTempDir();
    const file = put(path.join(root, 'b1.txt'), ORIGINAL);
    const session = createGuard({ roots: [root] }).session('s');
    assert.ok((await session.read(file)).ok);
    for (let i = 1; i <= 3; i++) {
      const inode = fs.statSync(file).ino;
      assert.ok((await session.edit(file, [{ oldString: `line ${i}\n`, newString: `L${i}\n` }])).ok);
      assert.notStrictEqual(fs.statSync(file).ino, inode, 'test premise: the guard replaced the file by rename');
      assert.deepStrictEqual(session.entries().map((e) => e.path), [file]);
      assert.strictEqual(await session.check(file), 'fresh');
    }
    assert.ok((await session.write(path.join(root, 'new.txt'), 'x\n')).ok);
    assert.ok((await session.write(path.join(root, 'new.txt'), 'y\n')).ok);
    assert.strictEqual(session.entries().length, 2);
  });

  test('a file renamed away: the old name is refused as deleted, the new name edits what the session saw', async () => {
    const root = makeTempDir();
    const file = put(path.join(root, 'a.txt'), ORIGINAL);
    const session = createGuard({ roots: [root] }).session('s');
    assert.ok((await session.read(file, { offset: 1, limit: 5 })).ok);
    const moved = path.join(root, 'moved.txt');
    fs.renameSync(file, moved);
    const old = await session.edit(file, [{ oldString: 'line 2\n', newString: 'two\n' }]);
    assert.ok(!old.ok && old.code === 'FILE_CHANGED_SINCE_READ' && old.message.includes('was deleted after you read it'), JSON.stringify(old));
    assert.strictEqual(fs.existsSync(file), false, 'the old name was re-created');
    assert.ok((await session.edit(moved, [{ oldString: 'line 2\n', newString: 'two\n' }])).ok);
    // Only the lines seen under the old name count.
    const unseen = await session.edit(moved, [{ oldString: 'line 8\n', newString: 'eight\n' }]);
    assert.ok(!unseen.ok && unseen.code === 'EDIT_OUTSIDE_SEEN_RANGE', JSON.stringify(unseen));
  });

  test('a reused inode never lends its history to a refusal: no other file’s content appears as a diff', async () => {
    const root = makeTempDir();
    const file = put(path.join(root, 'a.txt'), 'secret alpha\nsecret beta\n');
    const session = createGuard({ roots: [root] }).session('s');
    assert.ok((await session.read(file)).ok);
    const other = path.join(root, 'd.txt');
    createOnReusedInode(file, other, 'public one\npublic two\n');
    const result = await session.edit(other, [{ oldString: 'public one', newString: 'x' }]);
    assert.ok(!result.ok && result.code === 'EDIT_REQUIRES_PRIOR_READ', JSON.stringify(result));
    assert.ok(!result.message.includes('secret'), result.message);
    const read = await session.read(other);
    assert.ok(read.ok && read.kind === 'content' && !read.text.includes('secret'));
  });

  test('git checkout style: every seen file replaced by rename keeps its coverage; unchanged lines edit, changed seen lines refuse', async () => {
    const root = makeTempDir();
    const guard = createGuard({ roots: [root] });
    const session = guard.session('s');
    const files = Array.from({ length: 40 }, (_, i) => put(path.join(root, `f${i}.txt`), ORIGINAL));
    for (const file of files) assert.ok((await session.read(file)).ok);
    files.forEach((file, i) => replaceByRename(file, i % 2 ? ORIGINAL.replace('line 7\n', 'line 7 (branch)\n') : ORIGINAL));
    for (const [i, file] of files.entries()) {
      const result = await session.edit(file, [{ oldString: i % 2 ? 'line 7 (branch)\n' : 'line 7\n', newString: 'seven\n' }]);
      if (i % 2 === 0) assert.ok(result.ok, JSON.stringify(result));
      else assert.ok(!result.ok && result.code === 'FILE_CHANGED_SINCE_READ' && result.message.includes('+line 7 (branch)'), JSON.stringify(result));
    }
    assert.strictEqual(session.entries().length, 40);
  });
});

suite('attribution: a change is named only by what proves it', () => {
  const setup = () => {
    const root = makeTempDir();
    const file = put(path.join(root, 'a.txt'), ORIGINAL);
    const guard = createGuard({ roots: [root] });
    return { root, file, guard };
  };

  test('another session is named for the content it wrote', async () => {
    const { file, guard } = setup();
    const a = guard.session('A');
    const b = guard.session('B');
    assert.ok((await a.read(file)).ok && (await b.read(file)).ok);
    assert.ok((await a.edit(file, [{ oldString: 'line 2\n', newString: 'two\n' }])).ok);
    const result = await b.edit(file, [{ oldString: 'line 2\n', newString: 'deux\n' }]);
    assert.ok(!result.ok && /changed since you read it \(by another agent session \(A\)\)/.test(result.message), JSON.stringify(result));
  });

  test('a session is not blamed once its content was changed outside ReadGate, not even the asking session', async () => {
    const { file, guard } = setup();
    const a = guard.session('A');
    const b = guard.session('B');
    assert.ok((await a.read(file)).ok && (await b.read(file)).ok);
    assert.ok((await a.edit(file, [{ oldString: 'line 2\n', newString: 'two\n' }])).ok);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('two\n', 'TWO\n'));
    for (const session of [a, b]) {
      const result = await session.edit(file, [{ oldString: 'line 3\n', newString: 'three\n' }]);
      assert.ok(!result.ok && result.code === 'FILE_CHANGED_SINCE_READ', JSON.stringify(result));
      assert.match(result.message, /\(outside ReadGate\)/);
      assert.doesNotMatch(result.message, /agent session/);
    }
  });

  test('editor, undo and git notes are named only as reported; with no note the change is "outside ReadGate"', async () => {
    for (const [source, words] of [
      [{ kind: 'editor' }, 'by someone typing in the editor'],
      [{ kind: 'editor', detail: 'undo' }, 'by an undo in the editor'],
      [{ kind: 'git' }, 'by a git operation'],
      [undefined, 'outside ReadGate'],
    ] as const) {
      const { file, guard } = setup();
      const session = guard.session('s');
      assert.ok((await session.read(file)).ok);
      fs.writeFileSync(file, ORIGINAL.replace('line 2\n', 'changed\n'));
      if (source) guard.noteChange(file, source);
      const result = await session.edit(file, [{ oldString: 'line 2\n', newString: 'x\n' }]);
      assert.ok(!result.ok && result.message.includes(`changed since you read it (${words})`), JSON.stringify(result));
    }
  });
});
