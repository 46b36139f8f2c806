/**
 * `setup codex` as docs/agents.md and the Connect guide say, on the real Codex CLI: the command run in the project
 * folder (`node dist/mcp.js setup codex --root .`, with `--user` or for the project's `.codex/config.toml`) is
 * the only MCP configuration (RunOptions.projectConfigOnly: the run's config.toml names only the scripted model);
 * then `codex exec` reads and edits through ReadGate, and no call comes back "requires approval". A project's
 * config is read only in a trusted project: without trust Codex offers no ReadGate tool.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'smol-toml';
import { shellWord } from '../../src/mcp/shellWord';
import { makeTempDir } from '../unit/helpers/tempDir';
import { repoRoot } from '../unit/helpers/repoRoot';
import { codexHome } from './codexCli';
import { ensureAgentCli } from './install';
import { describeCall } from './modelView';
import { report } from './report';
import { type AgentRun, runAgent } from './runAgent';
import { call, say, steps } from './script';

const SETUP = `node ${shellWord(path.join(repoRoot, 'dist/mcp.js'))} setup codex --root .`;
const APPROVAL_REFUSAL = 'requires approval';

interface SetupRun {
  run: AgentRun;
  root: string;
  content: string;
  config: string;
}

async function setUpAndEdit(options: { user: boolean; trustProject: boolean }): Promise<SetupRun> {
  const root = makeTempDir('readgate-codex-setup-');
  fs.writeFileSync(path.join(root, 'a.txt'), 'alpha\nbeta\n');
  let config = '';
  const run = await runAgent({
    cli: 'codex',
    cwd: root,
    prompt: 'Change beta to gamma in a.txt.',
    projectConfigOnly: true,
    trustProject: options.trustProject,
    keepHome: true,
    setupCommands: [options.user ? `${SETUP} --user` : SETUP],
    script: steps([call('readgate_read', { filePath: 'a.txt' }), call('readgate_edit', { filePath: 'a.txt', oldString: 'beta', newString: 'gamma' }), say('Done.')]),
  });
  try {
    config = fs.readFileSync(options.user ? path.join(codexHome(run.home), 'config.toml') : path.join(root, '.codex', 'config.toml'), 'utf8');
  } finally {
    fs.rmSync(run.home, { recursive: true, force: true });
  }
  return { run, root, content: fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), config };
}

const offersReadGate = (run: AgentRun): boolean => {
  const first = run.requests.find((request) => request.context?.kind === 'main');
  return ((first?.body as { tools?: { name: string }[] } | undefined)?.tools ?? []).some((tool) => tool.name === 'mcp__readgate');
};

suiteSetup(function () {
  this.timeout(600_000);
  ensureAgentCli('codex');
});

suite('Codex set up by `setup codex`, as the guide says', () => {
  const runs: Record<string, SetupRun> = {};
  suiteSetup(async function () {
    this.timeout(600_000);
    runs.user = await setUpAndEdit({ user: true, trustProject: false });
    runs.project = await setUpAndEdit({ user: false, trustProject: true });
    runs.untrusted = await setUpAndEdit({ user: false, trustProject: false });
    report('codex-setup', Object.fromEntries(Object.entries(runs).map(([name, each]) => [name, { setup: each.run.setup?.map((step) => ({ command: step.command, status: step.status })), calls: each.run.toolResults.map(describeCall), exitCode: each.run.exitCode }])));
  });

  for (const name of ['user', 'project'] as const) {
    test(`${name === 'user' ? '--user ($CODEX_HOME/config.toml, merged into the run\'s own)' : 'the project\'s .codex/config.toml, in a trusted project'}: codex exec reads and edits through ReadGate, no call "requires approval"`, () => {
      const { run, content, config } = runs[name];
      assert.strictEqual(run.setup?.[0]?.status, 0, JSON.stringify(run.setup));
      assert.deepStrictEqual(run.scriptErrors, []);
      assert.strictEqual(run.exitCode, 0, run.stderr);
      const calls = run.toolResults.filter((record) => record.name.startsWith('mcp__readgate__'));
      assert.deepStrictEqual(calls.map((record) => record.tool), ['readgate_read', 'readgate_edit']);
      for (const record of calls) assert.ok(!(record.result?.text ?? '').includes(APPROVAL_REFUSAL), describeCall(record));
      assert.match(calls[1].result?.text ?? '', /Edited /, describeCall(calls[1]));
      assert.strictEqual(content, 'alpha\ngamma\n');
      const readgate = (parse(config) as { mcp_servers: { readgate: Record<string, unknown> } }).mcp_servers.readgate;
      assert.strictEqual(readgate.default_tools_approval_mode, 'approve');
      assert.strictEqual(readgate.tool_timeout_sec, 600);
      // --user merged into the harness's config: the scripted model provider it needs is still there.
      if (name === 'user') assert.match(config, /^\[model_providers\.scripted\]$/m);
    });
  }

  test('in a project not trusted Codex ignores its .codex/config.toml: no ReadGate tool is offered', () => {
    const { run, content } = runs.untrusted;
    assert.strictEqual(run.setup?.[0]?.status, 0, JSON.stringify(run.setup));
    assert.ok(!offersReadGate(run), 'Codex offered ReadGate\'s tools in a project not trusted');
    assert.ok(offersReadGate(runs.project.run));
    assert.strictEqual(content, 'alpha\nbeta\n');
  });
});
