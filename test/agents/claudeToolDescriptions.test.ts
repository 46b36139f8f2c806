/**
 * How much of an MCP tool's description Claude Code gives the model. By default Claude Code 2.1 defers MCP
 * tools (the model sees their names and loads a schema with ToolSearch); with ENABLE_TOOL_SEARCH=false it
 * declares them up front. It cuts a description at a length that depends on the mode (measured below with a
 * probe server), so ReadGate's descriptions must stay under the smaller one. They pass today.
 */
import * as assert from 'assert';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeTempDir } from '../unit/helpers/tempDir';
import { ensureAgentCli } from './install';
import { report } from './report';
import { type AgentRun, readgateServer, runAgent } from './runAgent';
import { call, say, steps } from './script';

const READGATE_TOOLS = ['readgate_read', 'readgate_edit', 'readgate_multiEdit', 'readgate_write', 'readgate_applyPatch'];
const TRUNCATION_MARK = '… [truncated]';

/** Claude Code's description limits (measured on 2.1.332; CLAUDE_CODE_MAX_MCP_DESCRIPTION_LENGTH overrides both). */
const LIMITS = { deferred: 16_384, declared: 4_096 };

const MODES = { deferred: {}, declared: { ENABLE_TOOL_SEARCH: 'false' } };

/** The MCP tools the main agent's last request declared, by their server's name for them. */
function declaredTools(run: AgentRun, server: string): Map<string, string> {
  const last = run.requests.filter((request) => request.context?.kind === 'main').pop();
  const tools = (last?.body as { tools?: { name: string; description: string }[] } | undefined)?.tools ?? [];
  const prefix = `mcp__${server}__`;
  return new Map(tools.filter((tool) => tool.name.startsWith(prefix)).map((tool) => [tool.name.slice(prefix.length), tool.description]));
}

/** Runs Claude Code in `mode`, loading `tools` of `server` through ToolSearch first when they are deferred. */
async function toolsShown(mode: keyof typeof MODES, server: string, tools: string[], mcpServers: Parameters<typeof runAgent>[0]['mcpServers']) {
  const root = makeTempDir('readgate-agents-');
  const load = call('ToolSearch', { query: `select:${tools.map((tool) => `mcp__${server}__${tool}`).join(',')}` });
  const run = await runAgent({ cli: 'claude', cwd: root, prompt: 'Look at the tools.', env: MODES[mode], mcpServers: mcpServers ?? { readgate: readgateServer(root) }, script: steps(mode === 'deferred' ? [load, say('Done.')] : [say('Done.')]) });
  assert.deepStrictEqual(run.scriptErrors, []);
  return declaredTools(run, server);
}

/** The tools ReadGate's headless server lists, asked over MCP as any client would. */
async function servedTools(): Promise<Map<string, string>> {
  const server = readgateServer(makeTempDir('readgate-agents-'));
  const client = new Client({ name: 'agents-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: server.command, args: server.args, stderr: 'pipe' }));
  try {
    return new Map((await client.listTools()).tools.map((tool) => [tool.name, tool.description ?? '']));
  } finally {
    await client.close();
  }
}

suite('Claude Code: the tool descriptions the model is given', () => {
  suiteSetup(function () {
    this.timeout(600_000);
    ensureAgentCli('claude');
  });

  for (const mode of Object.keys(MODES) as (keyof typeof MODES)[]) {
    test(`${mode} MCP tools: every readgate tool description reaches the model whole`, async () => {
      const [served, shown] = await Promise.all([servedTools(), toolsShown(mode, 'readgate', READGATE_TOOLS, undefined)]);
      report(`claude-readgate-descriptions-${mode}`, READGATE_TOOLS.map((name) => ({ name, served: served.get(name)?.length, shown: shown.get(name)?.length })));
      for (const name of READGATE_TOOLS) {
        const description = served.get(name) ?? '';
        const given = shown.get(name);
        assert.ok(given !== undefined, `Claude Code did not declare ${name}`);
        assert.ok(given === description, `${name}: shown ${given.length} of ${description.length} characters, ending ${JSON.stringify(given.slice(-60))}`);
      }
    });

    test(`${mode} MCP tools: a 20,000-character description is cut to ${LIMITS[mode].toLocaleString('en')} characters and marked`, async () => {
      const probe = { command: process.execPath, args: [path.join(__dirname, 'probeServer.js'), '--description-length', '20000'] };
      const shown = (await toolsShown(mode, 'probe', ['probe'], { probe })).get('probe') ?? '';
      report(`claude-description-limit-${mode}`, { served: 20_000, shown: shown.length });
      assert.strictEqual(shown.length, LIMITS[mode] + TRUNCATION_MARK.length);
      assert.ok(shown.endsWith(TRUNCATION_MARK), JSON.stringify(shown.slice(-40)));
    });
  }
});
