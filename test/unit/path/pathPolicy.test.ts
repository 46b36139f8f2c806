import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { PathPolicy, type PathCheck, type PathPolicyOptions } from '../../../src/core/path/pathPolicy';
import type { FileSystem } from '../../../src/core/ports';
import { makeTempDir } from '../helpers/tempDir';
import { assertAllowed } from '../helpers/pathChecks';

/** A temp dir with `root/` (the allowed root) and `outside/` beside it. */
function makeLayout(): { base: string; root: string; outside: string } {
  const base = makeTempDir();
  const root = path.join(base, 'root');
  const outside = path.join(base, 'outside');
  fs.mkdirSync(root);
  fs.mkdirSync(outside);
  return { base, root, outside };
}

function write(file: string, text = 'x\n'): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

function link(linkPath: string, text: string): string {
  fs.mkdirSync(path.dirname(linkPath), { recursive: true });
  fs.symlinkSync(text, linkPath);
  return linkPath;
}

function policy(options: PathPolicyOptions, fileSystem: FileSystem = createNodeFileSystem()): PathPolicy {
  return new PathPolicy(options, fileSystem);
}


function assertRefused(result: PathCheck, code: 'PATH_INVALID' | 'PATH_DENIED', ...mentions: string[]): void {
  assert.strictEqual(result.ok, false, `expected ${code}, got ${JSON.stringify(result)}`);
  if (result.ok) return;
  assert.strictEqual(result.code, code, result.message);
  for (const mention of mentions) assert.ok(result.message.includes(mention), `message lacks "${mention}": ${result.message}`);
}

suite('PathPolicy: input', () => {
  test('refuses a path that is not a string', async () => {
    const { root } = makeLayout();
    for (const input of [undefined, null, 42, {}, ['a.txt']]) {
      assertRefused(await policy({ roots: [root] }).check(input), 'PATH_INVALID', 'must be a string');
    }
  });

  test('refuses an empty or whitespace-only path', async () => {
    const { root } = makeLayout();
    for (const input of ['', '   ', '\t\n']) assertRefused(await policy({ roots: [root] }).check(input), 'PATH_INVALID', 'empty');
  });

  test('refuses a path with a NUL byte, which could cut the name short in native code', async () => {
    const { root } = makeLayout();
    write(path.join(root, 'a.txt'));
    assertRefused(await policy({ roots: [root] }).check(path.join(root, 'a.txt\0.png')), 'PATH_INVALID', 'NUL');
  });

  test('resolves a relative path against the first root', async () => {
    const { base, root } = makeLayout();
    const second = path.join(base, 'second');
    write(path.join(root, 'src/a.ts'));
    const file = path.join(root, 'src/a.ts');
    assertAllowed(await policy({ roots: [root, second] }).check('src/a.ts'), { path: file, target: file, exists: true });
  });

  test('resolves .. in the named path lexically', async () => {
    const { root } = makeLayout();
    const file = write(path.join(root, 'a.txt'));
    assertAllowed(await policy({ roots: [root] }).check(`${root}/sub/../a.txt`), { path: file, target: file, exists: true });
  });

  test('finds an NFC file named in NFD, so both spellings of a name are one file', async () => {
    const { root } = makeLayout();
    const nfc = path.join(root, 'caf\u00e9.txt');
    write(nfc);
    const result = await policy({ roots: [root] }).check(path.join(root, 'cafe\u0301.txt'));
    assertAllowed(result, { path: nfc, target: nfc, exists: true });
  });

  test('expands ~ and ~/ to the home directory of the file system port', async () => {
    const { root } = makeLayout();
    const file = write(path.join(root, 'notes.md'));
    const home: FileSystem = { ...createNodeFileSystem(), homedir: () => root };
    assertAllowed(await policy({ roots: [root] }, home).check('~/notes.md'), { path: file, target: file, exists: true });
    assertAllowed(await policy({ roots: [root] }, home).check('~'), { path: root, target: root, exists: true });
  });

  test('refuses ~user and says only ~ and ~/ are expanded', async () => {
    const { root } = makeLayout();
    assertRefused(await policy({ roots: [root] }).check('~root/.bashrc'), 'PATH_INVALID', 'only ~ and ~/ are expanded', './~root/.bashrc');
  });

  test('treats ./~name as a plain file name', async () => {
    const { root } = makeLayout();
    const file = path.join(root, '~backup');
    assertAllowed(await policy({ roots: [root] }).check('./~backup'), { path: file, target: file, exists: false });
  });
});

suite('PathPolicy: roots', () => {
  test('refuses a relative path that climbs out of the root with ..', async () => {
    const { root, outside } = makeLayout();
    write(path.join(outside, 'secret.txt'));
    assertRefused(await policy({ roots: [root] }).check('../outside/secret.txt'), 'PATH_DENIED', 'outside the allowed roots', root);
  });

  test('refuses an absolute path outside every root and names the roots', async () => {
    const { base, root, outside } = makeLayout();
    const second = path.join(base, 'second');
    const result = await policy({ roots: [root, second] }).check(write(path.join(outside, 'a.txt')));
    assertRefused(result, 'PATH_DENIED', root, second);
  });

  test('does not count a sibling folder whose name starts with the root name as inside', async () => {
    const { base, root } = makeLayout();
    const file = write(path.join(base, 'rootkit/a.txt'));
    assertRefused(await policy({ roots: [root] }).check(file), 'PATH_DENIED');
  });

  test('accepts the root itself', async () => {
    const { root } = makeLayout();
    assertAllowed(await policy({ roots: [root] }).check(root), { path: root, target: root, exists: true });
  });

  test('accepts a path under any of several roots', async () => {
    const { base, root } = makeLayout();
    const second = path.join(base, 'second');
    const file = write(path.join(second, 'b.txt'));
    assertAllowed(await policy({ roots: [root, second] }).check(file), { path: file, target: file, exists: true });
  });

  test('accepts paths under a root named through a symlink, in its given and real form', async () => {
    const { base, root } = makeLayout();
    const alias = link(path.join(base, 'alias'), root);
    const file = write(path.join(root, 'a.txt'));
    const check = policy({ roots: [alias] });
    assertAllowed(await check.check(path.join(alias, 'a.txt')), { path: path.join(alias, 'a.txt'), target: file, exists: true });
    assertAllowed(await check.check(file), { path: file, target: file, exists: true });
  });

  test('keeps a root that does not exist yet lexically', async () => {
    const { base } = makeLayout();
    const later = path.join(base, 'later');
    const file = path.join(later, 'new.txt');
    assertAllowed(await policy({ roots: [later] }).check('new.txt'), { path: file, target: file, exists: false });
  });

  test("computes the roots' real paths once, on the first check", async () => {
    const { base, root } = makeLayout();
    let realpaths = 0;
    const counting: FileSystem = {
      ...createNodeFileSystem(),
      realpath: async (p) => {
        realpaths++;
        return fs.realpathSync(p);
      },
    };
    const check = policy({ roots: [root, path.join(base, 'outside')] }, counting);
    assert.strictEqual(realpaths, 0);
    await Promise.all([check.check('a.txt'), check.check('b.txt')]);
    await check.check('c.txt');
    assert.strictEqual(realpaths, 2);
  });

  test('rejects when the file system port fails unexpectedly, and tries the roots again on the next check', async () => {
    const { root } = makeLayout();
    let failures = 1;
    const flaky: FileSystem = {
      ...createNodeFileSystem(),
      stat: async (p) => {
        if (failures-- > 0) throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return createNodeFileSystem().stat(p);
      },
    };
    const check = policy({ roots: [root] }, flaky);
    await assert.rejects(check.check('a.txt'), /EACCES/);
    assert.strictEqual((await check.check('a.txt')).ok, true);
  });

  test('refuses every path when no roots are configured', async () => {
    assertRefused(await policy({ roots: [] }).check('/tmp/a.txt'), 'PATH_DENIED', 'No roots');
  });
});

suite('PathPolicy: symlink chain', () => {
  test('names the file by the path the caller gave and targets the real file behind a link', async () => {
    const { root } = makeLayout();
    const file = write(path.join(root, 'real.txt'));
    const alias = link(path.join(root, 'alias.txt'), 'real.txt');
    assertAllowed(await policy({ roots: [root] }).check(alias), { path: alias, target: file, exists: true });
  });

  test('follows a chain of links inside the roots, relative and absolute', async () => {
    const { root } = makeLayout();
    const file = write(path.join(root, 'deep/real.txt'));
    link(path.join(root, 'deep/c'), 'real.txt');
    link(path.join(root, 'b'), path.join(root, 'deep/c'));
    const a = link(path.join(root, 'sub/a'), '../b');
    assertAllowed(await policy({ roots: [root] }).check(a), { path: a, target: file, exists: true });
  });

  test('refuses a link that points outside the roots and names the link and its target', async () => {
    const { root, outside } = makeLayout();
    const secret = write(path.join(outside, 'secret.txt'));
    const leak = link(path.join(root, 'leak.txt'), secret);
    assertRefused(await policy({ roots: [root] }).check(leak), 'PATH_DENIED', `${leak} points to ${secret}, outside the allowed roots`);
  });

  test('refuses a symlink hop that leaves the roots even when it comes back inside', async () => {
    const { root, outside } = makeLayout();
    write(path.join(root, 'file.txt'));
    const bounce = link(path.join(outside, 'bounce'), path.join(root, 'file.txt'));
    const entry = link(path.join(root, 'entry'), bounce);
    assertRefused(await policy({ roots: [root] }).check(entry), 'PATH_DENIED', `${entry} points to ${bounce}`);
  });

  test('refuses an existing file under a symlinked directory that points outside the roots', async () => {
    const { root, outside } = makeLayout();
    write(path.join(outside, 'data/secret.txt'));
    const dir = link(path.join(root, 'data'), path.join(outside, 'data'));
    assertRefused(await policy({ roots: [root] }).check(path.join(dir, 'secret.txt')), 'PATH_DENIED', `${dir} points to`);
  });

  test('refuses a new file under a symlinked directory that points outside, so nothing is created outside', async () => {
    const { root, outside } = makeLayout();
    const dir = link(path.join(root, 'out'), outside);
    assertRefused(await policy({ roots: [root] }).check(path.join(dir, 'new/deeper.txt')), 'PATH_DENIED', `${dir} points to ${outside}`);
  });

  test('resolves a new file under a symlinked directory to its real location', async () => {
    const { root } = makeLayout();
    fs.mkdirSync(path.join(root, 'real'));
    const dir = link(path.join(root, 'alias'), 'real');
    const named = path.join(dir, 'new/file.txt');
    assertAllowed(await policy({ roots: [root] }).check(named), { path: named, target: path.join(root, 'real/new/file.txt'), exists: false });
  });

  test('reports a broken link as missing and targets its destination', async () => {
    const { root } = makeLayout();
    const broken = link(path.join(root, 'broken'), 'gone/file.txt');
    assertAllowed(await policy({ roots: [root] }).check(broken), { path: broken, target: path.join(root, 'gone/file.txt'), exists: false });
  });

  test('refuses a broken link that points outside the roots', async () => {
    const { root, outside } = makeLayout();
    const broken = link(path.join(root, 'broken'), path.join(outside, 'not-yet.txt'));
    assertRefused(await policy({ roots: [root] }).check(broken), 'PATH_DENIED', `${broken} points to`);
  });

  test('treats a path that goes through a file as missing', async () => {
    const { root } = makeLayout();
    write(path.join(root, 'file.txt'));
    const named = path.join(root, 'file.txt/child');
    assertAllowed(await policy({ roots: [root] }).check(named), { path: named, target: named, exists: false });
  });

  test('applies .. in a link to the real directory, as the kernel does', async () => {
    // `b` points at the root itself, so `b/..` is the root's parent: the text reads as root/secret.txt, but
    // the kernel opens the file beside the root. (Node's JS fs.realpathSync gets this wrong; .native agrees.)
    const { base, root } = makeLayout();
    const secret = write(path.join(base, 'secret.txt'), 'outside\n');
    write(path.join(root, 'secret.txt'), 'inside\n');
    link(path.join(root, 'b'), '.');
    const a = link(path.join(root, 'a'), 'b/../secret.txt');
    assert.strictEqual(fs.readFileSync(a, 'utf8'), 'outside\n');
    assertRefused(await policy({ roots: [root] }).check(a), 'PATH_DENIED', `resolves to ${secret}`);
  });

  test('refuses a symlink loop as an invalid path', async () => {
    const { root } = makeLayout();
    link(path.join(root, 'x'), 'y');
    const y = link(path.join(root, 'y'), 'x');
    assertRefused(await policy({ roots: [root] }).check(path.join(y, 'file.txt')), 'PATH_INVALID', 'loop');
  });

  test('follows 40 hops and refuses the 41st', async () => {
    const { root } = makeLayout();
    const file = write(path.join(root, 'file.txt'));
    const chain = (length: number, prefix: string): string => {
      for (let i = 0; i < length; i++) link(path.join(root, `${prefix}${i}`), i === length - 1 ? 'file.txt' : `${prefix}${i + 1}`);
      return path.join(root, `${prefix}0`);
    };
    const check = policy({ roots: [root] });
    const forty = chain(40, 'ok');
    assertAllowed(await check.check(forty), { path: forty, target: file, exists: true });
    assertRefused(await check.check(chain(41, 'long')), 'PATH_INVALID', '40');
  });
});

suite('PathPolicy: deny rules', () => {
  test('refuses a path matching a root-relative glob and names the rule', async () => {
    const { root } = makeLayout();
    const key = write(path.join(root, 'secrets/server.pem'));
    assertRefused(await policy({ roots: [root], deny: ['secrets/*.pem'] }).check(key), 'PATH_DENIED', 'secrets/*.pem');
  });

  test('refuses everything under a folder that a rule names, including new files', async () => {
    const { root } = makeLayout();
    write(path.join(root, '.git/config'));
    const check = policy({ roots: [root], deny: ['.git'] });
    for (const name of ['.git', '.git/config', '.git/hooks/new-hook']) {
      assertRefused(await check.check(name), 'PATH_DENIED', '".git"');
    }
  });

  test('does not refuse a name that only starts like a denied folder', async () => {
    const { root } = makeLayout();
    const workflow = write(path.join(root, '.github/workflows/ci.yml'));
    assertAllowed(await policy({ roots: [root], deny: ['.git'] }).check(workflow), { path: workflow, target: workflow, exists: true });
  });

  test('matches dot files at any depth with a ** glob', async () => {
    const { root } = makeLayout();
    const check = policy({ roots: [root], deny: ['**/.env*'] });
    assertRefused(await check.check('.env'), 'PATH_DENIED', '**/.env*');
    assertRefused(await check.check('app/config/.env.local'), 'PATH_DENIED', '**/.env*');
  });

  test('matches relative rules below every root', async () => {
    const { base, root } = makeLayout();
    const second = path.join(base, 'second');
    const key = write(path.join(second, 'secrets/a.pem'));
    assertRefused(await policy({ roots: [root, second], deny: ['secrets/*.pem'] }).check(key), 'PATH_DENIED');
  });

  test('matches absolute rules against the whole path', async () => {
    const { root } = makeLayout();
    const file = write(path.join(root, 'private/notes.txt'));
    assertRefused(await policy({ roots: [root], deny: [`${root}/private/**`] }).check(file), 'PATH_DENIED', `${root}/private/**`);
  });

  test('ignores case, since case-insensitive file systems open .git through .GIT', async () => {
    const { root } = makeLayout();
    assertRefused(await policy({ roots: [root], deny: ['.git'] }).check('.GIT/config'), 'PATH_DENIED');
  });

  test('refuses a link whose hop lands on a denied file and names the link', async () => {
    const { root } = makeLayout();
    write(path.join(root, '.git/config'));
    const innocent = link(path.join(root, 'innocent.txt'), '.git/config');
    assertRefused(await policy({ roots: [root], deny: ['.git'] }).check(innocent), 'PATH_DENIED', `${innocent} points to`, '".git"');
  });

  test('refuses a path whose final target is denied though no single hop is', async () => {
    const { root } = makeLayout();
    write(path.join(root, 'secrets/a.pem'));
    const keys = link(path.join(root, 'keys'), 'secrets');
    const result = await policy({ roots: [root], deny: ['secrets/*.pem'] }).check(path.join(keys, 'a.pem'));
    assertRefused(result, 'PATH_DENIED', `resolves to ${path.join(root, 'secrets/a.pem')}`);
  });
});
