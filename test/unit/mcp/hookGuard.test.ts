/**
 * The headless hook guard (`dist/mcp.js hook-guard`), started by `dist/mcp.js hook --own-tools --root <dir>` when no
 * ReadGate window serves the folder: real child processes, real sockets and files. One guard per set of roots, even
 * when hooks start it at once; what one hook process's Read showed counts for the Edit the next one judges; a
 * killed guard is replaced by one that knows nothing (stricter, never looser); an idle one ends by itself.
 */
import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { findHookWindow, hookWindowsDir } from '../../../src/hooks/index';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';

const SERVER = path.join(repoRoot, 'dist/mcp.js');
const lines = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

interface Place {
  root: string;
  home: string;
  env: NodeJS.ProcessEnv;
}

function place(extraEnv: NodeJS.ProcessEnv = {}): Place {
  const root = fs.realpathSync(makeTempDir());
  const home = path.join(fs.realpathSync(makeTempDir()), 'rg');
  fs.writeFileSync(path.join(root, 'a.txt'), lines(300));
  return { root, home, env: { ...process.env, READGATE_HOME: home, ...extraEnv } };
}

/** Claude Code's inputs, shaped as the real CLI sends them (test/unit/hooks/fixtures). */
const base = (p: Place, session = 's-1') => ({ session_id: session, transcript_path: '/dev/null', cwd: p.root, permission_mode: 'default' });
const preRead = (p: Place, id: string, offset: number, limit: number) => ({
  ...base(p),
  hook_event_name: 'PreToolUse',
  tool_name: 'Read',
  tool_input: { file_path: path.join(p.root, 'a.txt'), offset, limit },
  tool_use_id: id,
});
const postRead = (p: Place, id: string, offset: number, limit: number) => {
  const content = lines(300).split('\n').slice(offset - 1, offset - 1 + limit).join('\n');
  return {
    ...preRead(p, id, offset, limit),
    hook_event_name: 'PostToolUse',
    tool_response: { type: 'text', file: { filePath: path.join(p.root, 'a.txt'), content, numLines: limit, startLine: offset, totalLines: 300 } },
  };
};
const preEdit = (p: Place, id: string, line: number, session?: string) => ({
  ...base(p, session),
  hook_event_name: 'PreToolUse',
  tool_name: 'Edit',
  tool_input: { file_path: path.join(p.root, 'a.txt'), old_string: `line ${line}\n`, new_string: `line ${line} edited\n`, replace_all: false },
  tool_use_id: id,
});

/** One hook process, as Claude Code runs the command `setup claude-code --own-tools --root` writes. */
function hook(p: Place, input: object, args: string[] = ['--root', p.root]): { stdout: string; status: number | null } {
  const result = spawnSync(process.execPath, [SERVER, 'hook', ...args, '--own-tools', '--client', 'claude-code'], {
    input: JSON.stringify(input),
    env: p.env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { stdout: result.stdout, status: result.status };
}

const entries = (p: Place): { pid: number; headless?: boolean; folders: string[] }[] => {
  const dir = hookWindowsDir({ READGATE_HOME: p.home });
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')))
    : [];
};
const locks = (p: Place): string[] => {
  const dir = hookWindowsDir({ READGATE_HOME: p.home });
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.lock')) : [];
};
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
const denial = (stdout: string): string => (JSON.parse(stdout) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;

suite('headless hook guard (dist/mcp.js hook-guard, started by the hooks when no window serves the folder)', () => {
  const started: Place[] = [];
  teardown(async () => {
    for (const p of started.splice(0)) {
      for (const entry of entries(p)) if (alive(entry.pid)) process.kill(entry.pid, 'SIGTERM');
      await until('the guards ended', () => entries(p).every((entry) => !alive(entry.pid)));
    }
  });

  test("what one hook process's Read showed counts for the Edit the next one judges; an Edit of lines never shown is denied", async function () {
    this.timeout(60_000);
    const p = place();
    started.push(p);
    assert.strictEqual(hook(p, preRead(p, 'toolu_1', 1, 100)).stdout, '');
    assert.strictEqual(hook(p, postRead(p, 'toolu_1', 1, 100)).stdout, '');
    assert.strictEqual(hook(p, preEdit(p, 'toolu_2', 50)).stdout, '', 'line 50 was shown: allowed');
    const denied = hook(p, preEdit(p, 'toolu_3', 200));
    assert.strictEqual(denied.status, 0);
    assert.match(denial(denied.stdout), /^EDIT_OUTSIDE_SEEN_RANGE: .*200/s);
    // Another conversation has a ledger of its own.
    assert.match(denial(hook(p, preEdit(p, 'toolu_4', 50, 's-2')).stdout), /^EDIT_REQUIRES_PRIOR_READ/);
    const [entry] = entries(p);
    assert.deepStrictEqual({ headless: entry.headless, folders: entry.folders }, { headless: true, folders: [p.root] });
    assert.strictEqual(fs.readFileSync(path.join(p.root, 'a.txt'), 'utf8'), lines(300), 'the hook judges; it never writes');
  });

  test('several hooks at once start one guard; a second guard started by hand leaves at once', async function () {
    this.timeout(60_000);
    const p = place();
    started.push(p);
    const runs = Array.from({ length: 4 }, (_, i) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [SERVER, 'hook', '--root', p.root, '--own-tools', '--client', 'claude-code'], { env: p.env, stdio: ['pipe', 'ignore', 'ignore'] });
        child.on('exit', resolve);
        child.stdin.end(JSON.stringify(preRead(p, `toolu_${i}`, 1, 10)));
      }),
    );
    assert.deepStrictEqual(await Promise.all(runs), [0, 0, 0, 0]);
    await until('one guard published', () => entries(p).length === 1);
    const extra = spawnSync(process.execPath, [SERVER, 'hook-guard', '--root', p.root], { env: p.env, timeout: 30_000 });
    assert.strictEqual(extra.status, 0);
    assert.strictEqual(entries(p).length, 1);
    assert.strictEqual(locks(p).length, 1);
  });

  test('a guard killed mid-conversation is replaced by one that knows nothing: the Edit needs a new Read (stricter, never looser)', async function () {
    this.timeout(60_000);
    const p = place();
    started.push(p);
    hook(p, preRead(p, 'toolu_1', 1, 100));
    hook(p, postRead(p, 'toolu_1', 1, 100));
    const [first] = entries(p);
    process.kill(first.pid, 'SIGKILL');
    await until('the guard died', () => !alive(first.pid));
    // Its entry and lock stay behind, naming a dead process: the next hook is not fooled by them.
    assert.strictEqual(locks(p).length, 1);
    assert.match(denial(hook(p, preEdit(p, 'toolu_2', 50)).stdout), /^EDIT_REQUIRES_PRIOR_READ/);
    // The new guard took the dead one's place: its entry is gone, its lock is the new guard's.
    const [now] = entries(p);
    assert.strictEqual(entries(p).length, 1);
    assert.notStrictEqual(now.pid, first.pid);
    assert.ok(alive(now.pid));
  });

  test('an idle guard ends by itself and takes its entry and lock with it; SIGTERM does the same', async function () {
    this.timeout(60_000);
    const p = place({ READGATE_HOOK_GUARD_IDLE_MS: '400' });
    started.push(p);
    hook(p, preRead(p, 'toolu_1', 1, 10));
    assert.strictEqual(entries(p).length, 1);
    await until('the idle guard ended', () => entries(p).length === 0 && locks(p).length === 0);
    const q = place();
    started.push(q);
    hook(q, preRead(q, 'toolu_1', 1, 10));
    const [entry] = entries(q);
    process.kill(entry.pid, 'SIGTERM');
    await until('the guard ended on SIGTERM', () => entries(q).length === 0 && locks(q).length === 0 && !alive(entry.pid));
  });

  test('an agent working outside the roots starts no guard and is not held up; a hook of the bridge (no roots) starts none either', async function () {
    this.timeout(60_000);
    const p = place();
    const elsewhere = fs.realpathSync(makeTempDir());
    const began = Date.now();
    assert.strictEqual(hook(p, { ...preRead(p, 'toolu_1', 1, 10), cwd: elsewhere }).stdout, '');
    assert.ok(Date.now() - began < 4000, 'no wait for a guard that cannot serve the folder');
    const bridge = spawnSync(process.execPath, [path.join(repoRoot, 'dist/mcp-bridge.js'), 'hook', '--own-tools', '--client', 'claude-code'], {
      input: JSON.stringify(preRead(p, 'toolu_2', 1, 10)),
      env: p.env,
      encoding: 'utf8',
    });
    assert.strictEqual(bridge.stdout, '');
    assert.deepStrictEqual(entries(p), []);
  });

  test('a window on the folder is preferred to the headless guard, at any depth', () => {
    const p = place();
    const dir = hookWindowsDir({ READGATE_HOME: p.home });
    fs.mkdirSync(dir, { recursive: true });
    const write = (name: string, entry: object) => fs.writeFileSync(path.join(dir, `${name}.json`), JSON.stringify({ version: 1, pid: process.pid, token: 't', started: 1, ...entry }));
    write('guard', { socket: 'guard', folders: [path.join(p.root)], headless: true, started: 5 });
    assert.strictEqual(findHookWindow(dir, p.root)?.socket, 'guard');
    write('window', { socket: 'window', folders: [path.dirname(p.root)] });
    assert.strictEqual(findHookWindow(dir, p.root)?.socket, 'window');
  });
});
