import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { ScriptedModelApi } from '../fixtures/scriptedModel/scriptTypes';
import * as harness from './harness';
import { api, freshFile, numbered } from './helpers';
import { APPROVAL_HOOK, approveNext, ask, call, lastResults, scriptedModel, settings, steps, untilChatAnswers } from './chatTurns';

suite('@readgate chat participant', () => {
  let model: ScriptedModelApi;

  suiteSetup(async function () {
    this.timeout(120_000);
    await api();
    model = await scriptedModel();
    await settings().update('chat.additionalTools', ['readgate_test_listing'], vscode.ConfigurationTarget.Global);
    await untilChatAnswers();
  });

  suiteTeardown(async () => {
    await settings().update('chat.additionalTools', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    model.setScript(() => [{ text: 'idle' }]);
  });

  setup(async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });

  teardown(async () => {
    await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
  });

  test('a full loop: the model reads, edits with approval, and the chat shows the turn (screenshot)', async () => {
    await settings().update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
    const file = freshFile(numbered(5), '.ts');
    model.setScript(steps(
      () => call('readgate_read', { filePath: file }),
      () => call('readgate_edit', { filePath: file, oldString: 'line 2', newString: 'line two', explanation: 'spell out the number' }),
      () => [{ text: `Changed line 2 of ${path.basename(file)}.` }],
    ));
    const turn = await ask(`@readgate spell out line 2 of ${path.basename(file)}`, { whileRunning: approveNext });
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(5).replace('line 2', 'line two'));
    assert.ok(turn.sessionId.startsWith('chat-participant:'), turn.sessionId);
    assert.strictEqual(turn.result.metadata?.readgateSession, turn.sessionId);
    const offered = model.requests[0].tools;
    for (const name of ['readgate_read', 'readgate_edit', 'readgate_multiEdit', 'readgate_write', 'readgate_test_listing']) assert.ok(offered.includes(name), `${name} not offered: ${offered}`);
    assert.match(lastResults(model.requests[1])[0], /lines 1-5 of 5[\s\S]*2\tline 2/);
    assert.match(lastResults(model.requests[2])[0], /-line 2\n\+line two/);
    assert.strictEqual(model.requests.length, 3);
    if (harness.isAvailable) {
      await harness.waitFor('the answer in the chat view', async () => (await harness.workbenchTexts('.interactive-session')).some((text) => text.includes('Changed line 2')));
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.window.showTextDocument(vscode.Uri.file(file), { preserveFocus: true });
      await harness.click('.interactive-session >> text=/Completed \\d+ steps/').catch(() => undefined); // show the tool calls
      await new Promise((resolve) => setTimeout(resolve, 300));
      await harness.click('.interactive-session >> text=/Finished with \\d+ steps/').catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const transcript = (await harness.workbenchTexts('.interactive-session')).join('\n');
      // The tools' prepareInvocation messages name each call in the chat.
      assert.ok(transcript.includes(`Reading ${path.basename(file)}`) && transcript.includes(`Editing ${path.basename(file)}`), transcript);
      assert.ok(transcript.includes('Which files has this chat seen?'), `no /ledger follow-up after a turn that read files:\n${transcript}`);
      await harness.screenshot('chat-turn');
    }
  });

  test('an edit without a read is refused with EDIT_REQUIRES_PRIOR_READ and the model recovers by reading', async () => {
    const file = freshFile(numbered(4));
    model.setScript(steps(
      () => call('readgate_edit', { filePath: file, oldString: 'line 3', newString: 'three' }),
      () => call('readgate_read', { filePath: file }),
      () => call('readgate_edit', { filePath: file, oldString: 'line 3', newString: 'three' }),
    ));
    await ask('@readgate rename line 3');
    assert.match(lastResults(model.requests[1])[0], /^EDIT_REQUIRES_PRIOR_READ: /);
    assert.match(lastResults(model.requests[3])[0], /-line 3\n\+three/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(4).replace('line 3', 'three'));
  });

  test('a repeated read gets the placeholder, in the same turn and in a later turn of the same chat', async () => {
    const file = freshFile(numbered(8));
    model.setScript(steps(
      () => call('readgate_read', { filePath: file }),
      () => call('readgate_read', { filePath: file }),
    ));
    const first = await ask('@readgate read it twice');
    assert.match(lastResults(model.requests[1])[0], /1\tline 1/);
    assert.match(lastResults(model.requests[2])[0], /unchanged since your read/i);

    model.setScript(steps(() => call('readgate_read', { filePath: file })));
    const second = await ask('@readgate read it again');
    assert.strictEqual(second.sessionId, first.sessionId, 'a later turn of the same chat keeps its ledger');
    assert.match(lastResults(model.requests[1])[0], /unchanged since your read/i);
    // The placeholder is honest: the earlier content is replayed to the model from the first turn.
    const replayed = model.requests[0].messages.flatMap((message) => message.toolResults.map((result) => result.text));
    assert.ok(replayed.some((text) => /1\tline 1/.test(text)), 'the first turn\'s read is not in the second turn\'s context');
  });

  test('a new chat starts an empty ledger while the old chat\'s session keeps its own', async () => {
    const file = freshFile(numbered(6));
    model.setScript(steps(() => call('readgate_read', { filePath: file })));
    const old = await ask('@readgate read the file');
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    model.setScript(steps(() => call('readgate_read', { filePath: file })));
    const fresh = await ask('@readgate read the file');
    assert.notStrictEqual(fresh.sessionId, old.sessionId);
    assert.match(lastResults(model.requests[1])[0], /1\tline 1/, 'a new chat got a placeholder for what another chat read');
    assert.ok(!model.requests[0].messages.some((message) => message.toolResults.length > 0), 'the new chat replayed another chat\'s tool results');
    const readGate = await api();
    assert.strictEqual(await readGate.openSession({ id: old.sessionId }).check(file), 'fresh');
    assert.strictEqual(await readGate.openSession({ id: fresh.sessionId }).check(file), 'fresh');
  });

  test('when earlier tool output no longer fits the model, the chat forgets what it had seen rather than answer with placeholders', async () => {
    // A placeholder says "you already have these lines": false once the read that showed them left the context.
    const file = freshFile(numbered(600));
    model.setScript(steps(() => call('readgate_read', { filePath: file })));
    const first = await ask('@readgate read the whole file');
    await model.setMaxInputTokens(3_000); // ~6,750 characters for earlier turns: the ~7,800-character read no longer fits
    try {
      model.setScript(steps(() => call('readgate_read', { filePath: file })));
      const second = await ask('@readgate read it again');
      assert.strictEqual(second.sessionId, first.sessionId);
      const replayed = model.requests[0].messages.flatMap((message) => message.toolResults.map((result) => result.text));
      assert.ok(replayed.length === 1 && /no longer in the conversation/.test(replayed[0]), replayed.join('\n---\n').slice(0, 500));
      assert.match(lastResults(model.requests[1])[0], /1\tline 1\n/, 'a placeholder for content the model no longer has');
    } finally {
      await model.setMaxInputTokens(1_000_000);
    }
  });

  test('/ledger shows what this chat has seen and /forget clears it', async () => {
    const file = freshFile(numbered(12));
    model.setScript(steps(() => call('readgate_read', { filePath: file, offset: 3, limit: 4 })));
    const read = await ask('@readgate read a few lines');
    const ledger = await ask('@readgate /ledger');
    assert.strictEqual(ledger.result.metadata?.command, 'ledger');
    assert.strictEqual(ledger.sessionId, read.sessionId);
    if (harness.isAvailable) {
      await harness.waitFor('the ledger in the chat view', async () => (await harness.workbenchTexts('.interactive-session')).some((text) => text.includes(path.basename(file)) && text.includes('3–6')));
    }
    // A saved tool result older than 24 hours goes on /forget; a fresh one stays.
    const dir = await vscode.commands.executeCommand<string>('readgate._test.toolResults', {});
    fs.mkdirSync(dir, { recursive: true });
    const expired = path.join(dir, 'expired-call.txt');
    const recent = path.join(dir, 'recent-call.txt');
    fs.writeFileSync(expired, 'old output');
    fs.writeFileSync(recent, 'new output');
    const dayAndAHourAgo = new Date(Date.now() - 25 * 60 * 60 * 1000);
    fs.utimesSync(expired, dayAndAHourAgo, dayAndAHourAgo);
    const forget = await ask('@readgate /forget');
    assert.strictEqual(forget.sessionId, read.sessionId);
    assert.ok(!fs.existsSync(expired) && fs.existsSync(recent), 'expired tool results are removed on /forget, fresh ones kept');
    fs.rmSync(recent);
    assert.strictEqual(await (await api()).openSession({ id: read.sessionId }).check(file), 'unknown');
    model.setScript(steps(
      () => call('readgate_edit', { filePath: file, oldString: 'line 4', newString: 'four' }),
      () => call('readgate_read', { filePath: file, offset: 3, limit: 4 }),
    ));
    await ask('@readgate change line 4');
    assert.match(lastResults(model.requests[1])[0], /^EDIT_REQUIRES_PRIOR_READ: /);
    assert.match(lastResults(model.requests[2])[0], /4\tline 4/, 'after /forget a read must return content, not a placeholder');
    assert.ok(!model.requests[0].messages.some((message) => message.toolResults.length > 0), 'tool results from before /forget were replayed');
  });

  test('an oversized tool result is saved (mode 0600) behind a stub, and the model reads it back with readgate_read', async () => {
    let saved = '';
    model.setScript(steps(
      () => call('readgate_test_listing', { chars: 40_000 }),
      (request) => {
        saved = /path="([^"]+)"/.exec(lastResults(request)[0])?.[1] ?? '';
        return call('readgate_read', { filePath: saved, offset: 100, limit: 3 });
      },
    ));
    await ask('@readgate list everything');
    const stub = lastResults(model.requests[1])[0];
    assert.ok(stub.startsWith('<persisted-output') && stub.length < 3000, stub.slice(0, 200));
    assert.ok(saved && path.basename(saved).endsWith('.txt'), stub.slice(0, 300));
    assert.strictEqual(fs.statSync(saved).mode & 0o777, 0o600);
    assert.strictEqual(fs.readFileSync(saved, 'utf8').length, 40_000);
    assert.match(lastResults(model.requests[2])[0], /lines 100-102 of \d+[\s\S]*100\tsrc\/some\/deeply/);
    assert.strictEqual(model.listingCalls, 1);

    // ReadGate: Open Saved Tool Results lists it first (newest) and opens it.
    void vscode.commands.executeCommand('readgate.openToolResults');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    const opened = await harness.waitFor('the saved result in an editor', () => vscode.window.activeTextEditor?.document.uri.fsPath === saved || undefined);
    assert.ok(opened);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a tool the model was not offered never runs, whatever the model asks', async () => {
    // A tool outside the offer (one that writes files, say) would bypass the guard and the review.
    await settings().update('chat.additionalTools', [], vscode.ConfigurationTarget.Global);
    try {
      model.setScript(steps(() => call('readgate_test_listing', { chars: 10 })));
      await ask('@readgate list the files');
      assert.ok(!model.requests[0].tools.includes('readgate_test_listing'));
      assert.match(lastResults(model.requests[1])[0], /^ERROR: the tool readgate_test_listing is not available here/);
      assert.strictEqual(model.listingCalls, 0);
    } finally {
      await settings().update('chat.additionalTools', ['readgate_test_listing'], vscode.ConfigurationTarget.Global);
    }
  });

  test('the participant is contributed with a description, a sample request and its slash commands', () => {
    const contributed = vscode.extensions.getExtension('readgate.readgate')!.packageJSON.contributes.chatParticipants as { id: string; name: string; description: string; sampleRequest: string; commands: { name: string; description: string }[] }[];
    const participant = contributed.find((p) => p.id === 'readgate.chat');
    assert.ok(participant && participant.name === 'readgate' && participant.description && participant.sampleRequest);
    assert.deepStrictEqual(participant.commands.map((command) => command.name), ['ledger', 'forget']);
    assert.ok(participant.commands.every((command) => command.description.length > 10));
  });

  test('a result over the budget, or one that cannot be written, comes back as an honest preview-only stub', async () => {
    await vscode.commands.executeCommand('readgate._test.toolResults', { maxFileBytes: 30_000 });
    model.setScript(steps(() => call('readgate_test_listing', { chars: 40_000 })));
    await ask('@readgate list everything again');
    const overBudget = lastResults(model.requests[1])[0];
    await vscode.commands.executeCommand('readgate._test.toolResults', { maxFileBytes: 50 * 1024 * 1024 });
    assert.match(overBudget, /^<persisted-output chars="40000" kept="false">/);
    assert.match(overBudget, /NOT kept/);

    // The results folder replaced by a file: the write fails, and the stub says so.
    const dir = await vscode.commands.executeCommand<string>('readgate._test.toolResults', {});
    const aside = `${dir}.aside`;
    fs.mkdirSync(dir, { recursive: true });
    fs.renameSync(dir, aside);
    fs.writeFileSync(dir, 'not a folder');
    try {
      model.setScript(steps(() => call('readgate_test_listing', { chars: 40_000 })));
      await ask('@readgate list it once more');
    } finally {
      fs.rmSync(dir, { force: true });
      fs.renameSync(aside, dir);
    }
    const failed = lastResults(model.requests[1])[0];
    assert.match(failed, /kept="false"/);
    assert.match(failed, /Saving the full result failed \((ENOTDIR|EEXIST)\); it was truncated to this preview/);
  });

  test('cancelling the request withdraws a pending approval, writes nothing and stops the loop', async () => {
    await settings().update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
    const file = freshFile(numbered(3));
    model.setScript(steps(
      () => call('readgate_read', { filePath: file }),
      () => call('readgate_edit', { filePath: file, oldString: 'line 1', newString: 'one' }),
    ));
    const turn = await ask('@readgate change line 1', {
      whileRunning: async () => {
        await harness.waitFor('an approval request', async () => (await vscode.commands.executeCommand<unknown[]>(APPROVAL_HOOK, 'pending'))?.length);
        // The cancel action acts on the chat widget focused last.
        await vscode.commands.executeCommand('workbench.action.chat.focusInput');
        await vscode.commands.executeCommand('workbench.action.chat.cancel');
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.strictEqual(model.requests.length, 2, 'the loop went on after the cancellation');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3));
    assert.deepStrictEqual(await vscode.commands.executeCommand(APPROVAL_HOOK, 'pending'), []);
    assert.strictEqual(turn.result.metadata?.rounds.length, 2);
  });

  test('another chat agent (as Copilot agent mode calls the tools) gets results within readgate.tools.maxResultChars and no placeholder', async () => {
    const file = freshFile(Array.from({ length: 900 }, (_, i) => `row ${String(i + 1).padStart(4, '0')} ${'z'.repeat(90)}`).join('\n') + '\n');
    const read = { name: 'readgate_read', input: { filePath: file } };
    const line600 = fs.readFileSync(file, 'utf8').split('\n')[599];
    const edit = { name: 'readgate_edit', input: { filePath: file, oldString: line600, newString: 'changed' } };
    const before = model.otherResults.length;
    void vscode.commands.executeCommand('workbench.action.chat.open', { query: `@other ${JSON.stringify([read, read, edit])}` });
    const results = await harness.waitFor('the @other turn', () => model.otherResults[before], 60_000);
    assert.ok(results[0].text.length <= 8_000, `${results[0].text.length}`);
    assert.match(results[0].text.split('\n')[0], /cut by the size limit: next offset \d+/);
    assert.match(results[0].text, /Copilot agent mode writes a tool result over 8,192 characters to a file/);
    assert.doesNotMatch(results[1].text, /unchanged/, 'a subagent may share this chat session: no placeholders');
    assert.match(results[2].text, /^ERROR EDIT_OUTSIDE_SEEN_RANGE: /);
  });
});
