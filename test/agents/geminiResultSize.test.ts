/**
 * How much of a long MCP text result Gemini CLI shows the model (the Gemini side of claudeResultSize.test.ts
 * and qwenResultSize.test.ts). Gemini CLI wraps each text of an MCP result in `<untrusted_context>\n…\n
 * </untrusted_context>` (41 characters), and when a result is one text longer than its limit, min(40,000,
 * four characters for each token left in its context window), it saves the whole to a file and shows the
 * model a line naming that file, the first fifth of the limit, "... [N characters omitted] ...", and the last
 * four fifths, both counted in the wrapped text and cut wherever they fall. The context part cannot be seen
 * from outside (it follows the prompt size the model last reported), so these runs keep it far away and
 * measure the 40,000. They pass today: they describe the CLI. Every run writes its numbers to
 * test-results/agents/.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { clientPolicy } from '../../src/mcp/index';
import { ensureAgentCli } from './install';
import { readgateText } from './readgateReference';
import { report } from './report';
import { type AgentRun, readgateServer, runAgent } from './runAgent';
import { call, say, steps } from './script';
import { fileOfSize } from './textFiles';
import { textOfLength } from './textServer';

const LIMIT = 40_000;
const HEAD = 8_000;
const TAIL = 32_000;
const wrapped = (text: string): string => `<untrusted_context>\n${text}\n</untrusted_context>`;
/** The longest text Gemini CLI passes whole: the limit less its wrapper. */
const WHOLE_UP_TO = LIMIT - wrapped('').length;

const textServer = () => ({ command: process.execPath, args: [path.join(__dirname, 'textServer.js')] });
const ASKS: { length: number; kind?: 'lines' | 'utf8' }[] = [{ length: WHOLE_UP_TO }, { length: WHOLE_UP_TO + 1 }, { length: 60_000 }, { length: WHOLE_UP_TO, kind: 'utf8' }, { length: WHOLE_UP_TO + 1, kind: 'utf8' }];
/** The notice Gemini CLI puts before a cut result, naming the file that holds it whole. */
const NOTICE = /^Output too large\. Showing first 8,000 and last 32,000 characters\. For full output see: (\S+)\n/;

suite('Gemini CLI: how much of a long MCP result the model is shown', () => {
  let run: AgentRun;
  let root: string;

  suiteSetup(async function () {
    this.timeout(600_000);
    ensureAgentCli('gemini');
    // Not makeTempDir's: those go after each test, and the reference read needs the file.
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'readgate-gemini-')));
    fs.writeFileSync(path.join(root, 'big.txt'), fileOfSize(100_000, 99));
    const script = steps([...ASKS.map((ask) => call('text', { ...ask })), call('readgate_read', { filePath: 'big.txt' }), say('Done.')]);
    run = await runAgent({ cli: 'gemini', cwd: root, prompt: 'Fetch the texts, then read big.txt.', mcpServers: { text: textServer(), readgate: readgateServer(root) }, script, keepHome: true, timeoutMs: 120_000 });
    assert.deepStrictEqual(run.scriptErrors, []);
    assert.strictEqual(run.exitCode, 0, run.stderr);
  });

  suiteTeardown(() => {
    for (const dir of [run?.home, root]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  test(`a text result is whole while, wrapped in <untrusted_context>, it is at most ${LIMIT.toLocaleString('en')} characters (${WHOLE_UP_TO.toLocaleString('en')} of text, whatever its bytes); a longer one becomes its first ${HEAD.toLocaleString('en')} and last ${TAIL.toLocaleString('en')} characters, wrapper included, cut mid-line`, () => {
    const rows = ASKS.map((ask, i) => {
      const text = textOfLength(ask.length, ask.kind);
      const shown = run.toolResults[i].result?.text ?? '';
      const file = NOTICE.exec(shown)?.[1];
      return { ask, text, shown, file, row: { ...ask, bytes: Buffer.byteLength(text), shownChars: shown.length, whole: shown === wrapped(text), cut: !!file } };
    });
    report('gemini-result-sizes', rows.map((each) => each.row));
    assert.deepStrictEqual(rows.map((each) => each.row.whole), [true, false, false, true, false]);
    for (const { ask, text, shown, file } of rows.filter((each) => !each.row.whole)) {
      const all = wrapped(text);
      assert.ok(file, shown.slice(0, 300));
      assert.strictEqual(shown, `${NOTICE.exec(shown)![0]}${all.slice(0, HEAD)}\n\n... [${(all.length - HEAD - TAIL).toLocaleString('en')} characters omitted] ...\n\n${all.slice(-TAIL)}`, JSON.stringify(ask));
      assert.strictEqual(fs.readFileSync(file, 'utf8'), all, 'the file holds the whole wrapped result');
      if (ask.kind !== 'utf8') assert.ok(!all.slice(0, HEAD).endsWith('\n') && !all.slice(-TAIL - 1).startsWith('\n'), 'cut at a line end');
    }
  });

  test('ReadGate\'s read of a 100,000-character file stops at its 30,000-character budget for Gemini CLI and reaches the model whole', async () => {
    const budget = clientPolicy('gemini-cli-mcp-client', { howToRaise: 'the server\'s --max-read-chars option' }).budget;
    assert.strictEqual(budget.maxChars, 30_000);
    const reference = await readgateText(root, 'big.txt', {}, 1, budget);
    const shown = run.toolResults[ASKS.length].result?.text ?? '';
    report('gemini-readgate-read', { budget: budget.maxChars, resultChars: reference.length, shownChars: shown.length, whole: shown === wrapped(reference) });
    // ReadGate stops at a line and says so in its header; its 30,000 stay under the 39,959 Gemini CLI passes whole.
    assert.ok(reference.length <= budget.maxChars, String(reference.length));
    assert.match(reference.split('\n')[0], /· lines 1-\d+ of 1000, cut by the size limit: next offset \d+ ·/);
    assert.strictEqual(shown, wrapped(reference));
  });
});
