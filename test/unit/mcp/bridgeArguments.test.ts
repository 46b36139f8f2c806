import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { BRIDGE_USAGE, parseBridgeArguments } from '../../../src/mcp/bridgeArguments';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';
import { openWindow } from '../helpers/testWindow';

const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');

function runBridge(args: string[], cwd: string, discovery: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [BRIDGE, ...args], { cwd, env: { ...process.env, READGATE_DISCOVERY_DIR: discovery }, encoding: 'utf8', timeout: 10_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

suite('the bridge\'s command line (src/mcp/bridgeArguments.ts)', () => {
  test('parses relaying, --list, --forget with --client and --cwd (relative to the working folder), --help and -h', () => {
    assert.deepStrictEqual(parseBridgeArguments([], '/w'), { kind: 'relay', cwd: '/w' });
    assert.deepStrictEqual(parseBridgeArguments(['--cwd', 'sub'], '/w'), { kind: 'relay', cwd: '/w/sub' });
    assert.deepStrictEqual(parseBridgeArguments(['--list', '--cwd', '/p'], '/w'), { kind: 'list', cwd: '/p' });
    assert.deepStrictEqual(parseBridgeArguments(['--forget', '--client', 'claude-code'], '/w'), { kind: 'forget', cwd: '/w', client: 'claude-code' });
    assert.deepStrictEqual(parseBridgeArguments(['--forget'], '/w'), { kind: 'forget', cwd: '/w' });
    for (const help of [['--help'], ['-h'], ['--list', '--help']]) assert.deepStrictEqual(parseBridgeArguments(help, '/w'), { kind: 'help' });
  });

  test('refuses an unknown argument and a flag without its value', () => {
    assert.deepStrictEqual(parseBridgeArguments(['--lsit'], '/w'), { kind: 'error', message: 'Unknown argument "--lsit".' });
    assert.deepStrictEqual(parseBridgeArguments(['--cwd'], '/w'), { kind: 'error', message: '--cwd needs a value.' });
    assert.deepStrictEqual(parseBridgeArguments(['--forget', '--client', ''], '/w'), { kind: 'error', message: '--client needs a value.' });
  });

  test('`--help` prints the usage on stdout and exits 0 (a real child process)', () => {
    const home = makeTempDir();
    for (const flag of ['--help', '-h']) {
      const run = runBridge([flag], home, path.join(home, 'windows'));
      assert.strictEqual(run.status, 0, run.stderr);
      assert.strictEqual(run.stdout, `${BRIDGE_USAGE}\n`);
      assert.strictEqual(run.stderr, '');
    }
    assert.match(BRIDGE_USAGE, /^Usage: node mcp-bridge\.js \[--cwd <dir>\]\n/);
    for (const flag of ['--list', '--forget', '--client', '--cwd', 'setup <target>']) assert.ok(BRIDGE_USAGE.includes(`  ${flag}`), flag);
  });

  test('an unknown argument exits 2 with the usage on stderr', () => {
    const home = makeTempDir();
    const run = runBridge(['--lsit'], home, path.join(home, 'windows'));
    assert.strictEqual(run.status, 2);
    assert.ok(run.stderr.startsWith('readgate-mcp-bridge: Unknown argument "--lsit".\n\nUsage: node mcp-bridge.js'), run.stderr);
  });

  test('`--list` exits 1 when no window is picked for the folder (none at all, or only windows elsewhere) and 0 when one is', async function () {
    this.timeout(20_000);
    const home = makeTempDir();
    const discovery = path.join(home, 'windows');
    const project = path.join(home, 'project');
    const elsewhere = path.join(home, 'elsewhere');
    fs.mkdirSync(project);
    fs.mkdirSync(elsewhere);
    const none = runBridge(['--list'], project, discovery);
    assert.strictEqual(none.status, 1, none.stderr);
    assert.match(none.stdout, /That folder does not exist/);
    const window = await openWindow(project, discovery, 'list-token', 'list');
    try {
      const outside = runBridge(['--list'], elsewhere, discovery);
      assert.strictEqual(outside.status, 1, outside.stderr);
      assert.match(outside.stdout, /No window holds .*elsewhere/);
      const picked = runBridge(['--list', '--cwd', project], elsewhere, discovery);
      assert.strictEqual(picked.status, 0, picked.stderr);
      assert.match(picked.stdout, /→ "window list"/);
    } finally {
      await window.close();
    }
  });
});
