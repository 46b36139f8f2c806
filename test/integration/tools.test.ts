import * as assert from 'assert';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { api, freshFile, numbered, rejection, textOf, versionIn } from './helpers';

const invoke = (name: string, input: object, token?: vscode.CancellationToken) =>
  vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined }, token);

suite('language model tools', () => {
  suiteSetup(async () => {
    await api(); // activates the extension
  });

  test('all five tools are registered with the names of the contract', () => {
    const names = vscode.lm.tools.map((tool) => tool.name);
    for (const name of ['readgate_read', 'readgate_edit', 'readgate_multiEdit', 'readgate_write', 'readgate_applyPatch']) assert.ok(names.includes(name), `${name} missing`);
  });

  test('readgate_read returns numbered lines with the header', async () => {
    const file = freshFile(numbered(30));
    const text = textOf(await invoke('readgate_read', { filePath: file, offset: 10, limit: 3 }));
    assert.match(text, /lines 10-12 of 30 · \d+ bytes · version [0-9a-f]{16}/);
    assert.ok(text.includes('10\tline 10\n11\tline 11\n12\tline 12'), text);
  });

  test('a read stays within the tokenBudget VS Code passes (Copilot does), at four characters a token, and says where to continue', async () => {
    const file = freshFile(numbered(2_000));
    const tokenizationOptions = { tokenBudget: 1_000, countTokens: async (text: string) => Math.ceil(text.length / 4) };
    const text = textOf(await vscode.lm.invokeTool('readgate_read', { input: { filePath: file }, toolInvocationToken: undefined, tokenizationOptions }));
    assert.ok(Buffer.byteLength(text) <= 4_000, `${Buffer.byteLength(text)} characters for a 1,000-token budget`);
    assert.match(text.split('\n')[0], /cut by the size limit: next offset (\d+)/);
    assert.match(text, /the budget this call was given/);
    // Without a budget the same read is as long as the other caps allow.
    const whole = textOf(await invoke('readgate_read', { filePath: file }));
    assert.ok(whole.length > 4_000 && !/cut by/.test(whole.split('\n')[0]), whole.slice(0, 200));
    // A budget below what a read needs at least (a header and a line) is raised to that least, never refused.
    const tiny = textOf(await vscode.lm.invokeTool('readgate_read', { input: { filePath: file }, toolInvocationToken: undefined, tokenizationOptions: { ...tokenizationOptions, tokenBudget: 10 } }));
    assert.ok(Buffer.byteLength(tiny) <= 2_000 && /\tline 1\n/.test(tiny), tiny.slice(0, 300));
  });

  test('an edit of an unread file is refused with a message that starts with the code', async () => {
    const file = freshFile(numbered(5));
    const message = await rejection(invoke('readgate_edit', { filePath: file, oldString: 'line 2', newString: 'two' }));
    assert.match(message, /^EDIT_REQUIRES_PRIOR_READ: /);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(5));
  });

  test('read then edit round trip applies the change and returns the diff', async () => {
    const file = freshFile(numbered(5));
    const expectedVersion = versionIn(textOf(await invoke('readgate_read', { filePath: file })));
    const text = textOf(await invoke('readgate_edit', { filePath: file, oldString: 'line 2', newString: 'two', expectedVersion, explanation: 'test' }));
    assert.match(text, /-line 2\n\+two/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(5).replace('line 2', 'two'));
  });

  test('readgate_write creates a file and readgate_multiEdit changes two files at once', async () => {
    const a = freshFile('');
    fs.rmSync(a);
    const va = versionIn(textOf(await invoke('readgate_write', { filePath: a, content: 'alpha\n' })));
    const b = freshFile('beta\n');
    const vb = versionIn(textOf(await invoke('readgate_read', { filePath: b })));
    const text = textOf(await invoke('readgate_multiEdit', { edits: [{ filePath: a, oldString: 'alpha', newString: 'ALPHA', expectedVersion: va }, { filePath: b, oldString: 'beta', newString: 'BETA', expectedVersion: vb }] }));
    assert.match(text, /Edited 2 files/);
    assert.deepStrictEqual([fs.readFileSync(a, 'utf8'), fs.readFileSync(b, 'utf8')], ['ALPHA\n', 'BETA\n']);
  });

  test('input that does not match the schema is INVALID_INPUT', async () => {
    assert.match(await rejection(invoke('readgate_read', { filePath: 42 })), /^INVALID_INPUT: .*filePath/);
    assert.match(await rejection(invoke('readgate_multiEdit', { edits: [] })), /^INVALID_INPUT: /);
    assert.match(await rejection(invoke('readgate_edit', { filePath: 'a.txt', oldString: 'x' })), /^INVALID_INPUT: .*newString/);
  });

  // Cancellation in the middle of a call (during approval) is covered once the approval panel exists; the
  // guard's own abort handling is covered by the unit tests.
  test('a call cancelled before it runs writes nothing', async () => {
    const file = freshFile(numbered(3));
    const expectedVersion = versionIn(textOf(await invoke('readgate_read', { filePath: file })));
    const source = new vscode.CancellationTokenSource();
    source.cancel();
    assert.match(await rejection(invoke('readgate_edit', { filePath: file, oldString: 'line 1', newString: 'x', expectedVersion }, source.token)), /^(CANCELLED: .+|Canceled)$/s);
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3));
  });

  test('calls without a chat session stand alone: an edit names the version it read, and nothing piles up', async () => {
    const sessionIds = async () => (await vscode.commands.executeCommand<string[]>('readgate._test.sessionIds')) ?? [];
    const before = await sessionIds();
    const file = freshFile(numbered(4));
    const read = textOf(await invoke('readgate_read', { filePath: file }));
    // Never a placeholder: a call without a chat session cannot have seen anything.
    const again = textOf(await invoke('readgate_read', { filePath: file }));
    assert.ok(again.includes('1\tline 1'), again);
    // Another call's read unlocks nothing.
    const unnamed = await rejection(invoke('readgate_edit', { filePath: file, oldString: 'line 1', newString: 'one' }));
    assert.match(unnamed, /^EDIT_REQUIRES_PRIOR_READ: .*each call stands alone.*expectedVersion.*openSession/s);
    assert.match(await rejection(invoke('readgate_write', { filePath: file, content: 'x\n' })), /^EDIT_REQUIRES_PRIOR_READ: .*expectedVersion/s);
    assert.match(await rejection(invoke('readgate_multiEdit', { edits: [{ filePath: file, oldString: 'line 1', newString: 'one' }] })), /^EDIT_REQUIRES_PRIOR_READ: .*expectedVersion/s);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(4));
    // The version from the read authorizes exactly that version.
    const changed = textOf(await invoke('readgate_edit', { filePath: file, oldString: 'line 1', newString: 'one', expectedVersion: versionIn(read) }));
    const stale = await rejection(invoke('readgate_edit', { filePath: file, oldString: 'line 2', newString: 'two', expectedVersion: versionIn(read) }));
    assert.match(stale, /^FILE_CHANGED_SINCE_READ: .*expectedVersion/s);
    // A change's result names the new version, which authorizes the next change.
    textOf(await invoke('readgate_write', { filePath: file, content: 'done\n', expectedVersion: versionIn(changed) }));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'done\n');
    assert.deepStrictEqual((await sessionIds()).filter((id) => !before.includes(id)), [], 'one-call sessions were left behind');
    // Shown as a rendered preview; the command answers the report's Markdown.
    const statistics = (await vscode.commands.executeCommand<string>('readgate.showStatistics')) ?? '';
    assert.match(statistics, /\| Tool calls without a chat session \| \d+ \| 0 \|/, statistics);
    assert.doesNotMatch(statistics, /A tool call without a chat session/, statistics);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('paths outside the workspace are PATH_DENIED', async () => {
    assert.match(await rejection(invoke('readgate_read', { filePath: '/etc/hostname' })), /^PATH_DENIED: /);
  });
});
