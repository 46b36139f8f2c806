/**
 * GitHub Copilot Chat's real agent loop (built into the bundled VS Code, signed out, offline) drives ReadGate's
 * guarded agent on the scripted model; every assertion is about what the model received (copilotAgent.ts).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { agentRequests, disableNetworkBlock, enableCopilot, type ModelRequest, newChat, resultsOf, runTurn, scriptedModel } from './copilotAgent';
import * as harness from './harness';
import { api, nextReview, REVIEW_HOOK, warmTypeScript, workspaceRoot } from './helpers';

const settings = () => vscode.workspace.getConfiguration('readgate');
const AGENT = 'ReadGate';
const READGATE_TOOLS = ['readgate_read', 'readgate_edit', 'readgate_multiEdit', 'readgate_write', 'readgate_applyPatch'];
/** Tools that read, write or run outside ReadGate: the guarded agent must offer none of them. */
const UNGUARDED = /^(read_file|create_file|create_directory|replace_string_in_file|multi_replace_string_in_file|insert_edit_into_file|apply_patch|edit_notebook_file|create_new_jupyter_notebook|run_in_terminal|send_to_terminal|create_and_run_task|run_vscode_command|run_notebook_cell|get_terminal_output|kill_terminal|install_extension|copilot_searchCodebase|view_image|fetch_webpage)$/;

const file = (name: string, content: string): string => {
  const full = path.join(workspaceRoot(), name);
  fs.writeFileSync(full, content);
  return full;
};

const call = (name: string, input: object) => ({ toolCall: { name, input } });
/** How many results of the main agent's conversation the model has seen so far. */
const seen = (request: ModelRequest): number => request.messages.reduce((count, message) => count + message.toolResults.length, 0);

suite('GitHub Copilot agent mode through ReadGate (real agent loop, scripted model)', () => {
  let copilotVersion = '';

  suiteSetup(async function () {
    this.timeout(120_000);
    await api();
    copilotVersion = await enableCopilot();
    await warmTypeScript();
    await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    // Another suite may have written the guarded agent already: the command would ask before replacing it.
    fs.rmSync(path.join(workspaceRoot(), '.github', 'agents', 'readgate.agent.md'), { force: true });
    await vscode.commands.executeCommand('readgate.createGuardedAgent');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // VS Code picks up a new custom agent file a moment after it is written: wait until the mode offers its tools.
    for (let attempt = 0; attempt < 20; attempt++) {
      await newChat();
      const requests = await runTurn('Which tools do you have?', AGENT, () => undefined);
      if (agentRequests(requests).every((request) => request.tools.length < 20)) break;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  });

  suiteTeardown(async () => {
    await disableNetworkBlock();
    // Give the next suites the workbench they expect: no chat beside the editors.
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    await newChat();
  });

  setup(newChat);

  test(`the guarded agent offers the model ReadGate's five tools and search, and no tool that reads, writes or runs outside ReadGate (Copilot Chat)`, async function () {
    this.timeout(90_000);
    const requests = await runTurn('List your tools.', AGENT, () => undefined);
    const tools = agentRequests(requests)[0]?.tools ?? [];
    // Kept beside the screenshots: what the real Copilot offers the model, for the README's Copilot rows.
    if (process.env.READGATE_TEST_OUT) fs.writeFileSync(path.join(process.env.READGATE_TEST_OUT, 'copilot-guarded-agent-tools.json'), JSON.stringify({ copilot: copilotVersion, vscode: vscode.version, tools }, null, 2));
    for (const name of READGATE_TOOLS) assert.ok(tools.includes(name), `${name} missing from ${tools.join(', ')}`);
    assert.deepStrictEqual(tools.filter((name) => UNGUARDED.test(name)), [], tools.join(', '));
    for (const name of ['file_search', 'grep_search', 'list_dir']) assert.ok(tools.includes(name), `${name} missing from ${tools.join(', ')}`);
  });

  test('read and edit through the guarded agent, the edit reviewed in the panel: the model receives the lines, then the applied change (screenshot)', async function () {
    this.timeout(90_000);
    await settings().update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
    const target = file('pricing.ts', 'export const price: number = 10;\nexport const tax = 2;\n');
    const reviewed = (async () => {
      const review = await nextReview();
      // The guarded agent's turn waits for the review: the chat and the panel side by side.
      if (harness.isAvailable) await harness.screenshot('copilot-guarded-agent-review');
      await vscode.commands.executeCommand(REVIEW_HOOK, 'message', { type: 'approve', id: review.id, revision: review.revision, rejectedHunks: {} });
      return review;
    })();
    try {
      const requests = await runTurn('Raise the price to 12 in pricing.ts.', AGENT, (request) => {
        const done = seen(request);
        if (done === 0) return call('readgate_read', { filePath: target });
        if (done === 1) return call('readgate_edit', { filePath: target, oldString: 'price: number = 10', newString: 'price: number = 12' });
        return undefined;
      });
      const review = await reviewed;
      assert.match(JSON.stringify(review), /pricing\.ts/);
      const [read] = resultsOf(requests, 'readgate_read');
      assert.match(read, /lines 1-2 of 2 .*\n1\texport const price: number = 10;/);
      const [edit] = resultsOf(requests, 'readgate_edit');
      assert.match(edit, /^Edited .*pricing\.ts/);
      assert.match(edit, /Problems after this change:\n.*no new problems \(TypeScript checked it\)/);
      assert.strictEqual(fs.readFileSync(target, 'utf8'), 'export const price: number = 12;\nexport const tax = 2;\n');
      if (harness.isAvailable) {
        await vscode.commands.executeCommand('workbench.action.chat.open');
        await harness.screenshot('copilot-guarded-agent-turn');
      }
    } finally {
      await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    }
  });

  test('a stale edit is refused with what changed, and the corrected retry is applied', async function () {
    this.timeout(90_000);
    const target = file('stale.ts', 'export const a = 1;\nexport const b = 2;\n');
    const requests = await runTurn('Set b to 3 in stale.ts.', AGENT, (request) => {
      const done = seen(request);
      if (done === 0) return call('readgate_read', { filePath: target });
      if (done === 1) {
        fs.writeFileSync(target, 'export const a = 1;\nexport const b = 20;\n'); // someone else changes line 2
        return call('readgate_edit', { filePath: target, oldString: 'b = 2;', newString: 'b = 3;' });
      }
      if (done === 2) return call('readgate_edit', { filePath: target, oldString: 'b = 20;', newString: 'b = 3;' });
      return undefined;
    });
    const [refused, retried] = resultsOf(requests, 'readgate_edit');
    assert.match(refused, /FILE_CHANGED_SINCE_READ/);
    assert.match(refused, /-export const b = 2;\n\+export const b = 20;/);
    assert.match(retried, /^Edited /);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), 'export const a = 1;\nexport const b = 3;\n');
  });

  test('a read whose result would exceed 8,192 characters reaches the model bounded, with the next offset, never as a path to a copy', async function () {
    this.timeout(90_000);
    const target = file('long.txt', Array.from({ length: 2000 }, (_, i) => `row ${i + 1} ${'x'.repeat(40)}`).join('\n') + '\n');
    const requests = await runTurn('Read long.txt.', AGENT, (request) => (seen(request) === 0 ? call('readgate_read', { filePath: target }) : undefined));
    const [read] = resultsOf(requests, 'readgate_read');
    assert.ok(read.length <= 8_192, `${read.length} characters`);
    assert.match(read.split('\n')[0], /cut by the size limit: next offset \d+/);
    assert.match(read, /\n\s*1\trow 1 x/);
    assert.doesNotMatch(read, /persisted|written to|saved to/i);
  });

  test('a subagent (runSubagent) reads in a ledger of its own: the parent cannot edit lines only the subagent saw, and no read is a placeholder', async function () {
    this.timeout(120_000);
    const target = file('sub.ts', 'export const one = 1;\nexport const two = 2;\n');
    const marker = 'Subagent task 41c7';
    const requests = await runTurn(
      'Have a subagent read sub.ts, then change two.',
      AGENT,
      (request, { subagent }) => {
        const done = seen(request);
        if (subagent) return done === 0 ? call('readgate_read', { filePath: target }) : undefined;
        if (done === 0) return call('runSubagent', { prompt: `${marker}: read sub.ts with readgate_read and report.`, description: 'Read sub.ts' });
        if (done === 1) return call('readgate_edit', { filePath: target, oldString: 'two = 2;', newString: 'two = 22;' });
        return undefined;
      },
      { subagentMarker: marker },
    );
    const subagentRead = requests.filter((request) => request.messages.some((message) => message.text.includes(marker))).flatMap((request) => resultsOf([request], 'readgate_read'));
    assert.ok(subagentRead.some((text) => /export const two = 2;/.test(text)), `the subagent was not shown sub.ts: ${JSON.stringify(subagentRead)}`);
    const [edit] = resultsOf(requests, 'readgate_edit');
    assert.match(edit, /EDIT_REQUIRES_PRIOR_READ/, edit);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), 'export const one = 1;\nexport const two = 2;\n');
    for (const request of requests) for (const message of request.messages) for (const result of message.toolResults) assert.doesNotMatch(result.text, /are unchanged since your read/);
  });

  test('past the summarization threshold, the model is shown content again: nothing it no longer holds is claimed as held', async function () {
    this.timeout(180_000);
    const { setMaxInputTokens } = await scriptedModel();
    const target = file('summary.txt', Array.from({ length: 60 }, (_, i) => `line ${i + 1} ${'y'.repeat(60)}`).join('\n') + '\n');
    // A small context: Copilot summarizes the conversation once its prompt nears it.
    await setMaxInputTokens(12_000);
    try {
      // Counted here, not from the conversation: a summary takes earlier results out of it.
      let reads = 0;
      const requests = await runTurn('Read summary.txt again and again.', AGENT, () => (reads < 12 ? call('readgate_read', { filePath: target, force: reads++ % 2 === 1 }) : undefined), { timeoutMs: 150_000 });
      const summarized = requests.some((request) => request.tools.length === 0 && /summar/i.test(request.messages.at(-1)?.text ?? ''));
      assert.ok(summarized, `Copilot did not summarize: ${requests.length} requests`);
      for (const request of requests) for (const message of request.messages) for (const result of message.toolResults) assert.doesNotMatch(result.text, /unchanged since your read|only what changed since/);
      const after = agentRequests(requests).at(-1)!;
      assert.ok(after.messages.some((message) => message.toolResults.some((result) => /\tline 1 y/.test(result.text))), 'the read after the summary is not content');
    } finally {
      await setMaxInputTokens(1_000_000);
    }
  });
});
