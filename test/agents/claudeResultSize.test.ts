/**
 * How much of a readgate_read result Claude Code shows the model. ReadGate counts a read's lines as seen when
 * it returns them; when the CLI shows the model only part of the result, ReadGate's ledger and the model's
 * context disagree. These tests pin, for the pinned Claude Code, where it stops passing an MCP result whole,
 * what it shows instead, and what MAX_MCP_OUTPUT_TOKENS changes. They pass today: they describe the CLI.
 * Every run writes its numbers to test-results/agents/.
 */
import * as assert from 'assert';
import * as path from 'path';
import { makeTempDir } from '../unit/helpers/tempDir';
import { ensureAgentCli } from './install';
import { bisect, readSizes } from './measure';
import { report } from './report';
import { runAgent } from './runAgent';
import { call, steps } from './script';

const PROMPT = 'Read the files I point you to.';

/** Longer MCP text results are saved to a file and the model gets a 2 KB preview (measured on 2.1.332). */
const PERSIST_LIMIT_CHARS = 50_000;
/**
 * The token limit is applied to the JSON of the result's content: a result is refused when that JSON (as
 * `contentJsonChars` measures it) is longer than 4 × MAX_MCP_OUTPUT_TOKENS − 59 characters (measured at 2,000
 * and at the default 25,000, with 9- and 99-character lines).
 */
const tokenLimitChars = (tokens: number): number => 4 * tokens - 59;

suite('Claude Code: how much of a readgate_read result the model is shown', () => {
  suiteSetup(function () {
    this.timeout(600_000);
    ensureAgentCli('claude');
  });

  test('results of about 10K, 30K and 49K characters are shown whole; 51K and 60K become a 2 KB preview; 100K a token-limit notice', async () => {
    const shown = await readSizes('claude', [10_000, 30_000, 49_000, 51_000, 60_000, 100_000]);
    report('claude-result-sizes', shown);
    assert.deepStrictEqual(shown.map((row) => row.as), ['whole', 'whole', 'whole', 'preview', 'preview', 'tokenLimit']);
    for (const row of shown.filter((r) => r.as === 'preview')) assert.ok(row.shownChars < 2_500, JSON.stringify(row));
  });

  test(`a result is shown whole up to exactly ${PERSIST_LIMIT_CHARS.toLocaleString('en')} characters of text, whatever its lines and bytes`, async () => {
    // 39-character lines carry more line breaks and tabs (escaped in JSON) per character; "é" is 2 bytes in UTF-8.
    const rows = await bisect('claude', [{ width: 99 }, { width: 39 }, { width: 39, filler: 'é' }], { low: 1_000, high: 90_000 });
    report('claude-result-threshold', rows);
    for (const row of rows) {
      assert.strictEqual(row.below.resultChars, PERSIST_LIMIT_CHARS, JSON.stringify(row));
      assert.strictEqual(row.above.resultChars, PERSIST_LIMIT_CHARS + 1, JSON.stringify(row));
      assert.strictEqual(row.above.as, 'preview');
    }
  });

  test('MAX_MCP_OUTPUT_TOKENS=2000 in the CLI environment replaces results past about 7,900 characters of JSON with a token-limit notice', async () => {
    const rows = await bisect('claude', [{ width: 99 }, { width: 9 }], { low: 500, high: 30_000 }, { env: { MAX_MCP_OUTPUT_TOKENS: '2000' } });
    report('claude-max-mcp-output-tokens-2000', rows);
    // The bisection moves a line at a time, so the limit lies between the two probes it ends on.
    for (const row of rows) {
      assert.ok(row.below.contentJsonChars <= tokenLimitChars(2000) && tokenLimitChars(2000) < row.above.contentJsonChars, JSON.stringify(row));
      assert.strictEqual(row.above.as, 'tokenLimit');
    }
  });

  test('the default token limit (25,000) replaces results past about 99,900 characters of JSON, after the 50,000-character preview rule', async () => {
    const rows = await bisect('claude', [{ width: 99 }], { low: 50_000, high: 99_000, below: (shown) => shown.as !== 'tokenLimit' });
    report('claude-default-token-limit', rows);
    assert.ok(rows[0].below.contentJsonChars <= tokenLimitChars(25_000) && tokenLimitChars(25_000) < rows[0].above.contentJsonChars, JSON.stringify(rows[0]));
    assert.strictEqual(rows[0].below.as, 'preview');
  });

  test('MAX_MCP_OUTPUT_TOKENS=100000 does not lift the 50,000-character limit', async () => {
    const shown = await readSizes('claude', [30_000, 60_000], { MAX_MCP_OUTPUT_TOKENS: '100000' });
    report('claude-max-mcp-output-tokens-100000', shown);
    assert.deepStrictEqual(shown.map((row) => row.as), ['whole', 'preview']);
  });

  test('an MCP server started by Claude Code inherits its environment, MAX_MCP_OUTPUT_TOKENS included', async () => {
    const root = makeTempDir('readgate-agents-');
    const names = ['MAX_MCP_OUTPUT_TOKENS', 'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', 'ANTHROPIC_BASE_URL'];
    const run = await runAgent({
      cli: 'claude',
      cwd: root,
      prompt: PROMPT,
      env: { MAX_MCP_OUTPUT_TOKENS: '12345' },
      mcpServers: { probe: { command: process.execPath, args: [path.join(__dirname, 'probeServer.js')] } },
      script: steps([call('probe', { names })]),
    });
    assert.deepStrictEqual(run.scriptErrors, []);
    const seen = (JSON.parse(run.toolResults[0].result?.text ?? '{}') as { env: Record<string, string | null> }).env;
    report('claude-mcp-server-env', seen);
    assert.strictEqual(seen.MAX_MCP_OUTPUT_TOKENS, '12345');
    assert.strictEqual(seen.CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, '1');
  });
});
