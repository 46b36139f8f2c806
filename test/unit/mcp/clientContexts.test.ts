/**
 * MCP sessions match what the client's model really holds (SPEC section 3). Found with real CLIs: Claude Code
 * kept a 2 KB preview of a 90 KB read and ReadGate then answered a repeated read "unchanged … exactly as shown
 * then"; its subagents share the main agent's connection, so a subagent's read gave the main agent a
 * placeholder for content it never had; and a compacted conversation kept its ledger.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { spawnSync } from 'child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { clientPolicy, concerns, DEFAULT_MAX_RESULT_CHARS, ForgetWatch, listForgetMarkers, mustForget, requestForget } from '../../../src/mcp/index';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';

const SERVER = path.join(repoRoot, 'dist/mcp.js');
type CallResult = { content: { text?: string }[]; isError?: boolean };
const textOf = (result: unknown): string => (result as CallResult).content.map((part) => part.text ?? '').join('');
const lines900 = Array.from({ length: 900 }, (_, i) => `row ${String(i + 1).padStart(4, '0')} ${'x'.repeat(90)}`).join('\n') + '\n';

interface Started {
  client: Client;
  home: string;
}

/** dist/mcp.js with a private READGATE_HOME (forget markers), as a client named `name`. */
async function start(name: string, args: string[], env: Record<string, string> = {}, home = makeTempDir('readgate-home-')): Promise<Started> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, ...args],
    env: { ...(process.env as Record<string, string>), READGATE_DISCOVERY_DIR: path.join(home, 'windows'), ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name, version: '9.9.9' });
  await client.connect(transport);
  return { client, home };
}

const read = async (client: Client, args: Record<string, unknown>): Promise<string> => textOf(await client.callTool({ name: 'readgate_read', arguments: args }));

suite('MCP clients: what a client is shown, per client', () => {
  const open: Client[] = [];
  teardown(async () => {
    for (const client of open.splice(0)) await client.close();
  });

  test('the budget follows the client\'s name: Claude Code 45,000 characters, an unknown client the default', () => {
    assert.strictEqual(clientPolicy('claude-code').budget.maxChars, 45_000);
    assert.strictEqual(clientPolicy('Claude-Code').profile?.label, 'Claude Code');
    assert.strictEqual(clientPolicy('some-new-agent').budget.maxChars, DEFAULT_MAX_RESULT_CHARS);
    assert.ok(DEFAULT_MAX_RESULT_CHARS <= 8_192, 'under the smallest known cut');
    assert.strictEqual(clientPolicy('qwen-cli-mcp-client-readgate').profile?.label, 'Qwen Code');
    assert.strictEqual(clientPolicy('Visual Studio Code - Insiders').budget.maxChars, 8_000);
    assert.strictEqual(clientPolicy('gemini-cli-mcp-client').budget.maxChars, 30_000);
    assert.strictEqual(clientPolicy('codex-mcp-client').budget.maxChars, 9_000);
    assert.strictEqual(clientPolicy(undefined).budget.maxChars, DEFAULT_MAX_RESULT_CHARS);
    assert.strictEqual(clientPolicy('claude-code', { maxResultChars: 20_000 }).budget.maxChars, 20_000);
    // Claude Code's own limit, when the user lowered it and the server sees it.
    // It is left alone while chars/4 is at most half the limit: 2,500 tokens allow 5,000 characters, less a margin.
    assert.strictEqual(clientPolicy('claude-code', { env: { MAX_MCP_OUTPUT_TOKENS: '2500' } }).budget.maxChars, 4_500);
    assert.strictEqual(clientPolicy('claude-code', { env: { MAX_MCP_OUTPUT_TOKENS: '100000' } }).budget.maxChars, 45_000, 'it never moves the 50,000-character preview');
    assert.strictEqual(clientPolicy('claude-code', { env: { MAX_MCP_OUTPUT_TOKENS: 'lots' } }).budget.maxChars, 45_000);
    for (const name of ['claude-code', 'codex-mcp-client', 'x']) assert.strictEqual(clientPolicy(name).placeholders, false, name);
    assert.strictEqual(clientPolicy('x', { placeholders: true }).placeholders, true);
  });

  test('a 900-line read by an unknown client stops within its budget; the repeated read is content; line 600 cannot be edited', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'big.txt'), lines900);
    const { client } = await start('some-new-agent', ['--root', root]);
    open.push(client);
    const first = await read(client, { filePath: 'big.txt' });
    assert.ok(first.length <= DEFAULT_MAX_RESULT_CHARS, `${first.length}`);
    assert.match(first.split('\n')[0], /cut by the size limit: next offset \d+/);
    const again = await read(client, { filePath: 'big.txt' });
    assert.doesNotMatch(again, /unchanged/);
    const line600 = lines900.split('\n')[599];
    const edit = await client.callTool({ name: 'readgate_edit', arguments: { filePath: 'big.txt', oldString: line600, newString: 'x' } });
    assert.match(textOf(edit), /^EDIT_OUTSIDE_SEEN_RANGE: /);
    assert.strictEqual(fs.readFileSync(path.join(root, 'big.txt'), 'utf8'), lines900);
  });

  test('Claude Code gets up to 45,000 characters, and --max-read-chars sets the budget for any client', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'big.txt'), lines900);
    const claude = (await start('claude-code', ['--root', root])).client;
    open.push(claude);
    const text = await read(claude, { filePath: 'big.txt' });
    assert.ok(text.length <= 45_000 && text.length > 30_000, `${text.length}`);
    const capped = (await start('claude-code', ['--root', root, '--max-read-chars', '20000'])).client;
    open.push(capped);
    const cappedText = await read(capped, { filePath: 'big.txt' });
    assert.ok(cappedText.length <= 20_000 && cappedText.length > 15_000, `${cappedText.length}`);
    assert.match(cappedText, /the limit the user set for this server/);
  });

  test('placeholders are off by default (subagents share the connection), and on with --placeholders', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\n');
    const plain = (await start('claude-code', ['--root', root])).client;
    open.push(plain);
    await read(plain, { filePath: 'a.txt' });
    assert.match(await read(plain, { filePath: 'a.txt' }), /1\tone/);
    const opted = (await start('claude-code', ['--root', root, '--placeholders'])).client;
    open.push(opted);
    assert.match(await read(opted, { filePath: 'a.txt' }), /read #1/);
    assert.match(await read(opted, { filePath: 'a.txt' }), /unchanged since your read #1 .*force: true/s);
  });

  test('--forget from the client\'s hook makes the running server forget what that client read, not other clients', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'one\ntwo\n');
    const home = makeTempDir('readgate-home-');
    const claude = (await start('claude-code', ['--root', root], {}, home)).client;
    const other = (await start('other-agent', ['--root', root], {}, home)).client;
    open.push(claude, other);
    await read(claude, { filePath: 'a.txt' });
    await read(other, { filePath: 'a.txt' });
    const forget = spawnSync(process.execPath, [SERVER, '--forget', '--client', 'claude-code'], { cwd: root, env: { ...process.env, READGATE_DISCOVERY_DIR: path.join(home, 'windows') }, encoding: 'utf8' });
    assert.strictEqual(forget.status, 0, forget.stderr);
    assert.match(forget.stderr, /forget what claude-code had read/);
    const edit = (client: Client) => client.callTool({ name: 'readgate_edit', arguments: { filePath: 'a.txt', oldString: 'one', newString: '1' } });
    assert.match(textOf(await edit(claude)), /^EDIT_REQUIRES_PRIOR_READ: /);
    assert.doesNotMatch(textOf(await edit(other)), /^[A-Z_]+: /);
    assert.strictEqual(fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), '1\ntwo\n');
  });
});

suite('forget markers', () => {
  test('a marker concerns servers whose folders hold its folder or lie inside it', () => {
    const marker = { folder: '/p/app', time: 5 };
    assert.ok(concerns(marker, ['/p/app']));
    assert.ok(concerns(marker, ['/p']));
    assert.ok(concerns(marker, ['/x', '/p/app/sub']));
    assert.ok(!concerns(marker, ['/p/application', '/q']));
  });

  test('only sessions of the named client, opened before the marker, forget', () => {
    assert.ok(mustForget({ folder: '/p', time: 10, client: 'claude-code' }, 'Claude-Code', 5));
    assert.ok(!mustForget({ folder: '/p', time: 10, client: 'claude-code' }, 'codex', 5));
    assert.ok(!mustForget({ folder: '/p', time: 10, client: 'claude-code' }, undefined, 5));
    assert.ok(mustForget({ folder: '/p', time: 10 }, undefined, 5));
    assert.ok(!mustForget({ folder: '/p', time: 10 }, 'codex', 11), 'a session opened after the request has nothing to forget');
  });

  test('a watch reports each new marker once, only for its folders; markers are owner-only and day-old ones go', () => {
    const dir = path.join(makeTempDir(), 'forget');
    requestForget({ folder: '/old', time: Date.now() }, dir);
    const watch = new ForgetWatch(() => ['/p'], dir);
    assert.deepStrictEqual(watch.newMarkers(), []);
    const file = requestForget({ folder: '/p/sub', client: 'claude-code', time: Date.now() }, dir);
    requestForget({ folder: '/elsewhere', time: Date.now() }, dir);
    assert.deepStrictEqual(watch.newMarkers().map((m) => [m.folder, m.client]), [['/p/sub', 'claude-code']]);
    assert.deepStrictEqual(watch.newMarkers(), []);
    assert.strictEqual(fs.statSync(file).mode & 0o777, 0o600);
    assert.strictEqual(fs.statSync(dir).mode & 0o777, 0o700);
    const stale = Date.now() - 2 * 24 * 60 * 60 * 1000;
    fs.utimesSync(file, stale / 1000, stale / 1000);
    requestForget({ folder: '/q', time: Date.now() }, dir);
    assert.ok(!fs.existsSync(file));
    assert.ok(listForgetMarkers(dir).every((marker) => marker.folder !== '/p/sub'));
  });
});
