/**
 * Claude Code keeps its own Read, Edit, Write and NotebookEdit, and ReadGate judges each call through its hooks:
 * the project set up as the README says (`node ~/.readgate/mcp-bridge.js setup claude-code --own-tools`, here the
 * built bridge), the real CLI on a scripted model, and a ReadGate window on the folder (a stand-in:
 * hookWindow.ts) that its hooks find through ReadGate's home. Judged by what the model received and by the disk.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as os from 'os';
import type { ChangeRecord } from '../../src/core/index';
import { repoRoot } from '../unit/helpers/repoRoot';
import { ensureAgentCli } from './install';
import type { ToolResultRecord } from './modelServer';
import { describeCall } from './modelView';
import { report } from './report';
import { type AgentRun, runAgent } from './runAgent';
import { call, say, type Script, type Turn } from './script';
import { headlessJudge, type Judge, windowJudge } from './hookWindow';

const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');
const SERVER = path.join(repoRoot, 'dist/mcp.js');
const SUBAGENT = 'Subagent task 4e2a';
/** A reply reporting this many input tokens makes Claude Code compact before its next request. */
const COMPACT_AT = 970_000;
const lines = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1} of a`).join('\n') + '\n';
const A = lines(900);

/** Rows of about 70 characters: Claude Code stops a whole read of 3,000 of them where its budget ends. */
const HUGE = Array.from({ length: 3000 }, (_, i) => `row ${i + 1} ${'y'.repeat(60)}`).join('\n') + '\n';

/** The number of lines the model received from a Read (its result numbers them). */
export function linesReceived(result: string | undefined): number {
  const numbers = [...(result ?? '').matchAll(/^(\d+)\t/gm)].map((match) => Number(match[1]));
  return numbers.length ? Math.max(...numbers) : 0;
}

function mainScript(root: string): Script {
  let shownOfHuge = 0;
  const file = (name: string): string => path.join(root, name);
  const edit = (line: number, to = `line ${line} edited`) =>
    call('Edit', { file_path: file('a.txt'), old_string: `line ${line} of a\n`, new_string: `${to}\n` });
  const editRow = (row: number) =>
    call('Edit', { file_path: file('huge.txt'), old_string: `row ${row} ${'y'.repeat(60)}\n`, new_string: `row ${row} edited\n` });
  // Another writer changes line 61 and puts the file's time back: Claude Code's own check (by time) misses it.
  const changeLine61 = (): void => {
    const { atime, mtime } = fs.statSync(file('a.txt'));
    fs.writeFileSync(file('a.txt'), fs.readFileSync(file('a.txt'), 'utf8').replace('line 61 of a\n', 'line 61 of A\n'));
    fs.utimesSync(file('a.txt'), atime, mtime);
  };
  const before = [
    call('Read', { file_path: file('a.txt'), offset: 1, limit: 100 }),
    edit(50),
    edit(51),
    edit(500),
    () => (changeLine61(), edit(60)),
    call('Write', { file_path: file('b.txt'), content: 'all new\n' }),
    call('Write', { file_path: file('c.txt'), content: 'a new file\n' }),
    call('Read', { file_path: file('huge.txt') }),
    (turn: Turn) => ((shownOfHuge = linesReceived(turn.lastResults[0]?.text)), editRow(shownOfHuge + 5)),
    () => editRow(shownOfHuge - 1),
    call('Agent', { description: 'Edit a.txt', prompt: `${SUBAGENT}: change line 70 of a.txt.`, subagent_type: 'general-purpose', run_in_background: false }),
    { ...call('Read', { file_path: file('b.txt') }), inputTokens: COMPACT_AT },
  ];
  let afterCompaction = false;
  return (turn) => {
    if (turn.context.kind === 'compaction') return say('<analysis>Files read so far.</analysis>\n<summary>I read a.txt. [summary 7f1c]</summary>');
    if (turn.context.kind === 'subagent' && turn.context.prompt.includes(SUBAGENT)) return [edit(70), say('Tried line 70.')][turn.step] ?? say('Done.');
    if (turn.context.kind !== 'main') return say('Done.');
    if (turn.compactions === 0) {
      const next = before[turn.step];
      return next === undefined ? say('Done.') : typeof next === 'function' ? next(turn) : next;
    }
    if (afterCompaction) return say('Done.');
    afterCompaction = true;
    return call('Edit', { file_path: file('b.txt'), old_string: 'line 2 of a\n', new_string: 'two\n' });
  };
}

const results = (run: AgentRun, tool: string, kind: 'main' | 'subagent' = 'main'): ToolResultRecord[] =>
  run.toolResults.filter((record) => record.tool === tool && record.context.kind === kind);
const text = (record: ToolResultRecord | undefined): string => record?.result?.text ?? '';

suiteSetup(function () {
  this.timeout(600_000);
  ensureAgentCli('claude');
});

const BRIDGE_SETUP = (root: string): string => `node ${BRIDGE} setup claude-code --own-tools --project ${root}`;
const SERVER_SETUP = (root: string, history: string): string => `node ${SERVER} setup claude-code --own-tools --root ${root} --history ${history}`;
for (const judge of [windowJudge(BRIDGE_SETUP), headlessJudge(SERVER_SETUP)]) ownToolsSuite(judge);

function ownToolsSuite(judge: Judge): void {
  suite(`Claude Code with its own tools, judged through its hooks (\`setup claude-code --own-tools\`), ${judge.title}`, () => {
    let root: string;
    let run: AgentRun;
    let summary: string;
    /** The files after the run (the folders are removed only when the suite ends). */
    let after: { a: string; b: string; c: string };
    let history: ChangeRecord[];
    suiteSetup(async function () {
      this.timeout(600_000);
      root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-own-tools-')));
      fs.writeFileSync(path.join(root, 'a.txt'), A);
      fs.writeFileSync(path.join(root, 'b.txt'), lines(5));
      fs.writeFileSync(path.join(root, 'huge.txt'), HUGE);
      const home = path.join(root, '.readgate-home');
      const setupLine = await judge.open(root, home);
      run = await runAgent({
        cli: 'claude',
        cwd: root,
        prompt: 'Edit a.txt and write two files.',
        script: mainScript(root),
        projectConfigOnly: true,
        trustProject: true,
        // Claude Code's own permission for its edit tools, as a user gives it; ReadGate's judgement comes first.
        settings: { permissions: { allow: ['Read', 'Edit', 'Write'] } },
        env: { READGATE_HOME: home },
        mcpServers: {},
        setupCommands: [setupLine],
      });
      summary = run.toolResults.map(describeCall).join('\n');
      const read = (name: string): string => fs.readFileSync(path.join(root, name), 'utf8');
      after = { a: read('a.txt'), b: read('b.txt'), c: read('c.txt') };
      history = await judge.history();
      report(`claude-own-tools-${judge.title.startsWith('no window') ? 'headless' : 'window'}`, run.toolResults.map(describeCall));
    });
    suiteTeardown(async () => {
      await judge.close();
      fs.rmSync(root, { recursive: true, force: true });
    });

    test('the set-up ran as printed, and no MCP server is needed', () => {
      const [setup] = run.setup;
      assert.strictEqual(setup.status, 0, setup.stderr);
      assert.match(setup.stdout, /added the PreToolUse hook/);
      assert.doesNotMatch(setup.stdout, /claude mcp add/);
      assert.deepStrictEqual(run.scriptErrors, []);
    });

    test('a Read, then an Edit of a line it showed: applied by Claude Code and on record in the history', async () => {
      const [first, second] = results(run, 'Edit');
      assert.match(text(first), /has been updated successfully/, summary);
      assert.match(text(second), /has been updated successfully/, summary);
      const edits = history.filter((record) => record.tool === 'Edit' && record.files[0].path.endsWith('a.txt'));
      assert.strictEqual(edits.length, 2, JSON.stringify(history.map((record) => record.tool)));
      assert.strictEqual(edits[0].surface, 'hook');
    });

    test('an Edit of line 500, which the Read of lines 1-100 never showed: denied with the code, the file unchanged there', () => {
      const denied = results(run, 'Edit')[2];
      assert.match(text(denied), /^PreToolUse:Edit hook error: EDIT_OUTSIDE_SEEN_RANGE: .*500/s, describeCall(denied));
      assert.match(after.a, /\nline 500 of a\n/);
    });

    test("a seen line changed by another writer who put the file's time back (Claude Code's own check misses it), then an Edit beside it: denied with the diff", () => {
      const denied = results(run, 'Edit')[3];
      assert.match(text(denied), /FILE_CHANGED_SINCE_READ/, describeCall(denied));
      assert.match(text(denied), /-line 61 of a\n\+line 61 of A/);
      assert.match(after.a, /\nline 60 of a\nline 61 of A\n/);
    });

    test('a Write over a file never read: denied; a Write of a new file: applied and on record', async () => {
      const [over, created] = results(run, 'Write');
      assert.match(text(over), /EDIT_REQUIRES_PRIOR_READ/, describeCall(over));
      assert.strictEqual(after.b, lines(5));
      assert.match(text(created), /File created successfully/);
      assert.strictEqual(after.c, 'a new file\n');
      assert.ok(history.some((record) => record.tool === 'Write' && record.files[0].kind === 'create'));
    });

    test('exactly the lines the model received count: of a whole Read Claude Code cut short, an Edit past its end is denied, one inside allowed', () => {
      const shown = linesReceived(text(results(run, 'Read').find((record) => String(record.input.file_path).endsWith('huge.txt'))));
      assert.ok(shown > 100 && shown < 3000, `Claude Code showed ${shown} of 3,000 lines: no cut to test`);
      const edits = run.toolResults.filter((record) => record.tool === 'Edit' && String(record.input.file_path).endsWith('huge.txt'));
      assert.match(text(edits[0]), /EDIT_OUTSIDE_SEEN_RANGE/, describeCall(edits[0]));
      assert.match(text(edits[1]), /has been updated successfully/, describeCall(edits[1]));
    });

    test("a subagent's Edit of a line only its parent read: denied", () => {
      const [denied] = results(run, 'Edit', 'subagent');
      assert.match(text(denied), /EDIT_REQUIRES_PRIOR_READ/, describeCall(denied));
      assert.match(after.a, /\nline 70 of a\n/);
    });

    test('after a compaction, an Edit of a file read before it needs a new read', () => {
      const last = results(run, 'Edit').at(-1);
      assert.match(text(last), /EDIT_REQUIRES_PRIOR_READ/, describeCall(last));
      assert.strictEqual(after.b, lines(5));
    });
  });
}
