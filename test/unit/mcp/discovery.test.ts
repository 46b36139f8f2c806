import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { discoveryDir, discoveryDirReason, forgetDir, listWindows, publishWindow, readgateHome, scanWindows, type WindowEntry } from '../../../src/mcp/index';
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

  test('the folder is the user\'s, not $HOME\'s: VS Code started with a private HOME and an agent in the user\'s terminal meet there', () => {
    // npm start gives VS Code a private HOME; the window published under it and the bridge, started from the
    // user's own terminal, answered "no VS Code window … is running". The home comes from the user database.
    const saved = process.env.HOME;
    const env = { ...process.env };
    delete env.READGATE_HOME;
    delete env.READGATE_DISCOVERY_DIR;
    try {
      process.env.HOME = path.join(makeTempDir(), 'private-home');
      assert.strictEqual(discoveryDir(env), path.join(os.userInfo().homedir, '.readgate', 'windows'));
      assert.strictEqual(forgetDir(env), path.join(os.userInfo().homedir, '.readgate', 'forget'), 'the forget markers stay beside it');
    } finally {
      process.env.HOME = saved;
    }
    assert.strictEqual(discoveryDir({ HOME: '/editor/home' }, () => '/home/me'), '/home/me/.readgate/windows');
  });

  test('READGATE_HOME moves the folder (and the forget markers beside it) for both sides; READGATE_DISCOVERY_DIR names it outright', () => {
    assert.strictEqual(readgateHome({ READGATE_HOME: '/x/rg' }, () => '/home/me'), '/x/rg');
    assert.strictEqual(discoveryDir({ READGATE_HOME: '/x/rg' }, () => '/home/me'), '/x/rg/windows');
    assert.strictEqual(forgetDir({ READGATE_HOME: '/x/rg' }), '/x/rg/forget');
    assert.strictEqual(discoveryDir({ READGATE_HOME: '/x/rg', READGATE_DISCOVERY_DIR: '/x/y' }), '/x/y');
    assert.match(discoveryDirReason({}), /user database has it, whatever \$HOME says; READGATE_HOME=<dir> moves it/);
    assert.match(discoveryDirReason({ READGATE_HOME: '/x/rg' }), /READGATE_HOME/);
  });

  test('a scan says why it left a file out', () => {
    const dir = makeTempDir();
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    publishWindow(entry(['/gone'], 1, gone), 'dead', dir);
    publishWindow(entry(['/live']), 'live', dir);
    fs.writeFileSync(path.join(dir, 'broken.json'), '{ not json');
    const scan = scanWindows(dir);
    assert.deepStrictEqual(scan.windows.map((window) => window.name), ['/live']);
    assert.deepStrictEqual(scan.skipped, [
      { file: `${gone}-dead.json`, why: `its process ${gone} is gone (a window that did not close cleanly)` },
      { file: 'broken.json', why: 'not a window file' },
    ]);
    assert.deepStrictEqual(scanWindows(path.join(dir, 'missing')), { missing: true, windows: [], skipped: [] });
  });
});
