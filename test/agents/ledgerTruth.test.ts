/**
 * The ledger matches what the agent really holds, as seen from the model's side when Claude Code or Qwen Code
 * drives ReadGate (SPEC section 3). They assert only what the CLI sent back to the model, never ReadGate's own
 * return values. Each failed before ReadGate had result budgets and kept placeholders off for MCP clients.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { makeTempDir } from '../unit/helpers/tempDir';
import { type AgentCli, ensureAgentCli } from './install';
import { clientPolicy } from '../../src/mcp/index';
import { compare } from './measure';
import { describeCall, isPlaceholder, refusalCode, wasShownBefore } from './modelView';
import { readgateText } from './readgateReference';
import { report } from './report';
import { type AgentRun, runAgent } from './runAgent';
import { byContext, call, say, steps } from './script';
import { numberedLine, numberedLines } from './textFiles';

/** The CLIs these scenarios were written for (Codex has its own tests: codexFacts, codexContexts). */
type Cli = Extract<AgentCli, 'claude' | 'qwen'>;
const CLIS: Cli[] = ['claude', 'qwen'];
const NAMES: Record<Cli, string> = { claude: 'Claude Code', qwen: 'Qwen Code' };
const SUBAGENT_TOOL: Record<Cli, string> = { claude: 'Agent', qwen: 'agent' };
/** The names the CLIs give in MCP's initialize, which choose ReadGate's budget (the server is named readgate). */
const CLIENT_NAMES: Record<Cli, string> = { claude: 'claude-code', qwen: 'qwen-cli-mcp-client-readgate' };

suiteSetup(function () {
  this.timeout(600_000);
  for (const cli of CLIS) ensureAgentCli(cli);
});

// Claude Code shows a result over 50,000 characters as a 2 KB preview, Qwen Code one over 28,000 characters as
// a 2,000-character preview (claudeResultSize.test.ts, qwenResultSize.test.ts), and ReadGate recorded every line
// it returned as seen: a re-read got the "unchanged" placeholder for lines the model never had, and an edit of
// such a line was applied. Now each result stays within what the client shows.
for (const cli of CLIS) {suite(`${NAMES[cli]} reads a 900-line file whole, reads it again, then edits line 600`, () => {
  const line600 = numberedLine(600, 99);
  let root: string;
  let run: AgentRun;
  /** ReadGate's own text for the two reads, with this client's budget (made before the temp folder goes). */
  let references: string[];
  suiteSetup(async function () {
    this.timeout(300_000);
    root = makeTempDir('readgate-agents-');
    fs.writeFileSync(path.join(root, 'big.py'), numberedLines(900, 99));
    run = await runAgent({
      cli,
      cwd: root,
      prompt: 'Change line 600 of big.py.',
      script: steps([
        call('readgate_read', { filePath: 'big.py' }),
        call('readgate_read', { filePath: 'big.py' }),
        call('readgate_edit', { filePath: 'big.py', oldString: line600, newString: `${line600} # edited` }),
        say('Done.'),
      ]),
    });
    assert.deepStrictEqual(run.scriptErrors, []);
    report(`${cli}-900-lines`, run.toolResults.map((record) => describeCall(record)));
    const budget = clientPolicy(CLIENT_NAMES[cli]).budget;
    references = [await readgateText(root, 'big.py', {}, 1, budget), await readgateText(root, 'big.py', {}, 2, budget)];
  });

  test('each read reaches the model whole: ReadGate cut it, at a line, within what this client shows', async () => {
    const [first, second] = run.toolResults;
    for (const [record, number] of [[first, 1], [second, 2]] as const) {
      const shown = compare(references[number - 1], record.result);
      assert.strictEqual(shown.as, 'whole', `read ${number} reached the model as "${shown.as}" (${shown.shownChars} of ${shown.resultChars} characters)`);
      assert.match(record.result?.text.split('\n')[0] ?? '', /lines 1-\d+ of 900, cut by the size limit: next offset \d+/);
    }
  });

  test('the model is never shown an "unchanged" placeholder for content it was not shown whole', async () => {
    const [first, second] = run.toolResults;
    const shown = compare(references[0], first.result);
    if (isPlaceholder(second)) assert.strictEqual(shown.as, 'whole', `the first read reached the model as "${shown.as}" (${shown.shownChars} of ${shown.resultChars} characters), yet the second read was the placeholder: ${describeCall(second)}`);
  });

  test('an edit of line 600, which the model was never shown, is refused with EDIT_OUTSIDE_SEEN_RANGE', () => {
    const edit = run.toolResults[2];
    assert.ok(!wasShownBefore(run.toolResults, edit, line600), 'line 600 did reach the model: this scenario no longer tests an unseen line');
    assert.strictEqual(refusalCode(edit), 'EDIT_OUTSIDE_SEEN_RANGE', describeCall(edit));
  });
});}

// The CLI starts one ReadGate server per MCP configuration and sends the main agent's and every subagent's
// calls through it, so ReadGate keeps one ledger for all of them: after a subagent read a file, the main
// agent's first read of it is the placeholder for content only the subagent saw.
for (const cli of CLIS) {suite(`${NAMES[cli]}: a subagent reads app.py, then the main agent reads it`, () => {
  const SUBAGENT_PROMPT = 'Subagent task 7f3a: read app.py with readgate_read and report what it does.';
  let run: AgentRun;
  suiteSetup(async function () {
    this.timeout(300_000);
    const root = makeTempDir('readgate-agents-');
    fs.writeFileSync(path.join(root, 'app.py'), 'def main():\n    print("hello")\n');
    run = await runAgent({
      cli,
      cwd: root,
      prompt: 'Have a subagent look at app.py, then read it yourself.',
      script: byContext(
        steps([
          call(SUBAGENT_TOOL[cli], { description: 'Read app.py', prompt: SUBAGENT_PROMPT, subagent_type: 'general-purpose', run_in_background: false }),
          call('readgate_read', { filePath: 'app.py' }),
          say('Done.'),
        ]),
        { 'Subagent task 7f3a': steps([call('readgate_read', { filePath: 'app.py' }), say('app.py prints hello.')]) },
      ),
    });
    assert.deepStrictEqual(run.scriptErrors, []);
    report(`${cli}-subagent`, run.toolResults.map((record) => describeCall(record)));
  });

  test("the main agent's own first read of app.py is the content, not an \"unchanged\" placeholder", () => {
    const subagentRead = run.toolResults.find((record) => record.tool === 'readgate_read' && record.context.kind === 'subagent');
    assert.match(subagentRead?.result?.text ?? '', /print\("hello"\)/, `the subagent was not shown app.py: ${describeCall(subagentRead)}`);
    const mainRead = run.toolResults.find((record) => record.tool === 'readgate_read' && record.context.kind === 'main');
    assert.ok(mainRead, `the main agent made no read: ${run.toolResults.map(describeCall).join('\n')}`);
    assert.ok(!isPlaceholder(mainRead), describeCall(mainRead));
    assert.match(mainRead.result?.text ?? '', /print\("hello"\)/, describeCall(mainRead));
  });
});}
