import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { createNodeHistoryStorage } from '../../../src/core/nodeFs/historyStorage';
import { makeTempDir } from '../helpers/tempDir';

const bytes = (text: string): Uint8Array => new Uint8Array(Buffer.from(text));
const id = 'ab'.padEnd(64, '0');

suite('history: the Node storage', () => {
  test('writes, lists with sizes, reads back and removes, in both areas', async () => {
    const dir = makeTempDir();
    const storage = createNodeHistoryStorage(dir);
    await storage.write('versions', `${id}.gz`, bytes('blob'));
    await storage.write('records', 'r1.json', bytes('{"a":1}'));
    const sized = (files: { name: string; size: number }[]) => files.map(({ name, size }) => ({ name, size }));
    assert.deepStrictEqual(sized(await storage.list('versions')), [{ name: `${id}.gz`, size: 4 }]);
    assert.deepStrictEqual(sized(await storage.list('records')), [{ name: 'r1.json', size: 7 }]);
    assert.ok(Math.abs((await storage.list('records'))[0].mtimeMs! - Date.now()) < 60_000, 'with their time');
    assert.ok(fs.existsSync(path.join(dir, 'versions', 'ab', `${id}.gz`)), 'versions are fanned out by their first two digits');
    assert.deepStrictEqual(await storage.read('records', 'r1.json'), bytes('{"a":1}'));
    await storage.remove('records', 'r1.json');
    await storage.remove('records', 'r1.json');
    assert.strictEqual(await storage.read('records', 'r1.json'), undefined);
    assert.deepStrictEqual(await storage.list('records'), []);
  });

  test('a missing folder lists as empty and reads as missing', async () => {
    const storage = createNodeHistoryStorage(path.join(makeTempDir(), 'not-yet'));
    assert.deepStrictEqual(await storage.list('versions'), []);
    assert.deepStrictEqual(await storage.list('records'), []);
    assert.strictEqual(await storage.read('versions', `${id}.gz`), undefined);
  });

  test('a write that fails leaves the old file as it was and no temp file', async () => {
    const dir = makeTempDir();
    const storage = createNodeHistoryStorage(dir);
    await storage.write('records', 'r.json', bytes('old'));
    fs.mkdirSync(path.join(dir, 'records', 'd.json'));
    await assert.rejects(storage.write('records', 'd.json', bytes('new')), /EISDIR|EEXIST|ENOTEMPTY|EPERM/);
    assert.deepStrictEqual(fs.readdirSync(path.join(dir, 'records')).sort(), ['d.json', 'r.json']);
    assert.deepStrictEqual(await storage.read('records', 'r.json'), bytes('old'));
  });

  test('refuses names that are not plain file names', async () => {
    const storage = createNodeHistoryStorage(makeTempDir());
    for (const name of ['../escape.json', 'a/b.json', '.hidden', '', 'x.json.tmp.more']) {
      await assert.rejects(storage.write('records', name, bytes('x')), /not a history file name/, name);
    }
  });

  test('reads only regular files: a link planted under a record name is refused', async () => {
    const dir = makeTempDir();
    const storage = createNodeHistoryStorage(dir);
    await storage.write('records', 'r.json', bytes('mine'));
    fs.writeFileSync(path.join(dir, 'outside.txt'), 'secret');
    fs.symlinkSync(path.join(dir, 'outside.txt'), path.join(dir, 'records', 'link.json'));
    await assert.rejects(storage.read('records', 'link.json'));
    assert.deepStrictEqual((await storage.list('records')).map((file) => file.name), ['r.json'], 'a link is not listed');
  });

  test("removes temp files of processes that are gone, and keeps a live process's", async () => {
    const dir = makeTempDir();
    const storage = createNodeHistoryStorage(dir);
    await storage.write('records', 'r.json', bytes('x'));
    const folder = path.join(dir, 'records');
    const dead = path.join(folder, '.r2.json.999999999-abcdef.tmp');
    const live = path.join(folder, `.r3.json.${process.pid}-abcdef.tmp`);
    fs.writeFileSync(dead, 'half');
    fs.writeFileSync(live, 'half');
    assert.deepStrictEqual((await storage.list('records')).map((file) => file.name), ['r.json']);
    assert.ok(!fs.existsSync(dead));
    assert.ok(fs.existsSync(live));
  });
});
