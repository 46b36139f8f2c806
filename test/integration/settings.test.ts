import * as assert from 'assert';
import * as vscode from 'vscode';
import { api, freshFile, numbered } from './helpers';

async function setting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration('readgate').update(key, value, vscode.ConfigurationTarget.Global);
}

suite('settings apply live', () => {
  teardown(async () => {
    await setting('read.maxLines', undefined);
    await setting('paths.deny', undefined);
    await setting('read.dedup', undefined);
  });

  test('read caps, deny globs and dedup change without a reload', async () => {
    const readGate = await api();
    const session = readGate.openSession();
    const file = freshFile(numbered(20));
    await setting('read.maxLines', 5);
    const capped = await session.read(file);
    assert.ok(capped.text?.includes('showed lines 1–5 of the requested 1–20'), capped.text);

    await setting('paths.deny', ['**/*.secret']);
    const secret = freshFile('token\n', '.secret');
    assert.strictEqual((await session.read(secret)).code, 'PATH_DENIED');

    await setting('read.maxLines', undefined);
    await session.read(file);
    await setting('read.dedup', false);
    assert.strictEqual((await session.read(file)).kind, 'content');
    session.dispose();
  });
});
