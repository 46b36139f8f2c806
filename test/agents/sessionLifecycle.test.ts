/**
 * A Claude Code session ends when the CLI exits. Claude Code starts the stdio bridge (dist/mcp-bridge.js) as its
 * MCP server and, on exit, stops it with a signal rather than by closing its input (a bridge that ignored signals
 * left the session open). The bridge must end its session in the window (standInWindow.ts) then: a session left
 * open stays live in the window for hours and counts toward its 64-session cap. The processes Claude Code leaves
 * behind get time to exit by themselves, as in a user's terminal (RunOptions.leftBehindMs).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { repoRoot } from '../unit/helpers/repoRoot';
import { ensureAgentCli } from './install';
import { report } from './report';
import { type AgentRun, runAgent } from './runAgent';
import { call, say, steps } from './script';
import { openStandInWindow, type StandInWindow } from './standInWindow';

const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');
/** How soon after `claude -p` exits every session it opened must be closed in the window. */
const WITHIN_MS = 5000;

suite('Claude Code through the bridge: its sessions end when `claude -p` exits', () => {
  let base: string;
  let window: StandInWindow;
  let run: AgentRun;
  /** Each closed session, by how long after the CLI exited it was closed (ms; negative: before). */
  let afterExit: number[];

  suiteSetup(async function () {
    this.timeout(600_000);
    ensureAgentCli('claude');
    assert.ok(fs.existsSync(BRIDGE), 'dist/mcp-bridge.js is missing: npm run build');
    base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-lifecycle-')));
    const root = path.join(base, 'project');
    const discovery = path.join(base, 'readgate', 'windows');
    fs.mkdirSync(root);
    fs.writeFileSync(path.join(root, 'a.txt'), 'alpha\nbeta\n');
    window = await openStandInWindow(root, discovery);
    run = await runAgent({
      cli: 'claude',
      cwd: root,
      prompt: 'Read a.txt.',
      mcpServers: { readgate: { command: process.execPath, args: [BRIDGE] } },
      env: { READGATE_DISCOVERY_DIR: discovery },
      script: steps([call('readgate_read', { filePath: 'a.txt' }), say('Done.')]),
      leftBehindMs: 10_000,
    });
    assert.deepStrictEqual(run.scriptErrors, []);
    assert.ok(!run.timedOut, `the CLI did not finish: ${run.stderr.slice(-2000)}`);
    const until = run.exitedAt + WITHIN_MS;
    while (window.closed.length < window.opened.length && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    afterExit = window.closed.map((each) => each.at - run.exitedAt);
    report('claude-session-lifecycle', [`sessions opened: ${window.opened.length}`, `closed after the CLI exited (ms): ${afterExit.join(', ')}`]);
  });

  suiteTeardown(async () => {
    await window?.close();
    if (base) fs.rmSync(base, { recursive: true, force: true });
  });

  test('the run reached the window through the bridge', () => {
    assert.strictEqual(run.exitCode, 0, run.stderr.slice(-2000));
    assert.ok(window.opened.length >= 1, 'no session was opened');
    assert.deepStrictEqual(window.calls.map((each) => each.tool), ['readgate_read']);
  });

  test(`every session Claude Code opened is closed in the window within ${WITHIN_MS / 1000} s of its exit`, () => {
    const closed = window.closed.map((each) => each.session);
    assert.deepStrictEqual([...closed].sort(), [...window.opened].sort(), `still open: ${window.opened.filter((id) => !closed.includes(id)).join(', ')}`);
    assert.ok(afterExit.every((ms) => ms <= WITHIN_MS), `closed ${afterExit.join(', ')} ms after the exit`);
  });
});
