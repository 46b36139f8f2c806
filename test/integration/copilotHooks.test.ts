/**
 * Copilot's default agent keeps its own tools (`read_file`, `replace_string_in_file`, `create_file`…) and ReadGate
 * judges each call through VS Code's agent hooks (`readgate.agentHooks.enabled`): the real Copilot Chat agent
 * loop on the scripted model, its real hook runner running ReadGate's hook from the extension's agent plugin.
 * Every assertion is about what the model received and what the disk holds, never about ReadGate's answers.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { disableNetworkBlock, enableCopilot, everyResultOf, type ModelRequest, newChat, resultsOf, runTurn, scriptedModel } from './copilotAgent';
import * as harness from './harness';
import { api, nextReview, REVIEW_HOOK, workspaceRoot } from './helpers';

const settings = () => vscode.workspace.getConfiguration('readgate');
const AGENT = 'agent';
const call = (name: string, input: object) => ({ toolCall: { name, input } });
const seen = (request: ModelRequest): number => request.messages.reduce((count, message) => count + message.toolResults.length, 0);
const numbered = (count: number, word = 'line'): string => Array.from({ length: count }, (_, i) => `${word} ${i + 1} of the file`).join('\n') + '\n';

let counter = 0;
const file = (content: string, name = 'hooked'): string => {
  const full = path.join(workspaceRoot(), `${name}-${process.pid}-${counter++}.txt`);
  fs.writeFileSync(full, content);
  return full;
};

/** A turn whose script plays `steps` in order, one per model request (a step may act on the disk first). */
function steps(...list: (() => { toolCall: { name: string; input: object } })[]): (request: ModelRequest) => { toolCall: { name: string; input: object } } | undefined {
  return (request) => {
    const done = seen(request);
    return done < list.length ? list[done]() : undefined;
  };
}

/** The log of Copilot's hook runner: every hook it ran, and anything it showed as a warning. */
function hooksLog(): string {
  const logs = path.join(process.env.READGATE_TEST_OUT ?? '', 'state', 'user-data', 'logs');
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'GitHub Copilot Chat Hooks.log') found.push(full);
    }
  };
  walk(logs);
  return found.map((log) => fs.readFileSync(log, 'utf8')).join('\n');
}

/**
 * Waits until Copilot's hook runner has finished the after-hook of the model's last tool call. Copilot does not
 * wait for an after-hook before it asks the model again, so a script that changes a file "a moment later" waits for
 * this first, as a person's change would come after it.
 */
async function afterHookDone(request: ModelRequest): Promise<void> {
  const callId = request.messages.flatMap((message) => message.toolCalls).at(-1)?.callId;
  if (!callId) return;
  for (let i = 0; i < 200; i++) {
    const log = hooksLog();
    const started = new RegExp(`\\[#(\\d+)\\] \\[PostToolUse\\] Input: .*"tool_use_id":"${callId}__vscode`).exec(log);
    if (started && new RegExp(`\\[#${started[1]}\\] \\[PostToolUse\\] Completed`).test(log)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the after-hook of ${callId} did not finish`);
}

async function enableHooks(on: boolean): Promise<void> {
  await settings().update('agentHooks.enabled', on, vscode.ConfigurationTarget.Global);
  // The plugin's `when` clause and the window's socket follow the setting a moment later.
  await new Promise((resolve) => setTimeout(resolve, 1500));
}

suite("Copilot's own tools under ReadGate's agent hooks (real agent loop, scripted model)", () => {
  suiteSetup(async function () {
    this.timeout(120_000);
    await api();
    await enableCopilot();
    await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    // Every hook input Copilot sends, kept beside the logs: what the adapter's unit tests are recorded from.
    if (process.env.READGATE_TEST_OUT) process.env.READGATE_HOOK_RECORD = path.join(process.env.READGATE_TEST_OUT, 'copilot-hook-inputs.jsonl');
    await enableHooks(true);
  });

  suiteTeardown(async () => {
    delete process.env.READGATE_HOOK_RECORD;
    await enableHooks(false);
    // A chat a test: the suites after this one find their own sessions in the Sessions view, not a screenful of these.
    await vscode.commands.executeCommand('readgate.forgetAllSessions');
    await disableNetworkBlock();
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar').then(undefined, () => undefined);
    await newChat();
  });

  setup(newChat);

  test('a read of lines 1-50, then an edit of line 5: applied by Copilot, and on record as its change', async function () {
    this.timeout(90_000);
    const target = file(numbered(300));
    const requests = await runTurn(
      'Change line 5.',
      AGENT,
      steps(
        () => call('read_file', { filePath: target, startLine: 1, endLine: 50 }),
        () => call('replace_string_in_file', { filePath: target, oldString: 'line 5 of the file\n', newString: 'line five\n', explanation: 'rename line 5' }),
      ),
    );
    const [edit] = resultsOf(requests, 'replace_string_in_file');
    assert.match(edit, /successfully edited/);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), numbered(300).replace('line 5 of the file\n', 'line five\n'));
    const history = await (await api()).history({ path: target });
    assert.strictEqual(history.length, 1, JSON.stringify(history));
    assert.strictEqual(history[0].tool, 'replace_string_in_file');
    assert.strictEqual(history[0].surface, 'hook');
    assert.match(history[0].label, /^Copilot chat /);
  });

  test('an edit of line 290, never shown: denied, the code in what the model received, the file unchanged', async function () {
    this.timeout(90_000);
    const target = file(numbered(300));
    const requests = await runTurn(
      'Change line 290.',
      AGENT,
      steps(
        () => call('read_file', { filePath: target, startLine: 1, endLine: 50 }),
        () => call('replace_string_in_file', { filePath: target, oldString: 'line 290 of the file', newString: 'CHANGED', explanation: 'x' }),
      ),
    );
    const [edit] = resultsOf(requests, 'replace_string_in_file');
    assert.match(edit, /EDIT_OUTSIDE_SEEN_RANGE/);
    assert.match(edit, /290/);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), numbered(300));
    if (harness.isAvailable) {
      // The chat as the user sees it: Copilot's tool call denied, with ReadGate's reason.
      await vscode.commands.executeCommand('workbench.action.chat.open');
      await harness.waitFor('the turn in the chat', async () => ((await harness.workbenchTexts('.interactive-session')).join('\n').includes('Done.') ? true : undefined));
      await harness.click('.interactive-session >> text=/Completed \\d+ steps/').catch(() => undefined); // show the tool calls
      await new Promise((resolve) => setTimeout(resolve, 500));
      await harness.screenshot('copilot-hooks-denied');
    }
  });

  test('the Sessions view lists the Copilot chat with what it read', async function () {
    if (!harness.isAvailable) this.skip();
    this.timeout(90_000);
    const target = file(numbered(20), 'listed');
    const name = path.basename(target);
    await runTurn('Read it.', AGENT, steps(() => call('read_file', { filePath: target, startLine: 1, endLine: 12 })));
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
    await vscode.commands.executeCommand('readgate.sessions.focus');
    await harness.sidebarWidth();
    const rows = async () => (await harness.workbenchTexts('.part.sidebar .monaco-list-row')).join('\n');
    await harness.waitFor('the chat and its file in the Sessions view', async () => ((await rows()).includes(name) ? true : undefined), 20_000);
    const shown = await rows();
    assert.match(shown, /Copilot chat [0-9a-f]{8}/);
    assert.match(shown, new RegExp(`${name.replace(/[.]/g, '\\.')}[\\s\\S]*1.12`));
    await harness.screenshot('copilot-hooks-sessions');
  });

  test("a seen line changed on disk after the read, then its edit: denied with the diff of the change, the other writer's byte kept", async function () {
    this.timeout(90_000);
    const target = file(numbered(10));
    const changed = numbered(10).replace('line 5 of the file', 'line 5 of the file!');
    const requests = await runTurn('Change line 5.', AGENT, async (request) => {
      const done = seen(request);
      if (done === 0) return call('read_file', { filePath: target, startLine: 1, endLine: 10 });
      if (done > 1) return undefined;
      await afterHookDone(request);
      fs.writeFileSync(target, changed);
      return call('replace_string_in_file', { filePath: target, oldString: 'line 5 of the file\n', newString: 'line five\n', explanation: 'x' });
    });
    const [edit] = resultsOf(requests, 'replace_string_in_file');
    assert.match(edit, /FILE_CHANGED_SINCE_READ/);
    assert.match(edit, /-line 5 of the file\n\+line 5 of the file!/);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), changed);
  });

  test('an old text not exactly in the file (a trailing space): denied, nothing written', async function () {
    this.timeout(90_000);
    const target = file(numbered(10));
    const requests = await runTurn(
      'Change line 6.',
      AGENT,
      steps(
        () => call('read_file', { filePath: target, startLine: 1, endLine: 10 }),
        () => call('replace_string_in_file', { filePath: target, oldString: 'line 6 of the file \n', newString: 'line six \n', explanation: 'x' }),
      ),
    );
    assert.match(resultsOf(requests, 'replace_string_in_file')[0], /NO_OCCURRENCE_FOUND/);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), numbered(10));
  });

  test('create_file over a file never read: denied; of a new file: applied and on record', async function () {
    this.timeout(90_000);
    const existing = file(numbered(5));
    const fresh = path.join(workspaceRoot(), `created-${process.pid}-${counter++}.txt`);
    const requests = await runTurn(
      'Write two files.',
      AGENT,
      steps(
        () => call('create_file', { filePath: existing, content: 'replaced\n' }),
        () => call('create_file', { filePath: fresh, content: 'a new file\n' }),
      ),
    );
    const [over, created] = resultsOf(requests, 'create_file');
    assert.match(over, /EDIT_REQUIRES_PRIOR_READ/);
    assert.strictEqual(fs.readFileSync(existing, 'utf8'), numbered(5));
    assert.match(created, /successfully edited/);
    assert.strictEqual(fs.readFileSync(fresh, 'utf8'), 'a new file\n');
    const [record] = await (await api()).history({ path: fresh });
    assert.strictEqual(record?.files[0].kind, 'create');
  });

  test("a line Copilot's read_file shortens is not seen: its edit is denied, the next line's allowed", async function () {
    this.timeout(90_000);
    const target = file(['short', 'x'.repeat(2500), 'after'].join('\n') + '\n');
    const requests = await runTurn(
      'Edit the long line.',
      AGENT,
      steps(
        () => call('read_file', { filePath: target, startLine: 1, endLine: 3 }),
        () => call('replace_string_in_file', { filePath: target, oldString: 'x'.repeat(2500), newString: 'y', explanation: 'x' }),
        () => call('replace_string_in_file', { filePath: target, oldString: 'after', newString: 'AFTER', explanation: 'y' }),
      ),
    );
    // What the model was shown: the long line cut at 2,000 characters.
    assert.match(resultsOf(requests, 'read_file')[0], /x{2000} \[truncated\]/);
    const [long, next] = resultsOf(requests, 'replace_string_in_file');
    assert.match(long, /EDIT_OUTSIDE_SEEN_RANGE/);
    assert.match(next, /successfully edited/);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), ['short', 'x'.repeat(2500), 'AFTER'].join('\n') + '\n');
  });

  test('a range Copilot cuts to fit the prompt counts only its first lines: an edit of a line the model never received is denied', async function () {
    this.timeout(120_000);
    const { setMaxInputTokens } = await scriptedModel();
    const target = file(Array.from({ length: 3000 }, (_, i) => `row ${i + 1} ${'z'.repeat(60)}`).join('\n') + '\n');
    await setMaxInputTokens(30_000);
    try {
      const requests = await runTurn(
        'Edit rows 5 and 2000.',
        AGENT,
        steps(
          () => call('read_file', { filePath: target, startLine: 1, endLine: 3000 }),
          () => call('replace_string_in_file', { filePath: target, oldString: `row 2000 ${'z'.repeat(60)}`, newString: 'row 2000 changed', explanation: 'x' }),
          () => call('replace_string_in_file', { filePath: target, oldString: `row 5 ${'z'.repeat(60)}`, newString: 'row 5 changed', explanation: 'y' }),
        ),
        { timeoutMs: 100_000 },
      );
      const [read] = resultsOf(requests, 'read_file');
      assert.match(read, /^row 1 z/);
      assert.doesNotMatch(read, /\nrow 2000 z/, 'Copilot showed the whole range: no cut to test');
      const [unseen, seenLine] = resultsOf(requests, 'replace_string_in_file');
      assert.match(unseen, /EDIT_OUTSIDE_SEEN_RANGE/);
      assert.match(seenLine, /successfully edited/);
    } finally {
      await setMaxInputTokens(1_000_000);
    }
  });

  test("Copilot reads an open editor's unsaved text, and so does ReadGate: an edit of a line as the buffer shows it is allowed", async function () {
    this.timeout(90_000);
    const target = file('disk one\ndisk two\n');
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target));
    await editor.edit((builder) => builder.replace(new vscode.Range(0, 0, 0, 8), 'buffer one'));
    try {
      const requests = await runTurn(
        'Edit line 1.',
        AGENT,
        steps(
          () => call('read_file', { filePath: target, startLine: 1, endLine: 2 }),
          () => call('replace_string_in_file', { filePath: target, oldString: 'buffer one', newString: 'agent one', explanation: 'x' }),
        ),
      );
      assert.match(resultsOf(requests, 'read_file')[0], /^buffer one\ndisk two/);
      assert.match(resultsOf(requests, 'replace_string_in_file')[0], /successfully edited/);
      assert.strictEqual(editor.document.getText(), 'agent one\ndisk two\n');
    } finally {
      if (editor.document.isDirty) await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  test('apply_patch (a GPT-family model): a hunk in seen lines is applied, a stale one denied with where it differs', async function () {
    this.timeout(90_000);
    const target = file('alpha\nbeta\ngamma\n');
    const patch = (context: string, to: string) => `*** Begin Patch\n*** Update File: ${target}\n@@\n ${context}\n-gamma\n+${to}\n*** End Patch`;
    const requests = await runTurn(
      'Patch it.',
      AGENT,
      steps(
        () => call('read_file', { filePath: target, startLine: 1, endLine: 3 }),
        () => call('apply_patch', { input: patch('BETA', 'never'), explanation: 'stale' }),
        () => call('apply_patch', { input: patch('beta', 'gamma two'), explanation: 'fresh' }),
      ),
      { model: 'scripted-gpt' },
    );
    assert.ok(requests.some((request) => request.tools.includes('apply_patch')), `apply_patch was not offered: ${requests[0]?.tools.join(', ')}`);
    const [stale, fresh] = resultsOf(requests, 'apply_patch');
    assert.match(stale, /denied[\s\S]*(NO_OCCURRENCE_FOUND|FILE_CHANGED_SINCE_READ|context)/i);
    assert.doesNotMatch(fresh, /denied/i, fresh);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), 'alpha\nbeta\ngamma two\n');
  });

  test('multi_replace_string_in_file (a Sonnet-family model): allowed only when every replacement is in seen lines', async function () {
    this.timeout(90_000);
    const target = file(numbered(300));
    const replace = (line: number) => ({ filePath: target, oldString: `line ${line} of the file\n`, newString: `line ${line} changed\n` });
    const requests = await runTurn(
      'Replace two lines.',
      AGENT,
      steps(
        () => call('read_file', { filePath: target, startLine: 1, endLine: 50 }),
        () => call('multi_replace_string_in_file', { explanation: 'x', replacements: [replace(3), replace(290)] }),
        () => call('multi_replace_string_in_file', { explanation: 'y', replacements: [replace(3), replace(4)] }),
      ),
      { model: 'scripted-sonnet' },
    );
    assert.ok(requests.some((request) => request.tools.includes('multi_replace_string_in_file')), `multi_replace was not offered: ${requests[0]?.tools.join(', ')}`);
    const [outside, inside] = resultsOf(requests, 'multi_replace_string_in_file');
    assert.match(outside, /EDIT_OUTSIDE_SEEN_RANGE/);
    assert.doesNotMatch(inside, /denied/i, inside);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), numbered(300).replace('line 3 of the file\n', 'line 3 changed\n').replace('line 4 of the file\n', 'line 4 changed\n'));
  });

  test("a subagent's edit of a line only its parent read: denied", async function () {
    this.timeout(120_000);
    const target = file(numbered(4));
    const marker = 'Subagent task 5a1d';
    const requests = await runTurn(
      'Read the file, then have a subagent change it.',
      AGENT,
      (request, { subagent }) => {
        const done = seen(request);
        if (subagent) return done === 0 ? call('replace_string_in_file', { filePath: target, oldString: 'line 2 of the file', newString: 'two', explanation: 'sub' }) : undefined;
        if (done === 0) return call('read_file', { filePath: target, startLine: 1, endLine: 4 });
        if (done === 1) return call('runSubagent', { prompt: `${marker}: change line 2.`, description: 'Change line 2' });
        return undefined;
      },
      { subagentMarker: marker },
    );
    const subagentEdits = requests.filter((request) => request.messages.some((message) => message.text.includes(marker))).flatMap((request) => resultsOf([request], 'replace_string_in_file'));
    assert.ok(subagentEdits.some((text) => /EDIT_REQUIRES_PRIOR_READ/.test(text)), JSON.stringify(subagentEdits));
    assert.strictEqual(fs.readFileSync(target, 'utf8'), numbered(4));
  });

  test("a read with ReadGate's own tool counts for Copilot's own edit in the same chat: one ledger per chat", async function () {
    this.timeout(90_000);
    const target = file(numbered(6));
    const requests = await runTurn(
      'Change line 3.',
      AGENT,
      steps(
        () => call('readgate_read', { filePath: target }),
        () => call('replace_string_in_file', { filePath: target, oldString: 'line 3 of the file', newString: 'three', explanation: 'x' }),
      ),
    );
    assert.match(resultsOf(requests, 'replace_string_in_file')[0], /successfully edited/);
    assert.strictEqual(fs.readFileSync(target, 'utf8'), numbered(6).replace('line 3 of the file', 'three'));
  });

  test("with review on, the hook waits for the panel: an approved change is applied, a rejected one denied with the user's reason", async function () {
    this.timeout(120_000);
    await settings().update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
    try {
      const target = file(numbered(4));
      const decide = (async () => {
        const first = await nextReview();
        assert.match(JSON.stringify(first.files), new RegExp(path.basename(target)));
        await vscode.commands.executeCommand(REVIEW_HOOK, 'message', { type: 'approve', id: first.id, revision: first.revision, rejectedHunks: {} });
        await new Promise((resolve) => setTimeout(resolve, 300));
        const second = await nextReview();
        await vscode.commands.executeCommand(REVIEW_HOOK, 'message', { type: 'reject', id: second.id, reason: 'not line 3' });
      })();
      const requests = await runTurn(
        'Change lines 2 and 3.',
        AGENT,
        steps(
          () => call('read_file', { filePath: target, startLine: 1, endLine: 4 }),
          () => call('replace_string_in_file', { filePath: target, oldString: 'line 2 of the file', newString: 'two', explanation: 'x' }),
          () => call('replace_string_in_file', { filePath: target, oldString: 'line 3 of the file', newString: 'three', explanation: 'y' }),
        ),
        { timeoutMs: 90_000 },
      );
      await decide;
      const [approved, rejected] = resultsOf(requests, 'replace_string_in_file');
      assert.match(approved, /successfully edited/);
      assert.match(rejected, /REJECTED_BY_USER[\s\S]*not line 3/);
      assert.strictEqual(fs.readFileSync(target, 'utf8'), numbered(4).replace('line 2 of the file', 'two'));
    } finally {
      await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    }
  });

  test('after the conversation is summarized, an edit needs a new read', async function () {
    this.timeout(180_000);
    const { setMaxInputTokens } = await scriptedModel();
    // Copilot's default agent offers many tools, so its prompt starts large: a context that holds it and a few reads.
    const big = file(Array.from({ length: 300 }, (_, i) => `filler ${i + 1} ${'y'.repeat(60)}`).join('\n') + '\n');
    const target = file(numbered(4));
    await setMaxInputTokens(60_000);
    try {
      // Counted here, not from the conversation: a summary takes earlier results out of it.
      let step = 0;
      let summarized = false;
      let results = 0;
      const edit = (line: number) => call('replace_string_in_file', { filePath: target, oldString: `line ${line} of the file`, newString: `edited ${line}`, explanation: 'x' });
      const requests = await runTurn(
        'Read, then edit after a summary.',
        AGENT,
        (request) => {
          // A summary takes the earlier results out of the conversation: fewer than the request before had.
          summarized ||= seen(request) < results;
          results = seen(request);
          if (step === 0) return (step++, call('read_file', { filePath: target, startLine: 1, endLine: 4 }));
          // Before the summary the read counts: line 1 may be edited.
          if (step === 1) return (step++, edit(1));
          if (!summarized && step < 40) return (step++, call('read_file', { filePath: big, startLine: 1, endLine: 300 }));
          if (step < 100) return ((step = 100), edit(2));
          return undefined;
        },
        { timeoutMs: 150_000 },
      );
      assert.ok(requests.some((request) => request.tools.length === 0 && /summar/i.test(request.messages.at(-1)?.text ?? '')), 'Copilot did not summarize');
      assert.match(hooksLog(), /\[PreCompact\] Executing/);
      const [before, after] = everyResultOf(requests, 'replace_string_in_file');
      assert.match(before ?? '', /successfully edited/);
      assert.match(after ?? '', /EDIT_REQUIRES_PRIOR_READ/);
      assert.strictEqual(fs.readFileSync(target, 'utf8'), numbered(4).replace('line 1 of the file', 'edited 1'));
    } finally {
      await setMaxInputTokens(1_000_000);
    }
  });

  test('with the setting off, nothing is judged: an edit of a line never shown goes through', async function () {
    this.timeout(90_000);
    await enableHooks(false);
    try {
      const target = file(numbered(300));
      const requests = await runTurn('Change line 290.', AGENT, steps(() => call('replace_string_in_file', { filePath: target, oldString: 'line 290 of the file', newString: 'CHANGED', explanation: 'x' })));
      assert.match(resultsOf(requests, 'replace_string_in_file')[0], /successfully edited/);
      assert.match(fs.readFileSync(target, 'utf8'), /CHANGED/);
    } finally {
      await enableHooks(true);
    }
  });

  test('with no ReadGate window to answer, the hook allows the call at once and Copilot shows no warning', async function () {
    this.timeout(90_000);
    const socket = process.env.READGATE_HOOK_SOCKET;
    // The hooks Copilot spawns from this extension host inherit its environment: point them at no window.
    process.env.READGATE_HOOK_SOCKET = path.join(workspaceRoot(), 'no-window.sock');
    const before = hooksLog().length;
    try {
      const target = file(numbered(300));
      const started = Date.now();
      const requests = await runTurn('Change line 290.', AGENT, steps(() => call('replace_string_in_file', { filePath: target, oldString: 'line 290 of the file', newString: 'CHANGED', explanation: 'x' })));
      assert.match(resultsOf(requests, 'replace_string_in_file')[0], /successfully edited/);
      assert.ok(Date.now() - started < 30_000);
      const log = hooksLog().slice(before);
      assert.match(log, /\[PreToolUse\] Completed \(Success\)/);
      assert.doesNotMatch(log, /NonBlockingError|non-JSON output|timed out/);
    } finally {
      process.env.READGATE_HOOK_SOCKET = socket;
    }
  });
});
