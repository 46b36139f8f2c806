/**
 * "A guide that works verbatim": the Connect an External Agent guide's set-up for Claude Code and Qwen Code
 * (connectGuide() in src/vscode/mcp/connectGuide.ts), carried out on the real CLIs. Its files are written with
 * the guide's text, its commands run as the guide prints them, and nothing else configures the CLI
 * (RunOptions.projectConfigOnly): no user-level MCP servers, permissions or approval flags. The CLI reaches
 * ReadGate through the stdio bridge (dist/mcp-bridge.js), which finds a stand-in VS Code window
 * (standInWindow.ts) through READGATE_DISCOVERY_DIR, passed in the CLI's environment as a user's shell would.
 * Each scenario also runs with one piece of the guide taken away, to show that piece is what makes it work.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { listForgetMarkers } from '../../src/mcp/index';
import { connectGuide, type GuideSection } from '../../src/vscode/mcp/connectGuide';
import { repoRoot } from '../unit/helpers/repoRoot';
import { type AgentCli, ensureAgentCli } from './install';
import type { ToolResultRecord } from './modelServer';
import { describeCall, refusalCode } from './modelView';
import { report } from './report';
import { type AgentRun, runAgent } from './runAgent';
import { call, say, type Script, steps } from './script';
import { openStandInWindow, type StandInWindow } from './standInWindow';

const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');
const GUIDE = connectGuide({ bridgePath: BRIDGE, headlessPath: path.join(repoRoot, 'dist/mcp.js') });
const section = (id: string): GuideSection => GUIDE.find((each) => each.id === id)!;
const CLAUDE = section('claude-code').blocks;
const QWEN = section('qwen').blocks;

const ORIGINAL = 'alpha\nbeta\n';
const EDITED = 'alpha\ngamma\n';
const PROMPT = 'Change beta to gamma in a.txt.';
const readA = call('readgate_read', { filePath: 'a.txt' });
const editA = call('readgate_edit', { filePath: 'a.txt', oldString: 'beta', newString: 'gamma' });

/** Folders this file made (not makeTempDir's: those go after each test, these serve a whole suite). */
const made: string[] = [];
suiteTeardown(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

interface ProjectRun {
  run: AgentRun;
  window: StandInWindow;
  root: string;
  /** a.txt after the run. */
  content: string;
  /** The forget markers the run left (`<discovery>/../forget`). */
  markers: ReturnType<typeof listForgetMarkers>;
}

/**
 * A project folder holding a.txt and `files`, a stand-in window on it, and one run of `cli` there configured
 * by those files alone (and by `setupCommands`, run first in the folder).
 */
async function runInProject(options: { cli: AgentCli; files: Record<string, string>; script: Script | { in(root: string): Script }; trustProject?: boolean; args?: string[]; setupCommands?: string[]; keepHome?: boolean; env?: Record<string, string> }): Promise<ProjectRun> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-guide-')));
  made.push(base);
  const root = path.join(base, 'project');
  const discovery = path.join(base, 'readgate', 'windows');
  fs.mkdirSync(root);
  fs.writeFileSync(path.join(root, 'a.txt'), ORIGINAL);
  fs.writeFileSync(path.join(root, 'b.txt'), 'bravo\n');
  for (const [name, text] of Object.entries(options.files)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
  const window = await openStandInWindow(root, discovery);
  try {
    const run = await runAgent({
      cli: options.cli,
      cwd: root,
      prompt: PROMPT,
      script: typeof options.script === 'function' ? options.script : options.script.in(root),
      projectConfigOnly: true,
      trustProject: options.trustProject,
      env: { READGATE_DISCOVERY_DIR: discovery, ...options.env },
      args: options.args,
      setupCommands: options.setupCommands,
      keepHome: options.keepHome,
    });
    if (options.keepHome) made.push(run.home);
    assert.deepStrictEqual(run.scriptErrors, []);
    assert.ok(!run.timedOut, `the CLI did not finish: ${run.stderr.slice(-2000)}`);
    return { run, window, root, content: fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), markers: listForgetMarkers(path.join(base, 'readgate', 'forget')) };
  } finally {
    await window.close();
  }
}

const resultOf = (project: ProjectRun, tool: string): ToolResultRecord => {
  const record = project.run.toolResults.find((each) => each.tool === tool);
  assert.ok(record, `no ${tool} call was made: ${project.run.toolResults.map(describeCall).join('\n')}`);
  return record;
};

/** Names of every tool a request offered, deferred ones included (the request's `tools` as sent). */
const offeredTools = (run: AgentRun): Set<string> =>
  new Set(run.requests.flatMap((request) => ((request.body as { tools?: { name?: string; function?: { name?: string } }[] })?.tools ?? []).map((tool) => tool.name ?? tool.function?.name ?? '')));

/** The guide's `claude -p "<your task>" …` line: what it adds after the prompt. */
function claudeFlagsOfGuide(): string[] {
  const match = /^claude -p "<your task>" (.+)$/.exec(CLAUDE[3].text);
  assert.ok(match, CLAUDE[3].text);
  return match[1].split(' ');
}

suiteSetup(function () {
  this.timeout(600_000);
  ensureAgentCli('claude');
  ensureAgentCli('qwen');
  assert.ok(fs.existsSync(BRIDGE), 'dist/mcp-bridge.js is missing: npm run build');
});

/** The guide's two commands: the bridge's `setup claude-code` (.claude/settings.json), then the `claude mcp add` line it prints (.mcp.json). */
const CLAUDE_COMMANDS = (): string[] => [CLAUDE[0].text, CLAUDE[1].text];

suite('Claude Code, set up as the guide says', () => {
  /** The guide's steps (its two commands and .claude/settings.local.json), in a folder Claude Code was never started in. */
  let untrusted: ProjectRun;
  /** The same steps, in a folder whose trust dialog the user accepted. */
  let trusted: ProjectRun;
  /** settings.json without permissions.allow, without and with the guide's --allowedTools. */
  let withoutAllow: ProjectRun;
  let withoutAllowFlagged: ProjectRun;
  /** .mcp.json alone, not trusted, with the guide's --allowedTools. */
  let mcpJsonOnly: ProjectRun;
  let mcpJson: string;
  /** .claude/settings.json as the guide's setup command wrote it. */
  let settings: string;

  suiteSetup(async function () {
    this.timeout(600_000);
    const local = CLAUDE[2].text;
    untrusted = await runInProject({
      cli: 'claude',
      files: { '.claude/settings.local.json': local },
      setupCommands: CLAUDE_COMMANDS(),
      script: steps([readA, editA, say('Done.')]),
    });
    mcpJson = fs.readFileSync(path.join(untrusted.root, '.mcp.json'), 'utf8');
    settings = fs.readFileSync(path.join(untrusted.root, '.claude/settings.json'), 'utf8');
    const claudeFiles = (settingsText: string): Record<string, string> => ({ '.mcp.json': mcpJson, '.claude/settings.json': settingsText, '.claude/settings.local.json': local });
    trusted = await runInProject({
      cli: 'claude',
      files: { '.claude/settings.local.json': local },
      setupCommands: CLAUDE_COMMANDS(),
      trustProject: true,
      script: {
        in: (root) =>
          steps([
            readA,
            editA,
            // Claude Code's own tools, with what would change the file if they ran.
            call('Edit', { file_path: path.join(root, 'a.txt'), old_string: 'gamma', new_string: 'delta' }),
            call('Write', { file_path: path.join(root, 'a.txt'), content: 'overwritten\n' }),
            say('Done.'),
          ]),
      },
    });
    const noAllow = JSON.parse(settings) as { permissions: { allow?: string[] } };
    delete noAllow.permissions.allow;
    withoutAllow = await runInProject({ cli: 'claude', files: claudeFiles(JSON.stringify(noAllow, null, 2)), trustProject: true, script: steps([readA, editA, say('Done.')]) });
    withoutAllowFlagged = await runInProject({ cli: 'claude', files: claudeFiles(JSON.stringify(noAllow, null, 2)), trustProject: true, args: claudeFlagsOfGuide(), script: steps([readA, editA, say('Done.')]) });
    mcpJsonOnly = await runInProject({ cli: 'claude', files: { '.mcp.json': mcpJson }, args: claudeFlagsOfGuide(), script: steps([readA, editA, say('Done.')]) });
    for (const [name, project] of Object.entries({ untrusted, trusted, withoutAllow, withoutAllowFlagged, mcpJsonOnly })) report(`guide-claude-${name}`, project.run.toolResults.map(describeCall));
  });

  test('`node <bridge> setup claude-code` writes .claude/settings.json and prints the guide\'s `claude mcp add --scope project readgate -- node <bridge>`, which, run as printed, writes .mcp.json naming exactly that command', () => {
    assert.strictEqual(CLAUDE[0].text, `node ${BRIDGE} setup claude-code`);
    assert.strictEqual(CLAUDE[1].text, `claude mcp add --scope project readgate -- node ${BRIDGE}`);
    const [setup, add] = untrusted.run.setup;
    assert.strictEqual(setup.status, 0, `${setup.stdout}\n${setup.stderr}`);
    assert.deepStrictEqual(setup.stdout.split('\n').filter((line) => line.includes('claude mcp add')).map((line) => line.trim()), [CLAUDE[1].text]);
    assert.strictEqual(add.status, 0, `${add.stdout}\n${add.stderr}`);
    assert.deepStrictEqual(JSON.parse(mcpJson), { mcpServers: { readgate: { type: 'stdio', command: 'node', args: [BRIDGE], env: {} } } });
    const written = JSON.parse(settings) as { permissions: unknown; hooks: Record<string, unknown> };
    assert.deepStrictEqual(written.permissions, { allow: ['mcp__readgate'], deny: ['Edit', 'Write', 'NotebookEdit'] });
    assert.deepStrictEqual(Object.keys(written.hooks), ['PreToolUse', 'SubagentStop', 'PreCompact', 'SessionStart']);
    // The trusted run set the same folder up again from nothing: the same file.
    assert.strictEqual(fs.readFileSync(path.join(trusted.root, '.claude/settings.json'), 'utf8'), settings);
  });

  test('in a folder not trusted yet, `claude -p` ignores the project\'s allow rule and refuses ReadGate\'s tools (it says so on stderr), as the guide now warns', () => {
    assert.match(CLAUDE[1].caption, /allow rules only in a folder you trust: start claude in the project folder once and accept its trust dialog/);
    assert.match(untrusted.run.stderr, /Ignoring 1 permissions\.allow entry from \.claude\/settings\.json: this workspace has not been trusted/);
    for (const tool of ['readgate_read', 'readgate_edit']) {
      const record = resultOf(untrusted, tool);
      assert.match(record.result?.text ?? '', new RegExp(`^Claude requested permissions to use mcp__readgate__${tool}, but you haven't granted it yet\\.$`), describeCall(record));
    }
    assert.deepStrictEqual(untrusted.window.clients, ['claude-code'], 'the project\'s server is started all the same');
    assert.deepStrictEqual(untrusted.window.calls, []);
    assert.strictEqual(untrusted.content, ORIGINAL);
  });

  test('set up as the guide says, in a trusted folder, `claude -p` reads and edits through the bridge without a prompt, and the edit is applied', () => {
    assert.deepStrictEqual(trusted.window.clients, ['claude-code']);
    assert.deepStrictEqual(trusted.window.calls.map((each) => each.tool), ['readgate_read', 'readgate_edit']);
    const read = resultOf(trusted, 'readgate_read');
    assert.ok(!read.result?.isError && /\n2\tbeta$/.test(read.result?.text ?? ''), describeCall(read));
    const edit = resultOf(trusted, 'readgate_edit');
    assert.ok(!edit.result?.isError && /^Edited .*a\.txt:/.test(edit.result?.text ?? ''), describeCall(edit));
    const denials = (JSON.parse(trusted.run.stdout) as { permission_denials: { tool_name: string }[] }).permission_denials.map((denial) => denial.tool_name);
    assert.deepStrictEqual(denials.filter((name) => name.includes('readgate')), [], 'a readgate call was denied');
    assert.strictEqual(trusted.content, EDITED);
  });

  test('Claude Code\'s own Edit, Write and NotebookEdit are denied: never offered to the model, a call of Edit or Write is refused as no such tool, and the file stays as ReadGate\'s edit left it', () => {
    const offered = offeredTools(trusted.run);
    assert.ok(offered.has('Read') && offered.has('mcp__readgate__readgate_edit'), [...offered].join(', '));
    for (const tool of ['Edit', 'Write', 'NotebookEdit']) assert.ok(!offered.has(tool), `${tool} was offered to the model`);
    for (const tool of ['Edit', 'Write']) {
      const record = resultOf(trusted, tool);
      assert.ok(record.result?.isError, describeCall(record));
      assert.match(record.result?.text ?? '', new RegExp(`No such tool available: ${tool}\\. ${tool} is disabled for this session`), describeCall(record));
    }
    assert.strictEqual(trusted.content, EDITED);
  });

  test('without the allow rule `claude -p` refuses ReadGate\'s tools even in a trusted folder; the guide\'s `--allowedTools mcp__readgate` makes them work', () => {
    for (const tool of ['readgate_read', 'readgate_edit']) assert.match(resultOf(withoutAllow, tool).result?.text ?? '', /^Claude requested permissions to use mcp__readgate__/, describeCall(resultOf(withoutAllow, tool)));
    assert.strictEqual(withoutAllow.content, ORIGINAL);
    assert.deepStrictEqual(claudeFlagsOfGuide(), ['--allowedTools', 'mcp__readgate']);
    assert.match(resultOf(withoutAllowFlagged, 'readgate_edit').result?.text ?? '', /^Edited /, describeCall(resultOf(withoutAllowFlagged, 'readgate_edit')));
    assert.strictEqual(withoutAllowFlagged.content, EDITED);
  });

  test('`claude -p "<task>" --allowedTools mcp__readgate` works with .mcp.json alone, in a folder not trusted, as the guide says', () => {
    assert.match(CLAUDE[3].caption, /^Without the settings above, or in a folder not trusted yet, /);
    assert.match(resultOf(mcpJsonOnly, 'readgate_read').result?.text ?? '', /\n2\tbeta$/, describeCall(resultOf(mcpJsonOnly, 'readgate_read')));
    assert.match(resultOf(mcpJsonOnly, 'readgate_edit').result?.text ?? '', /^Edited /, describeCall(resultOf(mcpJsonOnly, 'readgate_edit')));
    assert.strictEqual(mcpJsonOnly.content, EDITED);
  });
});

/**
 * The prompt size a reply reports so that Claude Code compacts before its next request. Claude Code 2.1.332
 * gives its default model a 1,000,000-token window and compacts at the window − min(max output, 20,000) −
 * 13,000 = 967,000 tokens; from 977,000 (the blocking limit) it drops the reply's tool calls too.
 */
const COMPACT_AT = 970_000;
const SUMMARY = 'The user asked to change beta to gamma in a.txt. I read a.txt (line 2 is beta) and b.txt with readgate_read; next I edit a.txt. [summary 5e1f]';

suite('Claude Code compacts: the hooks the guide\'s setup command adds make ReadGate forget', () => {
  let withHooks: ProjectRun;
  /** The same files without the hooks. */
  let withoutHooks: ProjectRun;
  let hookCommand: string;

  /** Reads a.txt, reads b.txt reporting a near-full context, summarizes when asked, then edits a.txt. */
  const compactingScript = (): Script => {
    let edited = false;
    return (turn) => {
      if (turn.context.kind === 'compaction') return say(`<analysis>The task and the files read so far.</analysis>\n<summary>${SUMMARY}</summary>`);
      if (turn.context.kind !== 'main') return say('Done.');
      if (turn.compactions === 0) return [readA, { ...call('readgate_read', { filePath: 'b.txt' }), inputTokens: COMPACT_AT }][turn.step] ?? say('Done.');
      if (edited) return say('Done.');
      edited = true;
      return editA;
    };
  };

  suiteSetup(async function () {
    this.timeout(600_000);
    const local = { '.claude/settings.local.json': CLAUDE[2].text };
    // Claude Code records a hook in its transcript only when the hook printed something, and ReadGate's prints
    // nothing unless READGATE_HOOK_DEBUG asks it to say what it did.
    withHooks = await runInProject({ cli: 'claude', files: local, setupCommands: CLAUDE_COMMANDS(), trustProject: true, keepHome: true, env: { READGATE_HOOK_DEBUG: '1' }, script: compactingScript() });
    const settings = JSON.parse(fs.readFileSync(path.join(withHooks.root, '.claude/settings.json'), 'utf8')) as { hooks?: Record<string, { hooks: { command: string }[] }[]> };
    hookCommand = settings.hooks!.PreCompact[0].hooks[0].command;
    delete settings.hooks;
    const mcpJson = fs.readFileSync(path.join(withHooks.root, '.mcp.json'), 'utf8');
    withoutHooks = await runInProject({ cli: 'claude', files: { ...local, '.mcp.json': mcpJson, '.claude/settings.json': JSON.stringify(settings, null, 2) }, trustProject: true, script: compactingScript() });
    for (const [name, project] of Object.entries({ withHooks, withoutHooks })) report(`guide-claude-compaction-${name}`, project.run.toolResults.map(describeCall));
  });

  test('a reply reporting a near-full context makes `claude -p` ask for a summary and go on from it; a.txt\'s read is no longer in the conversation', () => {
    const compaction = withHooks.run.requests.find((request) => request.context?.kind === 'compaction');
    assert.ok(compaction, `no summary was asked for: ${withHooks.run.requests.map((request) => request.context?.kind).join(', ')}`);
    const after = withHooks.run.requests.filter((request) => request.index > compaction.index && request.context?.kind === 'main');
    assert.ok(after.length, 'no request after the compaction');
    assert.match(after[0].conversation!.firstUserText, /^This session is being continued from a previous conversation/);
    assert.ok(after[0].conversation!.firstUserText.includes(SUMMARY), after[0].conversation!.firstUserText.slice(0, 1000));
    const readOfA = resultOf(withHooks, 'readgate_read');
    assert.match(readOfA.result?.text ?? '', /\n2\tbeta$/, describeCall(readOfA));
    assert.ok(!after[0].conversation!.toolResults.some((result) => result.id === readOfA.id), 'a.txt\'s read survived the compaction');
  });

  test('the compaction runs the guide\'s hook command: forget markers for the project and claude-code, and the window clears that session', () => {
    assert.strictEqual(hookCommand, `node ${BRIDGE} hook`);
    // One marker from PreCompact, one from SessionStart (matcher "compact"), both for the main agent. Claude Code's
    // summary is written by an agent of its own whose end runs SubagentStop: that marker only ends that agent.
    const forgets = withHooks.markers.filter((marker) => !marker.end);
    assert.deepStrictEqual(forgets.map((marker) => [marker.folder, marker.client, marker.agent]), [[withHooks.root, 'claude-code', 'main'], [withHooks.root, 'claude-code', 'main']]);
    assert.ok(withHooks.markers.filter((marker) => marker.end).every((marker) => marker.agent !== 'main'), JSON.stringify(withHooks.markers));
    const transcripts = path.join(withHooks.run.home, '.claude', 'projects');
    const lines = fs.readdirSync(transcripts, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.jsonl')).flatMap((name) => fs.readFileSync(path.join(transcripts, name), 'utf8').split('\n'));
    const hookRun = lines.filter(Boolean).map((line) => JSON.parse(line) as { attachment?: { type?: string; hookName?: string; command?: string; exitCode?: number; stderr?: string } }).find((entry) => entry.attachment?.type === 'hook_success' && entry.attachment.hookName === 'SessionStart:compact');
    assert.deepStrictEqual(hookRun && { command: hookRun.attachment!.command, exitCode: hookRun.attachment!.exitCode, stderr: hookRun.attachment!.stderr }, { command: hookCommand, exitCode: 0, stderr: 'readgate-mcp-bridge hook: marker written\n' });
    // Each marker clears the one session Claude Code's calls came through, at its next call (the edit).
    assert.ok(withHooks.window.forgotten.length > 0, 'the window cleared no session');
    assert.deepStrictEqual([...new Set(withHooks.window.forgotten.map((each) => each.session))], [...new Set(withHooks.window.calls.map((each) => each.session))]);
  });

  test('after the compaction, the edit of a.txt, read before it, reaches the model as EDIT_REQUIRES_PRIOR_READ and the file is unchanged', () => {
    const edit = resultOf(withHooks, 'readgate_edit');
    const compaction = withHooks.run.requests.find((request) => request.context?.kind === 'compaction')!;
    const editRequest = withHooks.run.requests.find((request) => request.reply?.calls.some((each) => each.id === edit.id))!;
    assert.ok(editRequest.index > compaction.index, 'the edit was made before the compaction');
    assert.strictEqual(refusalCode(edit), 'EDIT_REQUIRES_PRIOR_READ', describeCall(edit));
    assert.strictEqual(withHooks.content, ORIGINAL);
  });

  test('without the hooks the same compaction leaves ReadGate\'s ledger as it was: no marker, and the same edit is applied', () => {
    assert.ok(withoutHooks.run.requests.some((request) => request.context?.kind === 'compaction'), 'no compaction in the run without hooks');
    assert.deepStrictEqual(withoutHooks.markers, []);
    assert.match(resultOf(withoutHooks, 'readgate_edit').result?.text ?? '', /^Edited /, describeCall(resultOf(withoutHooks, 'readgate_edit')));
    assert.strictEqual(withoutHooks.content, EDITED);
  });
});

suite('Qwen Code, set up as the guide says', () => {
  const settingsWith = (change: (server: Record<string, unknown>) => void): string => {
    const settings = JSON.parse(QWEN[0].text) as { mcpServers: { readgate: Record<string, unknown> } };
    change(settings.mcpServers.readgate);
    return JSON.stringify(settings, null, 2);
  };
  /** The guide's .qwen/settings.json alone, then with its `qwen mcp approve readgate`, then without one of its keys. */
  let unapproved: ProjectRun;
  let approved: ProjectRun;
  let withoutAlwaysLoad: ProjectRun;
  let withoutTrust: ProjectRun;

  suiteSetup(async function () {
    this.timeout(600_000);
    const script = steps([readA, editA, say('Done.')]);
    unapproved = await runInProject({ cli: 'qwen', files: { '.qwen/settings.json': QWEN[0].text }, script });
    approved = await runInProject({ cli: 'qwen', files: { '.qwen/settings.json': QWEN[0].text }, setupCommands: [QWEN[1].text], script });
    withoutAlwaysLoad = await runInProject({ cli: 'qwen', files: { '.qwen/settings.json': settingsWith((server) => delete server.alwaysLoadTools) }, setupCommands: [QWEN[1].text], script });
    withoutTrust = await runInProject({ cli: 'qwen', files: { '.qwen/settings.json': settingsWith((server) => delete server.trust) }, setupCommands: [QWEN[1].text], script });
    for (const [name, project] of Object.entries({ unapproved, approved, withoutAlwaysLoad, withoutTrust })) report(`guide-qwen-${name}`, project.run.toolResults.map(describeCall));
  });

  test('with .qwen/settings.json alone, non-interactive `qwen` leaves the project\'s server off (pending approval): the bridge never starts and no readgate tool is offered', () => {
    assert.deepStrictEqual(unapproved.window.clients, []);
    assert.ok(![...offeredTools(unapproved.run)].some((name) => name.includes('readgate')), [...offeredTools(unapproved.run)].join(', '));
    assert.match(resultOf(unapproved, 'readgate_read').result?.text ?? '', /Deferred tool "readgate_read" is not registered in this session/, describeCall(resultOf(unapproved, 'readgate_read')));
    assert.strictEqual(unapproved.content, ORIGINAL);
  });

  test('after the guide\'s `qwen mcp approve readgate`, `qwen` with no approval flag is offered readgate\'s tools directly and runs read and edit without asking; the edit is applied', () => {
    assert.strictEqual(QWEN[1].text, 'qwen mcp approve readgate');
    const [setup] = approved.run.setup;
    assert.strictEqual(setup.status, 0, `${setup.stdout}\n${setup.stderr}`);
    assert.match(setup.stdout, /Approved MCP server "readgate"/);
    const first = approved.run.requests.find((request) => request.context?.kind === 'main')!;
    assert.ok(['mcp__readgate__readgate_read', 'mcp__readgate__readgate_edit'].every((name) => first.conversation!.toolNames.includes(name)), first.conversation!.toolNames.join(', '));
    assert.deepStrictEqual(approved.run.toolResults.map((record) => record.name), ['mcp__readgate__readgate_read', 'mcp__readgate__readgate_edit'], 'called through tool_call, not directly');
    assert.match(resultOf(approved, 'readgate_read').result?.text ?? '', /\n2\tbeta$/, describeCall(resultOf(approved, 'readgate_read')));
    assert.match(resultOf(approved, 'readgate_edit').result?.text ?? '', /^Edited /, describeCall(resultOf(approved, 'readgate_edit')));
    assert.deepStrictEqual(approved.window.clients, ['qwen-cli-mcp-client-readgate']);
    assert.strictEqual(approved.content, EDITED);
  });

  test('"alwaysLoadTools" is what offers them directly: without it they are reached only through tool_search and tool_call', () => {
    assert.ok(!withoutAlwaysLoad.run.requests.some((request) => request.conversation?.toolNames.some((name) => name.includes('readgate'))), 'a readgate tool was offered directly');
    assert.deepStrictEqual(withoutAlwaysLoad.run.calls.map((each) => each.name), ['tool_search', 'tool_call', 'tool_search', 'tool_call']);
    assert.strictEqual(withoutAlwaysLoad.content, EDITED);
  });

  test('"trust" is what runs them without asking: without it non-interactive `qwen` declines each call', () => {
    for (const tool of ['readgate_read', 'readgate_edit']) {
      const record = resultOf(withoutTrust, tool);
      assert.match(record.result?.text ?? '', new RegExp(`^Qwen Code requires permission to use "mcp__readgate__${tool}", but that permission was declined \\(non-interactive mode cannot prompt for confirmation\\)`), describeCall(record));
    }
    assert.deepStrictEqual(withoutTrust.window.calls, []);
    assert.strictEqual(withoutTrust.content, ORIGINAL);
  });
});
