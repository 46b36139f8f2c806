/**
 * Codex keeps its own tools (its shell, `apply_patch`), and ReadGate judges them through its hooks: the project set
 * up as the README says (`setup codex --own-tools`, hooks trusted as a user's review in `/hooks` records them),
 * the real CLI on a scripted model of its catalog (gpt-5.5, which is given `apply_patch`), and a ReadGate window on
 * the folder (a stand-in: hookWindow.ts) or none (the headless hook guard). Judged by what the model received and
 * by the disk.
 *
 * No subagent here: Codex 0.171 gives a model of its catalog `apply_patch` but not `spawn_agent`, and a model it
 * does not know `spawn_agent` but not `apply_patch`; a subagent's calls are told apart by their `agent_id`, as the
 * adapter's unit tests show with inputs recorded from the real CLI (codexHooks.test.ts).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { ChangeRecord } from '../../src/core/index';
import { repoRoot } from '../unit/helpers/repoRoot';
import { headlessJudge, type Judge, windowJudge } from './hookWindow';
import { ensureAgentCli } from './install';
import type { ToolResultRecord } from './modelServer';
import { describeCall } from './modelView';
import { report } from './report';
import { type AgentRun, runAgent } from './runAgent';
import { call, say, type Script } from './script';

const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');
const SERVER = path.join(repoRoot, 'dist/mcp.js');
/** With Codex's compaction limit set low, a reply reporting this many input tokens makes it compact next. */
const COMPACT_AT = 400_000;
const lines = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1} of a`).join('\n') + '\n';
const A = lines(900);
/** Rows of about 70 characters: Codex cuts the output of `cat` of 3,000 of them in its middle. */
const HUGE = Array.from({ length: 3000 }, (_, i) => `row ${i + 1} ${'y'.repeat(60)}`).join('\n') + '\n';

const patch = (body: string): ReturnType<typeof call> => call('apply_patch', { input: `*** Begin Patch\n${body}*** End Patch\n` });
/** A patch of line `n` of a.txt, with the line before it as context. */
const patchLine = (n: number, to = `line ${n} edited`) => patch(`*** Update File: a.txt\n@@\n line ${n - 1} of a\n-line ${n} of a\n+${to}\n`);
const patchRow = (n: number) => patch(`*** Update File: huge.txt\n@@\n-row ${n} ${'y'.repeat(60)}\n+row ${n} edited\n`);
const shell = (cmd: string) => call('exec_command', { cmd });

function mainScript(root: string): Script {
  const file = (name: string): string => path.join(root, name);
  // Another writer changes line 61 and puts the file's time back.
  const changeLine61 = (): void => {
    const { atime, mtime } = fs.statSync(file('a.txt'));
    fs.writeFileSync(file('a.txt'), fs.readFileSync(file('a.txt'), 'utf8').replace('line 61 of a\n', 'line 61 of A\n'));
    fs.utimesSync(file('a.txt'), atime, mtime);
  };
  const before = [
    shell("sed -n '1,100p' a.txt"),
    patchLine(50),
    patchLine(500),
    (_turn: unknown) => (changeLine61(), patchLine(60)),
    patch('*** Add File: c.txt\n+a new file\n'),
    patch('*** Update File: b.txt\n@@\n-line 2 of a\n+two\n'),
    shell('cat huge.txt'),
    patchRow(1500),
    patchRow(5),
    patchRow(2998),
    shell('nl -ba a.txt | sed -n 200,210p'),
    patchLine(205),
    { ...shell('cat b.txt'), inputTokens: COMPACT_AT },
  ];
  let afterCompaction = false;
  return (turn) => {
    if (turn.context.kind === 'compaction') return say('Files read so far: a.txt. [summary 3e7a]');
    if (turn.context.kind !== 'main') return say('Done.');
    if (turn.compactions === 0) {
      const next = before[turn.step];
      return next === undefined ? say('Done.') : typeof next === 'function' ? next(turn) : next;
    }
    if (afterCompaction) return say('Done.');
    afterCompaction = true;
    return patchLine(52);
  };
}

const patches = (run: AgentRun): ToolResultRecord[] => run.toolResults.filter((record) => record.tool === 'apply_patch' && record.context.kind === 'main');
const text = (record: ToolResultRecord | undefined): string => record?.result?.text ?? '';
const APPLIED = /Success\. Updated the following files/;

suiteSetup(function () {
  this.timeout(600_000);
  ensureAgentCli('codex');
});

const BRIDGE_SETUP = (root: string): string => `node ${BRIDGE} setup codex --own-tools --project ${root}`;
const SERVER_SETUP = (root: string, history: string): string => `node ${SERVER} setup codex --own-tools --root ${root} --history ${history}`;
for (const judge of [windowJudge(BRIDGE_SETUP), headlessJudge(SERVER_SETUP)]) ownToolsSuite(judge);

function ownToolsSuite(judge: Judge): void {
  suite(`Codex with its own tools, judged through its hooks (\`setup codex --own-tools\`), ${judge.title}`, () => {
    let root: string;
    let run: AgentRun;
    let summary: string;
    let after: { a: string; b: string; c: string | undefined; huge: string };
    let history: ChangeRecord[];
    suiteSetup(async function () {
      this.timeout(600_000);
      root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-codex-own-')));
      fs.writeFileSync(path.join(root, 'a.txt'), A);
      fs.writeFileSync(path.join(root, 'b.txt'), lines(5));
      fs.writeFileSync(path.join(root, 'huge.txt'), HUGE);
      const home = path.join(root, '.readgate-home');
      const setupLine = await judge.open(root, home);
      run = await runAgent({
        cli: 'codex',
        cwd: root,
        prompt: 'Edit a.txt and write two files.',
        script: mainScript(root),
        mcpServers: {},
        trustProject: true,
        hookTrust: 'trusted',
        // A model of Codex's catalog, which it gives apply_patch; writes in the project allowed, as a user sets it.
        settings: { model: 'gpt-5.5', model_auto_compact_token_limit: 200_000 },
        args: ['--sandbox', 'workspace-write'],
        env: { READGATE_HOME: home, ...(process.env.READGATE_CODEX_RECORD ? { READGATE_HOOK_RECORD: process.env.READGATE_CODEX_RECORD } : {}) },
        setupCommands: [setupLine],
      });
      summary = run.toolResults.map(describeCall).join('\n');
      const read = (name: string): string | undefined => (fs.existsSync(path.join(root, name)) ? fs.readFileSync(path.join(root, name), 'utf8') : undefined);
      after = { a: read('a.txt')!, b: read('b.txt')!, c: read('c.txt'), huge: read('huge.txt')! };
      history = await judge.history();
      report(`codex-own-tools-${judge.title.startsWith('no window') ? 'headless' : 'window'}`, run.toolResults.map(describeCall));
    });
    suiteTeardown(async () => {
      await judge.close();
      fs.rmSync(root, { recursive: true, force: true });
    });

    test('the set-up ran as printed (it says the hooks need trusting), and no MCP server is needed', () => {
      const [setup] = run.setup;
      assert.strictEqual(setup.status, 0, setup.stderr);
      assert.match(setup.stdout, /added the PreToolUse hook/);
      assert.match(setup.stdout, /trust/);
      assert.deepStrictEqual(run.scriptErrors, []);
    });

    test('a shell read, then a patch of a line it showed: applied by Codex and on record in the history', () => {
      assert.match(text(patches(run)[0]), APPLIED, summary);
      assert.match(after.a, /\nline 50 edited\n/);
      const records = history.filter((record) => record.tool === 'apply_patch' && record.files[0].path.endsWith('a.txt'));
      assert.ok(records.length >= 1, JSON.stringify(history.map((record) => record.tool)));
      assert.strictEqual(records[0].surface, 'hook');
    });

    test('a patch of line 500, which the read of lines 1-100 never showed: denied with the code, the file unchanged there', () => {
      const denied = patches(run)[1];
      assert.match(text(denied), /EDIT_OUTSIDE_SEEN_RANGE/, describeCall(denied));
      assert.match(after.a, /\nline 500 of a\n/);
    });

    test("a seen line changed by another writer who put the file's time back, then a patch beside it: denied with the diff", () => {
      const denied = patches(run)[2];
      assert.match(text(denied), /FILE_CHANGED_SINCE_READ/, describeCall(denied));
      assert.match(text(denied), /-line 61 of a\n\+line 61 of A/);
      assert.match(after.a, /\nline 60 of a\nline 61 of A\n/);
    });

    test('a patch adding a new file: applied and on record; a patch of a file never read: denied', () => {
      const [, , , added, unread] = patches(run);
      assert.match(text(added), APPLIED, describeCall(added));
      assert.strictEqual(after.c, 'a new file\n');
      assert.match(text(unread), /EDIT_REQUIRES_PRIOR_READ/, describeCall(unread));
      assert.strictEqual(after.b, lines(5));
    });

    test("exactly the lines the model received count: of a cat Codex cut in its middle, a patch in the cut is denied, at its start and end allowed", () => {
      const cat = run.toolResults.find((record) => record.tool === 'exec_command' && String(record.input.cmd) === 'cat huge.txt');
      assert.match(text(cat), /tokens truncated/, describeCall(cat));
      assert.doesNotMatch(text(cat), /\nrow 1500 /);
      const [middle, start, end] = patches(run).slice(5, 8);
      assert.match(text(middle), /EDIT_OUTSIDE_SEEN_RANGE/, describeCall(middle));
      assert.match(text(start), APPLIED, describeCall(start));
      assert.match(text(end), APPLIED, describeCall(end));
      assert.match(after.huge, /\nrow 1500 y+\n/);
    });

    test('numbered lines piped through sed count by their numbers: a patch of one of them is applied', () => {
      assert.match(text(patches(run)[8]), APPLIED, summary);
      assert.match(after.a, /\nline 205 edited\n/);
    });

    test('after a compaction, a patch of a file read before it needs a new read', () => {
      const last = patches(run).at(-1);
      assert.match(text(last), /EDIT_REQUIRES_PRIOR_READ/, describeCall(last));
      assert.match(after.a, /\nline 52 of a\n/);
    });
  });
}
