import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { discoveryDir, listWindows, pickWindow, publishWindow, type WindowEntry } from '../../../src/mcp/index';
import { makeTempDir } from '../helpers/tempDir';

const entry = (folders: string[], started = 1, pid = process.pid): WindowEntry => ({ version: 1, pid, url: 'http://127.0.0.1:1/mcp', token: 't', folders, name: folders.join(','), started });

suite('MCP window discovery', () => {
  test('a window\'s file is owner-only in an owner-only folder, complete when seen, and removed on exit', () => {
    const dir = path.join(makeTempDir(), 'windows');
    const published = publishWindow(entry(['/a']), 'w1', dir);
    assert.strictEqual(fs.statSync(dir).mode & 0o777, 0o700);
    assert.strictEqual(fs.statSync(published.file).mode & 0o777, 0o600);
    assert.deepStrictEqual(fs.readdirSync(dir), [path.basename(published.file)], 'a temporary file was left');
    assert.deepStrictEqual(listWindows(dir), [entry(['/a'])]);
    published.remove();
    published.remove();
    assert.deepStrictEqual(listWindows(dir), []);
  });

  test('files of processes that are gone, malformed files and other files are ignored', () => {
    const dir = makeTempDir();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    publishWindow(entry(['/gone'], 1, gone), 'dead', dir);
    publishWindow(entry(['/live']), 'live', dir);
    fs.writeFileSync(path.join(dir, 'broken.json'), '{ not json');
    fs.writeFileSync(path.join(dir, 'other.json'), JSON.stringify({ version: 2, pid: process.pid }));
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'x');
    assert.deepStrictEqual(listWindows(dir).map((window) => window.name), ['/live']);
    assert.deepStrictEqual(listWindows(path.join(dir, 'missing')), []);
  });

  test('the window with the deepest folder holding the working folder wins; ties go to the newest; none outside', () => {
    const windows = [entry(['/w/repo'], 1), entry(['/w/repo/packages/app'], 2), entry(['/w/other', '/w/repo'], 3)];
    assert.strictEqual(pickWindow(windows, '/w/repo/packages/app/src'), windows[1]);
    assert.strictEqual(pickWindow(windows, '/w/repo/docs'), windows[2], 'same depth: the newest');
    assert.strictEqual(pickWindow(windows, '/w/repo'), windows[2]);
    assert.strictEqual(pickWindow(windows, '/w/repository'), undefined, '/w/repository is not inside /w/repo');
    assert.strictEqual(pickWindow(windows, '/elsewhere'), undefined);
    assert.strictEqual(pickWindow([], '/w/repo'), undefined);
  });

  test('the folder is READGATE_DISCOVERY_DIR when set, else ~/.readgate/windows', () => {
    assert.strictEqual(discoveryDir({ READGATE_DISCOVERY_DIR: '/x/y' }), '/x/y');
    assert.match(discoveryDir({}), /[/\\]\.readgate[/\\]windows$/);
  });
});
