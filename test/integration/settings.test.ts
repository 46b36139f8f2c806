import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { waitFor } from './harness';
import { api, freshFile, numbered, workspaceRoot } from './helpers';

async function setting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('readgate').update(key, value, vscode.ConfigurationTarget.Global);
}

const APPROVAL_HOOK = 'readgate._test.approval';
const pending = async () => (await vscode.commands.executeCommand<{ id: string }[]>(APPROVAL_HOOK, 'pending')) ?? [];

/** Writes the workspace's own .vscode/settings.json (what a cloned repository brings) and waits until VS Code read it. */
async function repositorySettings(values: Record<string, unknown> | undefined): Promise<void> {
  const file = path.join(workspaceRoot(), '.vscode', 'settings.json');
  if (values === undefined) {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    await waitFor('the workspace settings to go away', () => vscode.workspace.getConfiguration('readgate').inspect('read.maxLines')?.workspaceValue === undefined || undefined);
    return;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ 'readgate.read.maxLines': 1999, ...values }, null, 2));
  await waitFor('the workspace settings to be read', () => vscode.workspace.getConfiguration('readgate').inspect('read.maxLines')?.workspaceValue === 1999 || undefined);
}

suite('settings apply live', () => {
  teardown(async () => {
    await setting('read.maxLines', undefined);
    await setting('read.maxBytes', undefined);
    await setting('read.maxLineLength', undefined);
    await setting('edit.maxFileSizeMB', undefined);
    await setting('paths.deny', undefined);
    await setting('read.dedup', undefined);
    await setting('approval.mode', 'never');
    await repositorySettings(undefined);
  });

  test('read caps, deny globs and dedup change without a reload', async () => {
    const readGate = await api();
    const session = readGate.openSession();
    const file = freshFile(numbered(20));
    await setting('read.maxLines', 5);
    const capped = await session.read(file);
    assert.ok(capped.text?.includes('showed lines 1-5 of the requested 1-20'), capped.text);

    await setting('paths.deny', ['**/*.secret']);
    const secret = freshFile('token\n', '.secret');
    assert.strictEqual((await session.read(secret)).code, 'PATH_DENIED');

    await setting('read.maxLines', undefined);
    await session.read(file);
    await setting('read.dedup', false);
    assert.strictEqual((await session.read(file)).kind, 'content');
    session.dispose();
  });

  test('byte caps, long-line caps and the editable file size change without a reload', async () => {
    const session = (await api()).openSession();
    const file = freshFile(`${'a'.repeat(3000)}\n${numbered(200)}`);
    await setting('read.maxBytes', 2048);
    const byBytes = await session.read(file, { offset: 2 });
    assert.ok(byBytes.ok && byBytes.kind === 'content' && (byBytes.text?.length ?? 0) < 4000, 'the byte cap did not apply');
    // A line longer than the byte cap is shortened to the long-line cap, whatever range is asked for.
    await setting('read.maxLineLength', 100);
    const shortened = await session.read(file, { offset: 1, limit: 1, force: true });
    assert.ok(shortened.text && !shortened.text.includes('a'.repeat(200)), 'the long-line cap did not apply');
    await setting('read.maxLineLength', undefined);
    const longer = await session.read(file, { offset: 1, limit: 1, force: true });
    assert.ok(longer.text?.includes('a'.repeat(200)), 'the long-line cap did not return to its default');
    await setting('read.maxBytes', undefined);
    const big = freshFile('x'.repeat(1024 * 1024 + 10));
    await session.read(big, { offset: 1, limit: 1 });
    await setting('edit.maxFileSizeMB', 1);
    assert.strictEqual((await session.write(big, 'small\n')).code, 'FILE_TOO_LARGE');
    session.dispose();
  });

  test('a repository\'s own settings cannot switch review off, shorten the protected list or drop the user\'s denies', async () => {
    await setting('approval.mode', 'always');
    await setting('paths.deny', ['**/*.secret']);
    await repositorySettings({ 'readgate.approval.mode': 'never', 'readgate.approval.protected': [], 'readgate.paths.deny': ['**/*.private'] });
    const session = (await api()).openSession();
    // Denies add up: the user's and the repository's.
    assert.strictEqual((await session.read(freshFile('token\n', '.secret'))).code, 'PATH_DENIED');
    assert.strictEqual((await session.read(freshFile('key\n', '.private'))).code, 'PATH_DENIED');
    // The repository's "never" is ignored: the change still waits for review.
    const file = freshFile(numbered(3));
    await session.read(file);
    const edit = session.edit(file, [{ oldString: 'line 1', newString: 'one' }]);
    const request = await waitFor('an approval request', async () => (await pending())[0]);
    await vscode.commands.executeCommand(APPROVAL_HOOK, 'message', { type: 'reject', id: request.id, reason: 'test' });
    assert.strictEqual((await edit).code, 'REJECTED_BY_USER');
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3));
    session.dispose();
  });

  test('Toggle Dedup flips the value that is in effect, even when the workspace sets it', async () => {
    await repositorySettings({ 'readgate.read.dedup': false });
    assert.strictEqual(vscode.workspace.getConfiguration('readgate').get('read.dedup'), false);
    assert.strictEqual(await vscode.commands.executeCommand('readgate.toggleDedup'), true);
    assert.strictEqual(vscode.workspace.getConfiguration('readgate').get('read.dedup'), true);
  });
});
