/**
 * Two headless servers (`dist/mcp.js`, real processes driven by the SDK's client) with the same `--history`, at
 * once or one after the other, each editing its own file: each records under a session id of its own (the label,
 * the client's name, stays what the user sees), so reverting one server's session never touches the other's.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';

const SERVER = path.join(repoRoot, 'dist/mcp.js');
type Core = typeof import('../../../src/core/index');

async function start(root: string, history: string): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER, '--root', root, '--history', history], stderr: 'pipe' });
  const client = new Client({ name: 'headless-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function editOwnFile(client: Client, name: string): Promise<void> {
  await client.callTool({ name: 'readgate_read', arguments: { filePath: name } });
  const edited = (await client.callTool({ name: 'readgate_edit', arguments: { filePath: name, oldString: 'two', newString: 'TWO' } })) as { isError?: boolean; content: { text?: string }[] };
  assert.ok(!edited.isError, edited.content.map((part) => part.text).join(''));
}

async function checkSeparate(root: string, history: string): Promise<void> {
  const core = require(path.join(repoRoot, 'dist/core.js')) as Core;
  const guard = core.createGuard({ roots: [root], history: { dir: history } });
  try {
    const records = await guard.history();
    assert.strictEqual(records.length, 2, JSON.stringify(records));
    const [a, b] = ['a.txt', 'b.txt'].map((name) => records.find((record) => path.basename(record.files[0].path) === name)!);
    assert.notStrictEqual(a.sessionId, b.sessionId, 'each server records under its own session id');
    for (const record of [a, b]) {
      assert.match(record.sessionId, /^mcp:stdio:/);
      assert.strictEqual(record.label, 'headless-test 1.0.0', 'the label is the client as it named itself');
    }
    const reverted = await guard.revert({ sessionId: a.sessionId });
    assert.ok(reverted.ok, reverted.ok ? '' : reverted.message);
    assert.strictEqual(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), 'one\ntwo\n');
    assert.strictEqual(fs.readFileSync(path.join(root, 'b.txt'), 'utf8'), 'one\nTWO\n', "the other server's change is kept");
  } finally {
    await guard.dispose();
  }
}

function project(): { root: string; history: string } {
  const root = makeTempDir('readgate-two-servers-');
  for (const name of ['a.txt', 'b.txt']) fs.writeFileSync(path.join(root, name), 'one\ntwo\n');
  return { root, history: path.join(makeTempDir('readgate-two-servers-history-'), 'history') };
}

suite('the headless MCP server: one history folder, two servers', () => {
  test('two servers at once: reverting one server\'s session leaves the other\'s change', async function () {
    this.timeout(60_000);
    const { root, history } = project();
    const [first, second] = await Promise.all([start(root, history), start(root, history)]);
    try {
      await Promise.all([editOwnFile(first, 'a.txt'), editOwnFile(second, 'b.txt')]);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
    await checkSeparate(root, history);
  });

  test('two servers one after the other: the same', async function () {
    this.timeout(60_000);
    const { root, history } = project();
    for (const name of ['a.txt', 'b.txt']) {
      const client = await start(root, history);
      try {
        await editOwnFile(client, name);
      } finally {
        await client.close();
      }
    }
    await checkSeparate(root, history);
  });
});
