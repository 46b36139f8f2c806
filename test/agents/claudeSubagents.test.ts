/**
 * How Claude Code's subagents reach the model and the MCP servers. The model server tells a subagent's
 * requests from the main agent's by the prompt the `Agent` call gave (its conversation starts with it); these
 * tests check that against the marks Claude Code itself puts on subagent requests, and record what an MCP
 * server is told about the caller (which is what a per-agent ledger in ReadGate would have to go on).
 * They pass today: they describe the CLI.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { makeTempDir } from '../unit/helpers/tempDir';
import { ensureAgentCli } from './install';
import { describeCall } from './modelView';
import { report } from './report';
import { type AgentRun, readgateServer, runAgent } from './runAgent';
import { byContext, call, say, steps } from './script';

suite('Claude Code: a subagent and the main agent each call the same MCP servers', () => {
  const SUBAGENT_PROMPT = 'Subagent task 51c2: read app.py with readgate_read, then call probe.';
  let run: AgentRun;
  suiteSetup(async function () {
    this.timeout(600_000);
    ensureAgentCli('claude');
    const root = makeTempDir('readgate-agents-');
    fs.writeFileSync(path.join(root, 'app.py'), 'def main():\n    print("hello")\n');
    run = await runAgent({
      cli: 'claude',
      cwd: root,
      prompt: 'Have a subagent look at app.py, then call probe yourself.',
      mcpServers: { readgate: readgateServer(root), probe: { command: process.execPath, args: [path.join(__dirname, 'probeServer.js')] } },
      script: byContext(
        steps([
          call('Agent', { description: 'Read app.py', prompt: SUBAGENT_PROMPT, subagent_type: 'general-purpose', run_in_background: false }),
          call('probe', { names: [] }),
          say('Done.'),
        ]),
        { 'Subagent task 51c2': steps([call('readgate_read', { filePath: 'app.py' }), call('probe', { names: [] }), say('app.py prints hello.')]) },
      ),
    });
    assert.deepStrictEqual(run.scriptErrors, []);
    report('claude-subagent-marks', run.toolResults.map((record) => describeCall(record)));
  });

  test("subagent requests carry an x-claude-code-agent-id header and cc_is_subagent=true in the system prompt; the main agent's carry neither", () => {
    const modelCalls = run.requests.filter((request) => request.context?.kind === 'main' || request.context?.kind === 'subagent');
    assert.ok(modelCalls.some((request) => request.context?.kind === 'subagent'), 'no subagent request was made');
    for (const request of modelCalls) {
      const isSubagent = request.context?.kind === 'subagent';
      assert.strictEqual(typeof request.headers['x-claude-code-agent-id'] === 'string', isSubagent, `request ${request.index} (${request.context?.kind})`);
      assert.strictEqual(/cc_is_subagent=true/.test(request.conversation?.system ?? ''), isSubagent, `request ${request.index} (${request.context?.kind})`);
    }
  });

  test('both share one session id: x-claude-code-session-id is the same on every request', () => {
    const ids = new Set(run.requests.filter((request) => request.context?.kind !== 'side').map((request) => request.headers['x-claude-code-session-id']));
    assert.strictEqual(ids.size, 1, [...ids].join(', '));
  });

  test('the subagent is shown the content of its read', () => {
    const read = run.toolResults.find((record) => record.tool === 'readgate_read' && record.context.kind === 'subagent');
    assert.match(read?.result?.text ?? '', /print\("hello"\)/, describeCall(read));
  });

  test('an MCP server is told the tool call id (_meta "claudecode/toolUseId") but not which agent calls', () => {
    const probes = run.toolResults.filter((record) => record.tool === 'probe');
    assert.deepStrictEqual(probes.map((record) => record.context.kind), ['subagent', 'main']);
    for (const record of probes) {
      const meta = (JSON.parse(record.result?.text ?? '{}') as { meta: Record<string, unknown> }).meta;
      assert.strictEqual(meta['claudecode/toolUseId'], record.id, describeCall(record));
      assert.deepStrictEqual(Object.keys(meta).sort(), ['claudecode/toolUseId', 'progressToken'], describeCall(record));
    }
  });
});
