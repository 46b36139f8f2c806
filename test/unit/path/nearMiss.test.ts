import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createNodeFileSystem } from '../../../src/core/nodeFileSystem';
import { suggestNearMisses } from '../../../src/core/path/nearMiss';
import type { FileSystem } from '../../../src/core/ports';
import { makeTempDir } from '../helpers/tempDir';

function dirWith(...names: string[]): string {
  const dir = makeTempDir();
  for (const name of names) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    if (name.endsWith('/')) fs.mkdirSync(path.join(dir, name), { recursive: true });
    else fs.writeFileSync(path.join(dir, name), '');
  }
  return dir;
}

async function suggest(dir: string, missing: string, limit?: number): Promise<string[]> {
  const found = await suggestNearMisses(path.join(dir, missing), createNodeFileSystem(), limit);
  return found.map((suggestion) => path.relative(dir, suggestion));
}

suite('suggestNearMisses', () => {
  test('suggests a name that differs only in case', async () => {
    const dir = dirWith('README.md', 'other.txt');
    assert.deepStrictEqual(await suggest(dir, 'readme.md'), ['README.md']);
  });

  test('suggests the same stem with another extension', async () => {
    const dir = dirWith('index.js', 'main.ts');
    assert.deepStrictEqual(await suggest(dir, 'index.ts'), ['index.js']);
  });

  test('suggests a long name within two edits', async () => {
    const dir = dirWith('readme.md', 'license');
    assert.deepStrictEqual(await suggest(dir, 'raedme.md'), ['readme.md']);
  });

  test('allows one edit for names of up to five characters', async () => {
    const dir = dirWith('main', 'mxy');
    assert.deepStrictEqual(await suggest(dir, 'mai'), ['main']);
  });

  test('makes no fuzzy suggestion for names of one or two characters, only case variants', async () => {
    const dir = dirWith('ac', 'AB', 'b');
    assert.deepStrictEqual(await suggest(dir, 'ab'), ['AB']);
  });

  test('suggests for the first missing component when several are missing', async () => {
    const dir = dirWith('src/lib/x.ts', 'test/');
    assert.deepStrictEqual(await suggest(dir, 'srcc/lib/x.ts'), ['src']);
  });

  test('returns absolute paths', async () => {
    const dir = dirWith('Notes.txt');
    assert.deepStrictEqual(await suggestNearMisses(path.join(dir, 'notes.txt'), createNodeFileSystem()), [path.join(dir, 'Notes.txt')]);
  });

  test('orders case variants, then other extensions, then by edit distance, and keeps to the limit', async () => {
    const dir = dirWith('cofnig.ts', 'cnfig.ts', 'config.js', 'Config.ts', 'unrelated.ts');
    assert.deepStrictEqual(await suggest(dir, 'config.ts', 10), ['Config.ts', 'config.js', 'cnfig.ts', 'cofnig.ts']);
    assert.deepStrictEqual(await suggest(dir, 'config.ts'), ['Config.ts', 'config.js', 'cnfig.ts']);
    assert.deepStrictEqual(await suggest(dir, 'config.ts', 1), ['Config.ts']);
  });

  test('breaks ties by name so the same directory always gives the same answer', async () => {
    const dir = dirWith('util-b.ts', 'util-a.ts', 'util-c.ts');
    assert.deepStrictEqual(await suggest(dir, 'util-x.ts'), ['util-a.ts', 'util-b.ts', 'util-c.ts']);
  });

  test('returns nothing when no name is close', async () => {
    const dir = dirWith('alpha.ts', 'beta.ts');
    assert.deepStrictEqual(await suggest(dir, 'gamma-ray.md'), []);
  });

  test('returns nothing instead of throwing when the file system fails', async () => {
    const dir = dirWith('readme.md');
    const failing: FileSystem = {
      ...createNodeFileSystem(),
      readdir: async () => {
        throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
      },
    };
    assert.deepStrictEqual(await suggestNearMisses(path.join(dir, 'README.md'), failing), []);
  });
});
