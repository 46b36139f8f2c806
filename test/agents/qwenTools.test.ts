/**
 * How Qwen Code presents ReadGate's tools and refusals to the model. Qwen Code 0.24 declares MCP tools
 * lazily: a system reminder lists each by name with a shortened description, `tool_search` shows the whole
 * declaration, and `tool_call` runs it. An MCP error result reaches the model wrapped in Qwen's own sentence,
 * with ReadGate's text inside JSON. They pass today: they describe the CLI.
 */
import * as assert from 'assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import * as fs from 'fs';
import * as path from 'path';
import { makeTempDir } from '../unit/helpers/tempDir';
import { ensureAgentCli } from './install';
import { describeCall, refusalCode } from './modelView';
import { report } from './report';
import { readgateServer, runAgent } from './runAgent';
import { call, say, steps } from './script';

const READGATE_TOOLS = ['readgate_read', 'readgate_edit', 'readgate_multiEdit', 'readgate_write', 'readgate_applyPatch'];

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

/**
 * The declarations `tool_search` shows, one JSON object per `<function>` line. Qwen writes them with `<` and `>`
 * escaped (`\u003c`), which the model reads as the same characters, so they are compared decoded.
 */
function declaredTools(text: string): Map<string, string> {
  const tools = new Map<string, string>();
  for (const match of text.matchAll(/<function>(.*)<\/function>/g)) {
    const declared = JSON.parse(match[1]) as { name: string; description: string };
    tools.set(declared.name, declared.description);
  }
  return tools;
}

suite('Qwen Code: the readgate tools and refusals the model is given', () => {
  suiteSetup(function () {
    this.timeout(600_000);
    ensureAgentCli('qwen');
  });

  test('the tools are not declared up front: a reminder lists them with descriptions cut to about 160 characters, and tool_search shows each whole', async () => {
    const root = makeTempDir('readgate-agents-');
    const names = READGATE_TOOLS.map((name) => `mcp__readgate__${name}`);
    const run = await runAgent({ cli: 'qwen', cwd: root, prompt: 'Look at the tools.', script: steps([call('tool_search', { query: `select:${names.join(',')}` }), say('Done.')]) });
    assert.deepStrictEqual(run.scriptErrors, []);
    const served = await servedTools();
    const first = run.requests.find((request) => request.context?.kind === 'main')!;
    assert.ok(!first.conversation!.toolNames.some((name) => name.startsWith('mcp__readgate__')), first.conversation!.toolNames.join(', '));
    const searched = run.toolResults[0].result?.text ?? '';
    const shown = declaredTools(searched);
    const rows = READGATE_TOOLS.map((name) => {
      const listed = new RegExp(`"mcp__readgate__${name}": "([^\\n]*)"\\n`).exec(first.conversation!.firstUserText)?.[1] ?? '';
      return { name, served: served.get(name)!.length, listed: listed.length, wholeInToolSearch: shown.get(`mcp__readgate__${name}`) === served.get(name) };
    });
    report('qwen-readgate-descriptions', rows);
    for (const row of rows) {
      assert.ok(row.listed > 100 && row.listed < 200, JSON.stringify(row));
      assert.ok(row.wholeInToolSearch, `${row.name}: tool_search did not show the whole description: ${searched.slice(0, 300)}`);
    }
  });

  test("a refusal reaches the model inside Qwen's error sentence, with ReadGate's text as JSON", async () => {
    const root = makeTempDir('readgate-agents-');
    fs.writeFileSync(path.join(root, 'app.py'), 'x = 1\n');
    const run = await runAgent({ cli: 'qwen', cwd: root, prompt: 'Edit app.py.', script: steps([call('readgate_edit', { filePath: 'app.py', oldString: 'x = 1', newString: 'x = 2' }), say('Done.')]) });
    assert.deepStrictEqual(run.scriptErrors, []);
    const edit = run.toolResults[0];
    report('qwen-refusal', describeCall(edit));
    assert.match(edit.result?.text ?? '', /^MCP tool 'readgate_edit' reported tool error for function call: /);
    assert.strictEqual(refusalCode(edit), 'EDIT_REQUIRES_PRIOR_READ');
  });
});
