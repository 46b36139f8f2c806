/**
 * How much of a readgate_read result Qwen Code shows the model (the Qwen side of claudeResultSize.test.ts).
 * Qwen Code saves an MCP tool result longer than its `tools.truncateToolOutputThreshold` setting (25,000 by
 * default) plus 3,000 characters of headroom to a file and shows the model a `<persisted-output>` notice with
 * the first 2,000 characters (the head only). Its own read_file is exempt; MCP tools are not. They pass
 * today: they describe the CLI. Every run writes its numbers to test-results/agents/.
 */
import * as assert from 'assert';
import { ensureAgentCli } from './install';
import { bisect, readSizes } from './measure';
import { report } from './report';

const HEADROOM = 3_000;
const DEFAULT_THRESHOLD = 25_000;

suite('Qwen Code: how much of a readgate_read result the model is shown', () => {
  suiteSetup(function () {
    this.timeout(600_000);
    ensureAgentCli('qwen');
  });

  test('a result of about 10K characters is shown whole; 30K, 49K, 51K, 60K and 100K become a 2,000-character preview', async () => {
    const shown = await readSizes('qwen', [10_000, 30_000, 49_000, 51_000, 60_000, 100_000]);
    report('qwen-result-sizes', shown);
    assert.deepStrictEqual(shown.map((row) => row.as), ['whole', 'preview', 'preview', 'preview', 'preview', 'preview']);
    for (const row of shown.filter((r) => r.as === 'preview')) assert.ok(row.shownChars < 2_600, JSON.stringify(row));
  });

  test(`a result is shown whole up to exactly ${(DEFAULT_THRESHOLD + HEADROOM).toLocaleString('en')} characters of text, whatever its lines and bytes`, async () => {
    const rows = await bisect('qwen', [{ width: 99 }, { width: 39 }, { width: 39, filler: 'é' }], { low: 1_000, high: 90_000 });
    report('qwen-result-threshold', rows);
    for (const row of rows) {
      assert.strictEqual(row.below.resultChars, DEFAULT_THRESHOLD + HEADROOM, JSON.stringify(row));
      assert.strictEqual(row.above.as, 'preview');
    }
  });

  test('tools.truncateToolOutputThreshold=10000 moves the limit to 13,000 characters', async () => {
    const rows = await bisect('qwen', [{ width: 99 }], { low: 1_000, high: 40_000 }, { settings: { tools: { truncateToolOutputThreshold: 10_000 } } });
    report('qwen-result-threshold-10000', rows);
    assert.strictEqual(rows[0].below.resultChars, 10_000 + HEADROOM, JSON.stringify(rows[0]));
  });
});
