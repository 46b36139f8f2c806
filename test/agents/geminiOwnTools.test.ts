/**
 * Gemini CLI keeps its own read_file, replace and write_file, and ReadGate judges them through its hooks
 * (BeforeTool/AfterTool): the project set up as the README says (`setup gemini-cli --own-tools`), the real CLI
 * headless on a scripted model (`--approval-mode auto_edit`, so its edit tools run), and a ReadGate window on the
 * folder (a stand-in) or none (the headless hook guard). Judged by what the model received and by the disk.
 *
 * Gemini CLI 0.61 fires PreCompress before every request to the model, compressing or not, and nothing after a
 * compression, so ReadGate does not forget on it: the edits below come after several PreCompress events, and a
 * read before them still counts. Its hooks name no subagent: the calls between invoke_agent's BeforeTool and
 * AfterTool are the subagent's.
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
const SUBAGENT = 'Subagent task 5d2b';
const lines = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1} of a`).join('\n') + '\n';
const HUGE = Array.from({ length: 3000 }, (_, i) => `row ${i + 1} ${'y'.repeat(60)}`).join('\n') + '\n';

function mainScript(root: string): Script {
  const file = (name: string): string => path.join(root, name);
  const replace = (line: number) => call('replace', { file_path: file('a.txt'), instruction: `Change line ${line}.`, old_string: `line ${line} of a\n`, new_string: `line ${line} edited\n` });
  const replaceRow = (row: number) => call('replace', { file_path: file('huge.txt'), instruction: 'Change a row.', old_string: `row ${row} ${'y'.repeat(60)}\n`, new_string: `row ${row} edited\n` });
  const changeLine61 = (): void => {
    const { atime, mtime } = fs.statSync(file('a.txt'));
    fs.writeFileSync(file('a.txt'), fs.readFileSync(file('a.txt'), 'utf8').replace('line 61 of a\n', 'line 61 of A\n'));
    fs.utimesSync(file('a.txt'), atime, mtime);
  };
  const before = [
    call('read_file', { file_path: 'a.txt', start_line: 1, end_line: 100 }),
    replace(50),
    replace(500),
    (_turn: unknown) => (changeLine61(), replace(60)),
    call('write_file', { file_path: file('b.txt'), content: 'all new\n' }),
    call('write_file', { file_path: file('c.txt'), content: 'a new file\n' }),
    call('read_file', { file_path: file('huge.txt') }),
    replaceRow(2500),
    replaceRow(1999),
    call('invoke_agent', { agent_name: 'generalist', prompt: `${SUBAGENT}: change line 70 of a.txt.` }),
  ];
  return (turn) => {
    if (turn.context.kind === 'subagent' && turn.context.prompt.includes(SUBAGENT)) return [replace(70), call('complete_task', { result: 'Tried line 70.' })][turn.step] ?? say('Done.');
    if (turn.context.kind !== 'main') return say('Done.');
    const next = before[turn.step];
    return next === undefined ? say('Done.') : typeof next === 'function' ? next(turn) : next;
  };
}

const results = (run: AgentRun, tool: string, kind: 'main' | 'subagent' = 'main'): ToolResultRecord[] =>
  run.toolResults.filter((record) => record.tool === tool && record.context.kind === kind);
const text = (record: ToolResultRecord | undefined): string => record?.result?.text ?? '';
const MODIFIED = /Successfully modified file/;

suiteSetup(function () {
  this.timeout(600_000);
  ensureAgentCli('gemini');
});

const BRIDGE_SETUP = (root: string): string => `node ${BRIDGE} setup gemini-cli --own-tools --project ${root}`;
const SERVER_SETUP = (root: string, history: string): string => `node ${SERVER} setup gemini-cli --own-tools --root ${root} --history ${history}`;
for (const judge of [windowJudge(BRIDGE_SETUP), headlessJudge(SERVER_SETUP)]) ownToolsSuite(judge);

function ownToolsSuite(judge: Judge): void {
  suite(`Gemini CLI with its own tools, judged through its hooks (\`setup gemini-cli --own-tools\`), ${judge.title}`, () => {
    let root: string;
    let run: AgentRun;
    let summary: string;
    let after: { a: string; b: string; c: string | undefined; huge: string };
    let history: ChangeRecord[];
    suiteSetup(async function () {
      this.timeout(600_000);
      root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-gemini-own-')));
      fs.writeFileSync(path.join(root, 'a.txt'), lines(900));
      fs.writeFileSync(path.join(root, 'b.txt'), lines(5));
      fs.writeFileSync(path.join(root, 'huge.txt'), HUGE);
      const home = path.join(root, '.readgate-home');
      const setupLine = await judge.open(root, home);
      run = await runAgent({
        cli: 'gemini',
        cwd: root,
        prompt: 'Edit a.txt and write two files.',
        script: mainScript(root),
        mcpServers: {},
        projectConfigOnly: true,
        trustProject: true,
        args: ['--approval-mode', 'auto_edit'],
        env: { READGATE_HOME: home, ...(process.env.READGATE_GEMINI_RECORD ? { READGATE_HOOK_RECORD: process.env.READGATE_GEMINI_RECORD } : {}) },
        setupCommands: [setupLine],
      });
      summary = run.toolResults.map(describeCall).join('\n');
      const read = (name: string): string | undefined => (fs.existsSync(path.join(root, name)) ? fs.readFileSync(path.join(root, name), 'utf8') : undefined);
      after = { a: read('a.txt')!, b: read('b.txt')!, c: read('c.txt'), huge: read('huge.txt')! };
      history = await judge.history();
      report(`gemini-own-tools-${judge.title.startsWith('no window') ? 'headless' : 'window'}`, run.toolResults.map(describeCall));
    });
    suiteTeardown(async () => {
      await judge.close();
      fs.rmSync(root, { recursive: true, force: true });
    });

    test('the set-up ran as printed, and no MCP server is needed', () => {
      const [setup] = run.setup;
      assert.strictEqual(setup.status, 0, setup.stderr);
      assert.match(setup.stdout, /added the BeforeTool hook/);
      assert.deepStrictEqual(run.scriptErrors, []);
    });

    test('a read_file, then a replace of a line it showed (several PreCompress events between): applied and on record', () => {
      assert.match(text(results(run, 'replace')[0]), MODIFIED, summary);
      assert.match(after.a, /\nline 50 edited\n/);
      const records = history.filter((record) => record.tool === 'replace');
      assert.ok(records.length >= 1, JSON.stringify(history.map((record) => record.tool)));
      assert.strictEqual(records[0].surface, 'hook');
    });

    test('a replace of line 500, never shown: denied with the code, the file unchanged there', () => {
      const denied = results(run, 'replace')[1];
      assert.match(text(denied), /^Tool execution blocked: EDIT_OUTSIDE_SEEN_RANGE/, describeCall(denied));
      assert.match(after.a, /\nline 500 of a\n/);
    });

    test("a seen line changed by another writer who put the file's time back, then a replace beside it: denied with the diff", () => {
      const denied = results(run, 'replace')[2];
      assert.match(text(denied), /FILE_CHANGED_SINCE_READ/, describeCall(denied));
      assert.match(text(denied), /-line 61 of a\n\+line 61 of A/);
      assert.match(after.a, /\nline 60 of a\nline 61 of A\n/);
    });

    test('a write_file over a file never read: denied; of a new file: applied and on record', () => {
      const [over, created] = results(run, 'write_file');
      assert.match(text(over), /EDIT_REQUIRES_PRIOR_READ/, describeCall(over));
      assert.strictEqual(after.b, lines(5));
      assert.match(text(created), /Successfully created/, describeCall(created));
      assert.strictEqual(after.c, 'a new file\n');
    });

    test('exactly the lines the model received count: of a read_file Gemini CLI cut at line 2000, a replace past it is denied, one inside allowed', () => {
      const read = results(run, 'read_file')[1];
      assert.match(text(read), /Showing lines 1-2000 of/, describeCall(read));
      const [past, inside] = results(run, 'replace').slice(3, 5);
      assert.match(text(past), /EDIT_OUTSIDE_SEEN_RANGE/, describeCall(past));
      assert.match(text(inside), MODIFIED, describeCall(inside));
      assert.match(after.huge, /\nrow 2500 y+\n/);
    });

    test("a subagent's replace of a line only its parent read: denied", () => {
      const [denied] = results(run, 'replace', 'subagent');
      assert.match(text(denied), /EDIT_REQUIRES_PRIOR_READ/, describeCall(denied));
      assert.match(after.a, /\nline 70 of a\n/);
    });
  });
}
