/**
 * One ledger per agent context, through the real Claude Code CLI: the project is set up as docs/agents.md says
 * (`node dist/mcp.js setup claude-code --root <dir>`, then the `claude mcp add` line it prints), so Claude Code's
 * hooks name the context of every ReadGate call. Judged only by what the model was shown: the main agent's
 * repeated read is the placeholder, a subagent's and the main agent's reads are their own, an edit of lines only
 * the other context saw is refused, an outside change of two lines comes back as those two lines, a compaction
 * makes the next read content again; and without the set-up, a repeated read is content as before.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { claudeMcpAddLine } from '../../src/mcp/setup/claudeCode';
import { makeTempDir } from '../unit/helpers/tempDir';
import { repoRoot } from '../unit/helpers/repoRoot';
import { ensureAgentCli } from './install';
import type { ToolResultRecord } from './modelServer';
import { describeCall, isPlaceholder, refusalCode } from './modelView';
import { report } from './report';
import { type AgentRun, runAgent } from './runAgent';
import { call, say, type Script } from './script';

const SERVER = path.join(repoRoot, 'dist/mcp.js');
const SUBAGENT = 'Subagent task 9c1d';
const SUBAGENT_PROMPT = `${SUBAGENT}: read b.py and a.py's first lines with readgate_read, then change line 250 of a.py.`;
/** A reply reporting this many input tokens makes Claude Code compact before its next request (README.md). */
const COMPACT_AT = 970_000;
const rows = (count: number, prefix: string): string => Array.from({ length: count }, (_, i) => `${prefix}_${i + 1} = ${i + 1}`).join('\n') + '\n';
const A = rows(300, 'a');
const B = rows(40, 'b');

/** The main agent: read a.py twice, again after an outside change, start the subagent, then the cross edits; compact; read again. */
function mainScript(root: string): Script {
  const changeTwoLines = (): void => fs.writeFileSync(path.join(root, 'a.py'), A.replace('a_100 = 100\n', 'a_100 = 1000\n').replace('a_200 = 200\n', 'a_200 = 2000\n'));
  const before = [
    call('readgate_read', { filePath: 'a.py' }),
    call('readgate_read', { filePath: 'a.py' }),
    () => (changeTwoLines(), call('readgate_read', { filePath: 'a.py' })),
    call('Agent', { description: 'Look at b.py', prompt: SUBAGENT_PROMPT, subagent_type: 'general-purpose', run_in_background: false }),
    call('readgate_edit', { filePath: 'b.py', oldString: 'b_5 = 5\n', newString: 'b_5 = 50\n' }),
    { ...call('readgate_read', { filePath: 'b.py' }), inputTokens: COMPACT_AT },
  ];
  let readAfterCompaction = false;
  return (turn) => {
    if (turn.context.kind === 'compaction') return say('<analysis>Files read so far.</analysis>\n<summary>I read a.py and b.py with readgate_read. [summary 2b7c]</summary>');
    if (turn.context.kind === 'subagent' && turn.context.prompt.includes(SUBAGENT)) {
      return [call('readgate_read', { filePath: 'b.py' }), call('readgate_read', { filePath: 'a.py', limit: 10 }), call('readgate_edit', { filePath: 'a.py', oldString: 'a_250 = 250\n', newString: 'a_250 = 0\n' }), say('b.py holds 40 assignments.')][turn.step] ?? say('Done.');
    }
    if (turn.context.kind !== 'main') return say('Done.');
    if (turn.compactions === 0) {
      const next = before[turn.step];
      return next === undefined ? say('Done.') : typeof next === 'function' ? next() : next;
    }
    if (readAfterCompaction) return say('Done.');
    readAfterCompaction = true;
    return call('readgate_read', { filePath: 'a.py' });
  };
}

const reads = (run: AgentRun, kind: 'main' | 'subagent', file: string): ToolResultRecord[] => run.toolResults.filter((record) => record.tool === 'readgate_read' && record.context.kind === kind && record.input.filePath === file);
const edits = (run: AgentRun, kind: 'main' | 'subagent'): ToolResultRecord[] => run.toolResults.filter((record) => record.tool === 'readgate_edit' && record.context.kind === kind);

suiteSetup(function () {
  this.timeout(600_000);
  ensureAgentCli('claude');
});

suite('Claude Code set up with `setup claude-code`: a ledger per agent context, as the model sees it', () => {
  let root: string;
  let run: AgentRun;
  let summary: string;
  /** a.py and b.py after the run (the folder goes after the first test). */
  let after: { a: string; b: string };
  suiteSetup(async function () {
    this.timeout(600_000);
    root = makeTempDir('readgate-contexts-');
    fs.writeFileSync(path.join(root, 'a.py'), A);
    fs.writeFileSync(path.join(root, 'b.py'), B);
    fs.mkdirSync(path.join(root, '.claude'));
    fs.writeFileSync(path.join(root, '.claude/settings.local.json'), JSON.stringify({ enabledMcpjsonServers: ['readgate'] }, null, 2));
    const home = makeTempDir('readgate-contexts-home-');
    run = await runAgent({
      cli: 'claude',
      cwd: root,
      prompt: 'Look at a.py and b.py, with a subagent for b.py.',
      script: mainScript(root),
      projectConfigOnly: true,
      trustProject: true,
      env: { READGATE_HOME: home },
      setupCommands: [`node ${SERVER} setup claude-code --root ${root}`, claudeMcpAddLine({ script: SERVER, args: ['--root', root] })],
    });
    summary = run.toolResults.map(describeCall).join('\n');
    after = { a: fs.readFileSync(path.join(root, 'a.py'), 'utf8'), b: fs.readFileSync(path.join(root, 'b.py'), 'utf8') };
    report('claude-contexts', run.toolResults.map(describeCall));
  });

  test('the set-up ran as printed: its `claude mcp add` line is the one the setup command printed', () => {
    const [setup, add] = run.setup;
    assert.strictEqual(setup.status, 0, setup.stderr);
    assert.ok(setup.stdout.includes(add.command), `${add.command}\nnot in:\n${setup.stdout}`);
    assert.strictEqual(add.status, 0, add.stderr);
    assert.deepStrictEqual(run.scriptErrors, []);
  });

  test('the main agent\'s repeated read of an unchanged file reaches the model as the placeholder', () => {
    const [first, second] = reads(run, 'main', 'a.py');
    assert.match(first?.result?.text ?? '', /a_150 = 150\n/, summary);
    assert.ok(second && isPlaceholder(second), describeCall(second));
  });

  test('after an outside change of two lines in the 300-line range, the re-read carries those two lines and is a small fraction of the first read', () => {
    const [first, , delta] = reads(run, 'main', 'a.py');
    const text = delta?.result?.text ?? '';
    assert.match(text, /only what changed since your read #/, describeCall(delta));
    assert.match(text, /100\ta_100 = 1000\n/);
    assert.match(text, /200\ta_200 = 2000\n/);
    assert.doesNotMatch(text, /a_150 = 150/);
    assert.ok(text.length * 5 < (first?.result?.text.length ?? 0), `${text.length} against ${first?.result?.text.length}`);
  });

  test('the subagent\'s read of a.py, which the main agent had read, is content; its edit of a line only the main agent saw is refused', () => {
    const [read] = reads(run, 'subagent', 'a.py');
    assert.ok(read && !isPlaceholder(read), describeCall(read));
    assert.match(read.result?.text ?? '', /a_1 = 1\n/);
    const [edit] = edits(run, 'subagent');
    assert.strictEqual(refusalCode(edit), 'EDIT_OUTSIDE_SEEN_RANGE', describeCall(edit));
    assert.ok(!after.a.includes('a_250 = 0'));
  });

  test('and the other way round: the main agent\'s edit of b.py, which only the subagent read, is refused; its read of b.py is content', () => {
    const [edit] = edits(run, 'main');
    assert.strictEqual(refusalCode(edit), 'EDIT_REQUIRES_PRIOR_READ', describeCall(edit));
    const [read] = reads(run, 'main', 'b.py');
    assert.ok(read && !isPlaceholder(read), describeCall(read));
    assert.strictEqual(after.b, B);
  });

  test('after the compaction (PreCompact), the main agent\'s next read of a.py is content again, not a placeholder', () => {
    const compaction = run.requests.find((request) => request.context?.kind === 'compaction');
    assert.ok(compaction, 'Claude Code did not compact');
    const last = reads(run, 'main', 'a.py').at(-1);
    assert.ok(last && last !== reads(run, 'main', 'a.py')[2], summary);
    assert.ok(!isPlaceholder(last!), describeCall(last));
    assert.match(last!.result?.text ?? '', /a_150 = 150\n/);
  });
});

suite('Claude Code without the set-up: a repeated read is content, as before', () => {
  test('no hook names the context, so the connection keeps one ledger without placeholders', async function () {
    this.timeout(300_000);
    const root = makeTempDir('readgate-contexts-');
    fs.writeFileSync(path.join(root, 'a.py'), A);
    const run = await runAgent({ cli: 'claude', cwd: root, prompt: 'Look at a.py.', script: (turn) => [call('readgate_read', { filePath: 'a.py' }), call('readgate_read', { filePath: 'a.py' }), say('Done.')][turn.step] ?? say('Done.') });
    report('claude-contexts-without-setup', run.toolResults.map(describeCall));
    const [, second] = reads(run, 'main', 'a.py');
    assert.ok(second && !isPlaceholder(second), describeCall(second));
    assert.match(second.result?.text ?? '', /a_150 = 150\n/);
  });
});
