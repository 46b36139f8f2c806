/**
 * The Connect an External Agent guide's Gemini CLI set-up (connectGuide() in src/vscode/mcp/connectGuide.ts),
 * carried out verbatim on the real CLI, headless (`gemini -p`): the project's `.gemini/settings.json` with the
 * guide's text is the only MCP configuration (RunOptions.projectConfigOnly), the folder is trusted as the guide
 * says (its `~/.gemini/trustedFolders.json` entry, or its `GEMINI_CLI_TRUST_WORKSPACE=true` line), and Gemini CLI
 * reaches ReadGate through the stdio bridge and a stand-in VS Code window (standInWindow.ts). Runs without the
 * trust, with `--skip-trust` instead, and without the entry's `"trust": true` show what each piece does. Judged
 * by what the model was shown.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { connectGuide } from '../../src/vscode/mcp/connectGuide';
import { repoRoot } from '../unit/helpers/repoRoot';
import { ensureAgentCli } from './install';
import type { ToolResultRecord } from './modelServer';
import { describeCall } from './modelView';
import { report } from './report';
import { type AgentRun, runAgent } from './runAgent';
import { call, say, steps } from './script';
import { openStandInWindow, type StandInWindow } from './standInWindow';

const BRIDGE = path.join(repoRoot, 'dist/mcp-bridge.js');
/** The guide's Gemini CLI blocks for a window on `folder`. */
const geminiBlocks = (folder: string) => connectGuide({ bridgePath: BRIDGE, headlessPath: path.join(repoRoot, 'dist/mcp.js'), folder }).find((section) => section.id === 'gemini')!.blocks;

const ORIGINAL = 'alpha\nbeta\n';
const EDITED = 'alpha\ngamma\n';
const PROMPT = 'Change beta to gamma in a.txt.';
const script = () => steps([call('readgate_read', { filePath: 'a.txt' }), call('readgate_edit', { filePath: 'a.txt', oldString: 'beta', newString: 'gamma' }), say('Done.')]);
const UNTRUSTED = 'Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, set the `GEMINI_CLI_TRUST_WORKSPACE=true` environment variable, or trust this directory in interactive mode.';

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
}

/**
 * A project holding a.txt and the guide's `.gemini/settings.json` (changed by `edit`), a stand-in window on it,
 * and one headless run there. `trust`: write the guide's trustedFolders.json entry into the run's home first.
 */
async function runInProject(options: { trust: boolean; args?: string[]; env?: Record<string, string>; edit?: (server: Record<string, unknown>) => void }): Promise<ProjectRun> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-gemini-')));
  made.push(base);
  const root = path.join(base, 'project');
  const discovery = path.join(base, 'readgate', 'windows');
  const blocks = geminiBlocks(root);
  const settings = JSON.parse(blocks[0].text) as { mcpServers: { readgate: Record<string, unknown> } };
  options.edit?.(settings.mcpServers.readgate);
  fs.mkdirSync(path.join(root, '.gemini'), { recursive: true });
  fs.writeFileSync(path.join(root, 'a.txt'), ORIGINAL);
  fs.writeFileSync(path.join(root, '.gemini/settings.json'), options.edit ? JSON.stringify(settings, null, 2) : blocks[0].text);
  // What the trust dialog records, as the guide prints it, written where the run's Gemini CLI looks.
  const trust = options.trust ? [`mkdir -p "$HOME/.gemini" && cat > "$HOME/.gemini/trustedFolders.json" <<'EOF'\n${blocks[1].text}\nEOF`] : [];
  const window = await openStandInWindow(root, discovery);
  try {
    const run = await runAgent({ cli: 'gemini', cwd: root, prompt: PROMPT, script: script(), projectConfigOnly: true, setupCommands: trust, args: options.args, env: { READGATE_DISCOVERY_DIR: discovery, ...options.env }, timeoutMs: 120_000 });
    assert.deepStrictEqual(run.scriptErrors, []);
    assert.ok(!run.timedOut, `the CLI did not finish: ${run.stderr.slice(-2000)}`);
    for (const setup of run.setup) assert.strictEqual(setup.status, 0, `${setup.command}\n${setup.stderr}`);
    return { run, window, root, content: fs.readFileSync(path.join(root, 'a.txt'), 'utf8') };
  } finally {
    await window.close();
  }
}

const resultOf = (project: ProjectRun, tool: string): ToolResultRecord => {
  const record = project.run.toolResults.find((each) => each.tool === tool);
  assert.ok(record, `no ${tool} call was made: ${project.run.toolResults.map(describeCall).join('\n')}`);
  return record;
};

/** The variable the guide's `NAME=value gemini -p "<your task>"` line sets. */
function envOfGuide(): Record<string, string> {
  const match = /^([A-Z_]+)=(\S+) gemini -p "<your task>"$/.exec(geminiBlocks('/p')[2].text);
  assert.ok(match, geminiBlocks('/p')[2].text);
  return { [match[1]]: match[2] };
}

const offeredToMain = (project: ProjectRun): string[] => project.run.requests.find((request) => request.context?.kind === 'main')?.conversation?.toolNames ?? [];

suite('Gemini CLI, set up as the guide says', () => {
  let trusted: ProjectRun;
  let untrusted: ProjectRun;
  /** Not trusted, with the guide's variable; with the CLI's `--skip-trust` flag instead. */
  let trustedByEnv: ProjectRun;
  let skipTrust: ProjectRun;
  /** Trusted, but the entry without `"trust": true`. */
  let withoutTrust: ProjectRun;

  suiteSetup(async function () {
    this.timeout(600_000);
    ensureAgentCli('gemini');
    assert.ok(fs.existsSync(BRIDGE), 'dist/mcp-bridge.js is missing: npm run build');
    trusted = await runInProject({ trust: true });
    untrusted = await runInProject({ trust: false });
    trustedByEnv = await runInProject({ trust: false, env: envOfGuide() });
    skipTrust = await runInProject({ trust: false, args: ['--skip-trust'] });
    withoutTrust = await runInProject({ trust: true, edit: (server) => delete server.trust });
    for (const [name, project] of Object.entries({ trusted, untrusted, trustedByEnv, skipTrust, withoutTrust })) {
      report(`gemini-guide-${name}`, { exitCode: project.run.exitCode, calls: project.run.toolResults.map(describeCall) });
    }
  });

  test('the guide trusts the folder with a ~/.gemini/trustedFolders.json entry for it ("TRUST_FOLDER", what the trust dialog records), or with GEMINI_CLI_TRUST_WORKSPACE=true for one run', () => {
    const blocks = geminiBlocks('/work/my project');
    assert.deepStrictEqual(JSON.parse(blocks[1].text), { '/work/my project': 'TRUST_FOLDER' });
    assert.match(blocks[1].caption, /only in a folder you trust: start gemini in the project folder once and choose "Trust folder"\. That is recorded in ~\/\.gemini\/trustedFolders\.json/);
    assert.match(blocks[2].caption, /a non-interactive gemini -p ignores the project's settings and stops at once with exit code 55/);
    assert.deepStrictEqual(envOfGuide(), { GEMINI_CLI_TRUST_WORKSPACE: 'true' });
  });

  test('set up as the guide says, in a trusted folder, `gemini -p` reads and edits through the bridge without a prompt, and the edit is applied', () => {
    assert.strictEqual(trusted.run.exitCode, 0, trusted.run.stderr);
    assert.deepStrictEqual(trusted.window.clients, ['gemini-cli-mcp-client']);
    assert.deepStrictEqual(trusted.window.calls.map((each) => each.tool), ['readgate_read', 'readgate_edit']);
    assert.deepStrictEqual(trusted.run.toolResults.map((record) => record.name), ['mcp_readgate_readgate_read', 'mcp_readgate_readgate_edit']);
    const read = resultOf(trusted, 'readgate_read');
    assert.ok(!read.result?.isError && /\n2\tbeta\n<\/untrusted_context>$/.test(read.result?.text ?? ''), describeCall(read));
    const edit = resultOf(trusted, 'readgate_edit');
    assert.ok(!edit.result?.isError && /^<untrusted_context>\nEdited .*a\.txt:/.test(edit.result?.text ?? ''), describeCall(edit));
    assert.strictEqual(trusted.content, EDITED);
  });

  test('headless, Gemini CLI offers the model none of its own file-changing tools or its shell, only ReadGate\'s for changes', () => {
    const offered = offeredToMain(trusted);
    assert.ok(offered.includes('read_file') && offered.includes('mcp_readgate_readgate_edit'), offered.join(', '));
    for (const tool of ['replace', 'write_file', 'run_shell_command']) assert.ok(!offered.includes(tool), `${tool} was offered: ${offered.join(', ')}`);
  });

  test('in a folder not trusted, `gemini -p` exits 55 saying why, before it asks the model or starts the project\'s server', () => {
    assert.strictEqual(untrusted.run.exitCode, 55, untrusted.run.stderr);
    assert.ok(untrusted.run.stderr.includes(UNTRUSTED), untrusted.run.stderr);
    assert.strictEqual(untrusted.run.stdout, '');
    assert.deepStrictEqual(untrusted.run.requests, []);
    assert.deepStrictEqual(untrusted.window.clients, []);
    assert.strictEqual(untrusted.content, ORIGINAL);
  });

  test('the guide\'s `GEMINI_CLI_TRUST_WORKSPACE=true gemini -p "<task>"` reads and edits in that folder', () => {
    assert.strictEqual(trustedByEnv.run.exitCode, 0, trustedByEnv.run.stderr);
    assert.match(resultOf(trustedByEnv, 'readgate_read').result?.text ?? '', /\n2\tbeta\n/, describeCall(resultOf(trustedByEnv, 'readgate_read')));
    assert.match(resultOf(trustedByEnv, 'readgate_edit').result?.text ?? '', /^<untrusted_context>\nEdited /, describeCall(resultOf(trustedByEnv, 'readgate_edit')));
    assert.strictEqual(trustedByEnv.content, EDITED);
  });

  test('`--skip-trust` is not enough: the run goes on, but without the project\'s settings (read before the flag), so no ReadGate tool is offered', () => {
    assert.strictEqual(skipTrust.run.exitCode, 0, skipTrust.run.stderr);
    assert.ok(!offeredToMain(skipTrust).some((name) => name.startsWith('mcp_readgate_')), offeredToMain(skipTrust).join(', '));
    assert.match(resultOf(skipTrust, 'readgate_read').result?.text ?? '', /^Tool "readgate_read" not found\./, describeCall(resultOf(skipTrust, 'readgate_read')));
    assert.deepStrictEqual(skipTrust.window.clients, []);
    assert.strictEqual(skipTrust.content, ORIGINAL);
  });

  test('"trust": true is what lets a headless run use ReadGate: without it Gemini CLI offers none of its tools, and a call of them is "not found"', () => {
    assert.strictEqual(withoutTrust.run.exitCode, 0, withoutTrust.run.stderr);
    assert.ok(offeredToMain(withoutTrust).length > 0 && !offeredToMain(withoutTrust).some((name) => name.startsWith('mcp_readgate_')), offeredToMain(withoutTrust).join(', '));
    for (const tool of ['readgate_read', 'readgate_edit']) assert.match(resultOf(withoutTrust, tool).result?.text ?? '', new RegExp(`^Tool "${tool}" not found\\.`), describeCall(resultOf(withoutTrust, tool)));
    assert.deepStrictEqual(withoutTrust.window.calls, []);
    assert.strictEqual(withoutTrust.content, ORIGINAL);
  });
});
