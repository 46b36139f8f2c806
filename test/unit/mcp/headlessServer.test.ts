import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startJsonLineChild, type JsonLineChild } from '../helpers/jsonLineChild';
import { repoRoot } from '../helpers/repoRoot';
import { makeTempDir } from '../helpers/tempDir';

const SERVER = path.join(repoRoot, 'dist/mcp.js');
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
type CallResult = { content: { text?: string }[]; isError?: boolean };
const textOf = (result: unknown) => (result as CallResult).content.map((part) => part.text ?? '').join('');

async function start(args: string[]): Promise<{ client: Client; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER, ...args], stderr: 'pipe' });
  const client = new Client({ name: 'headless-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

suite('the headless MCP server (dist/mcp.js, driven by the SDK\'s client over stdio)', () => {
  let client: Client | undefined;
  teardown(async () => {
    await client?.close();
    client = undefined;
  });

  test('lists exactly the language model tools, with their schemas, descriptions and hints, and names itself', async () => {
    ({ client } = await start(['--root', makeTempDir()]));
    const { tools } = await client.listTools();
    const declared = manifest.contributes.languageModelTools as { name: string; modelDescription: string; inputSchema: unknown }[];
    assert.deepStrictEqual(tools.map((tool) => tool.name), declared.map((tool) => tool.name));
    for (const tool of tools) {
      const twin = declared.find((candidate) => candidate.name === tool.name)!;
      assert.deepStrictEqual(tool.inputSchema, twin.inputSchema);
      assert.strictEqual(tool.description, twin.modelDescription);
      assert.strictEqual(tool.annotations?.readOnlyHint, tool.name === 'readgate_read');
      assert.strictEqual(tool.annotations?.openWorldHint, false);
    }
    assert.deepStrictEqual([client.getServerVersion()?.name, client.getServerVersion()?.version], ['readgate', manifest.version]);
  });

  test('guards like the tools: no edit before a read; a read then an edit keeps CRLF and BOM byte-exactly', async () => {
    const root = makeTempDir();
    const file = path.join(root, 'w.txt');
    fs.writeFileSync(file, '\uFEFFone\r\ntwo\r\nthree\r\n');
    ({ client } = await start(['--root', root, '--placeholders']));
    const early = await client.callTool({ name: 'readgate_edit', arguments: { filePath: 'w.txt', oldString: 'two', newString: '2' } });
    assert.strictEqual((early as CallResult).isError, true);
    assert.match(textOf(early), /^EDIT_REQUIRES_PRIOR_READ: /);
    assert.match(textOf(await client.callTool({ name: 'readgate_read', arguments: { filePath: 'w.txt' } })), /lines 1-3 of 3/);
    const edited = await client.callTool({ name: 'readgate_edit', arguments: { filePath: 'w.txt', oldString: 'two', newString: '2' } });
    assert.ok(!(edited as CallResult).isError, textOf(edited));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), '\uFEFFone\r\n2\r\nthree\r\n');
    // With --placeholders, a repeated read of lines already shown in this version is the placeholder; force gets the content.
    assert.match(textOf(await client.callTool({ name: 'readgate_read', arguments: { filePath: 'w.txt' } })), /2\t2/);
    assert.match(textOf(await client.callTool({ name: 'readgate_read', arguments: { filePath: 'w.txt' } })), /unchanged/i);
    assert.match(textOf(await client.callTool({ name: 'readgate_read', arguments: { filePath: 'w.txt', force: true } })), /2\t2/);
  });

  test('--history records the client\'s changes (surface mcp, its name) for the library to list and revert; the agent gets no revert tool', async () => {
    const root = makeTempDir();
    const historyDir = makeTempDir();
    const file = path.join(root, 'h.txt');
    fs.writeFileSync(file, 'one\ntwo\nthree\n');
    ({ client } = await start(['--root', root, '--history', historyDir]));
    assert.ok(!(await client.listTools()).tools.some((tool) => /revert|history|undo/i.test(tool.name)));
    await client.callTool({ name: 'readgate_read', arguments: { filePath: 'h.txt' } });
    const edited = await client.callTool({ name: 'readgate_edit', arguments: { filePath: 'h.txt', oldString: 'two', newString: 'TWO' } });
    assert.ok(!(edited as CallResult).isError, textOf(edited));
    // The server is ended the way the SDK's client ends it; the record of the change must be complete by then.
    await client.close();
    client = undefined;
    fs.writeFileSync(file, 'zero\none\nTWO\nthree\n'); // the user's own edit after the agent's, elsewhere in the file
    const core = require(path.join(repoRoot, 'dist/core.js'));
    const guard = core.createGuard({ roots: [root], history: { dir: historyDir } });
    const records = await guard.history();
    assert.strictEqual(records.length, 1, JSON.stringify(records));
    const [record] = records;
    assert.match(record.sessionId, /^mcp:stdio:[0-9a-f-]{36}$/, 'a session id of this server process');
    assert.deepStrictEqual([record.surface, record.label, record.tool], ['mcp', 'headless-test 1.0.0', 'edit']);
    assert.deepStrictEqual(record.files.map((changed: { path: string; kind: string }) => [changed.path, changed.kind]), [[fs.realpathSync(file), 'edit']]);
    const reverted = await guard.revert({ changeId: record.id });
    assert.strictEqual(reverted.ok, true, reverted.message);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'zero\none\ntwo\nthree\n', 'the agent\'s line is put back, the user\'s kept');
    guard.dispose();
  });

  test('a file changed on disk in the seen lines is refused with what changed, and left as it is', async () => {
    const root = makeTempDir();
    const file = path.join(root, 'a.txt');
    fs.writeFileSync(file, 'a\nb\nc\n');
    ({ client } = await start(['--root', root]));
    await client.callTool({ name: 'readgate_read', arguments: { filePath: file } });
    fs.writeFileSync(file, 'a\nB!\nc\n');
    const stale = await client.callTool({ name: 'readgate_edit', arguments: { filePath: file, oldString: 'a', newString: 'A' } });
    assert.match(textOf(stale), /^FILE_CHANGED_SINCE_READ: /);
    assert.match(textOf(stale), /B!/);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), 'a\nB!\nc\n');
  });

  test('bad input, paths outside the roots, links out of them and denied paths are refused with their codes', async () => {
    const root = makeTempDir();
    const outside = makeTempDir();
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    fs.writeFileSync(path.join(root, '.env'), 'KEY=1\n');
    ({ client } = await start(['--root', root, '--deny', '**/.env*']));
    const cases: [string, unknown, RegExp][] = [
      ['readgate_read', {}, /^INVALID_INPUT: input\.filePath must be a string/],
      ['readgate_read', { filePath: 3 }, /^INVALID_INPUT: /],
      ['readgate_edit', { filePath: 'x', oldString: 1, newString: '' }, /^INVALID_INPUT: input\.oldString/],
      ['readgate_edit', { filePath: 'x', oldString: 'a', newString: 'b', replace_all: true }, /^INVALID_INPUT: input\.replace_all is not an input of readgate_edit/],
      ['readgate_multiEdit', { edits: [{ filePath: 'x', oldString: 'a', newString: 'b', force: true }] }, /^INVALID_INPUT: input\.edits\[0\]\.force is not an input/],
      ['readgate_read', { filePath: path.join(outside, 'secret.txt') }, /^PATH_DENIED: /],
      ['readgate_read', { filePath: '../secret.txt' }, /^PATH_DENIED: /],
      ['readgate_read', { filePath: 'link.txt' }, /^PATH_DENIED: /],
      ['readgate_read', { filePath: '.env' }, /^PATH_DENIED: /],
    ];
    for (const [name, args, expected] of cases) {
      const result = await client.callTool({ name, arguments: args as Record<string, unknown> });
      assert.strictEqual((result as CallResult).isError, true, `${name} ${JSON.stringify(args)}`);
      assert.match(textOf(result), expected, `${name} ${JSON.stringify(args)}`);
    }
    assert.doesNotMatch(JSON.stringify(cases.map(() => '')), /secret\n/);
  });

  // MCP's tools section: an unknown tool is a protocol error (-32602), not a tool result the model reads as a refusal.
  test('an unknown tool is a JSON-RPC error -32602 (Invalid params) naming it and the tools', async () => {
    ({ client } = await start(['--root', makeTempDir()]));
    const error = await client.callTool({ name: 'readgate_delete', arguments: { filePath: 'x' } }).then(
      (result) => assert.fail(`a result: ${JSON.stringify(result)}`),
      (rejection: { code?: number; message?: string }) => rejection,
    );
    assert.strictEqual(error.code, -32602);
    assert.match(error.message ?? '', /Unknown tool: "readgate_delete"; ReadGate's tools are readgate_read, readgate_edit, readgate_multiEdit, readgate_write/);
    const long = await client.callTool({ name: 't'.repeat(100_000), arguments: {} }).catch((rejection: Error) => rejection);
    assert.ok((long as Error).message.length < 400, 'the name is shown shortened');
  });

  // ENAMETOOLONG came back as PRIOR_READ_VERIFICATION_FAILED ("try again later") with the whole path in it.
  test('a 1 MiB file name is PATH_INVALID saying the name is too long, with the path shown shortened', async () => {
    ({ client } = await start(['--root', makeTempDir()]));
    for (const name of ['readgate_read', 'readgate_write']) {
      const args = name === 'readgate_write' ? { filePath: 'x'.repeat(1024 * 1024), content: '' } : { filePath: 'x'.repeat(1024 * 1024) };
      const result = (await client.callTool({ name, arguments: args })) as CallResult;
      assert.strictEqual(result.isError, true);
      assert.match(textOf(result), /^PATH_INVALID: The name x+…x+ \(1,048,576 characters\) is too long: 1,048,576 bytes, .* at most 255 bytes/);
      assert.ok(textOf(result).length < 1000, `${textOf(result).length} characters`);
    }
  });

  test('a multiEdit is all files or none', async () => {
    const root = makeTempDir();
    fs.writeFileSync(path.join(root, 'a.txt'), 'a1\n');
    fs.writeFileSync(path.join(root, 'b.txt'), 'b1\n');
    ({ client } = await start(['--root', root]));
    await client.callTool({ name: 'readgate_read', arguments: { filePath: 'a.txt' } });
    await client.callTool({ name: 'readgate_read', arguments: { filePath: 'b.txt' } });
    const refused = await client.callTool({ name: 'readgate_multiEdit', arguments: { edits: [{ filePath: 'a.txt', oldString: 'a1', newString: 'A1' }, { filePath: 'b.txt', oldString: 'nope', newString: 'x' }] } });
    assert.match(textOf(refused), /^NO_OCCURRENCE_FOUND: /);
    assert.deepStrictEqual([fs.readFileSync(path.join(root, 'a.txt'), 'utf8'), fs.readFileSync(path.join(root, 'b.txt'), 'utf8')], ['a1\n', 'b1\n']);
  });

  test('the command line: --help on stdout, missing or wrong roots on stderr with exit 2; closing stdin ends it', () => {
    const help = spawnSync(process.execPath, [SERVER, '--help'], { encoding: 'utf8' });
    assert.strictEqual(help.status, 0);
    assert.match(help.stdout, /^Usage: node dist\/mcp\.js --root <dir>/);
    const none = spawnSync(process.execPath, [SERVER], { encoding: 'utf8' });
    assert.strictEqual(none.status, 2);
    assert.match(none.stderr, /Name at least one folder/);
    const file = path.join(makeTempDir(), 'f.txt');
    fs.writeFileSync(file, '');
    const notFolder = spawnSync(process.execPath, [SERVER, '--root', file], { encoding: 'utf8' });
    assert.strictEqual(notFolder.status, 2);
    assert.match(notFolder.stderr, /is not a folder/);
    const ended = spawnSync(process.execPath, [SERVER, '--root', makeTempDir()], { input: '', encoding: 'utf8', timeout: 10_000 });
    assert.strictEqual(ended.status, 0, ended.stderr);
  });
});

const MiB = 1024 * 1024;

/** `bytes` of text whose JSON form is half as long again: quotes and line breaks are escaped to two bytes. */
const escapedText = (bytes: number): string => 'ab"\n'.repeat(bytes / 4);

/** The SDK's client serializes a request as { method, params, jsonrpc, id }: the id comes last. */
const toolCall = (id: number, name: string, args: object): string => JSON.stringify({ method: 'tools/call', params: { name, arguments: args }, jsonrpc: '2.0', id });

suite('the headless MCP server\'s stdio messages (raw JSON lines to a real child process)', () => {
  let child: JsonLineChild | undefined;
  teardown(async () => {
    await child?.close();
    child = undefined;
  });

  // The SDK's stdio transport kept at most 10 MiB of unread input: a longer line closed the transport, and the
  // server exited 0 without a word, or stayed up deaf, while the window's HTTP server takes 64 MiB bodies.
  test('a readgate_write of 8 MiB (a 12 MiB JSON line) is applied, and the session goes on: ping and a read are answered', async function () {
    this.timeout(60_000);
    const root = makeTempDir();
    child = startJsonLineChild(SERVER, ['--root', root]);
    await child.initialize();
    const content = escapedText(8 * MiB);
    const line = toolCall(2, 'readgate_write', { filePath: 'big.txt', content });
    assert.ok(line.length > 12 * MiB, `the line is ${line.length} bytes`);
    await child.send(line);
    const written = await child.answer(2);
    assert.ok(written.result && !written.result.isError, JSON.stringify(written).slice(0, 500));
    assert.ok(fs.readFileSync(path.join(root, 'big.txt'), 'utf8') === content, 'the file holds the content');
    await child.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    assert.deepStrictEqual((await child.answer(3)).result, {});
    await child.send(toolCall(4, 'readgate_read', { filePath: 'big.txt', limit: 1 }));
    assert.match((await child.answer(4)).result?.content?.[0].text ?? '', /big\.txt/);
  });

  // The size limit applied only to files that existed: a new file of any size was written.
  test('a readgate_write of a new 11 MiB file (above the 10 MiB maxFileBytes) is refused with FILE_TOO_LARGE, nothing is written, and the session goes on', async function () {
    this.timeout(60_000);
    const root = makeTempDir();
    child = startJsonLineChild(SERVER, ['--root', root]);
    await child.initialize();
    await child.send(toolCall(2, 'readgate_write', { filePath: 'big.txt', content: 'x'.repeat(11 * MiB) }));
    const refused = await child.answer(2);
    assert.strictEqual(refused.result?.isError, true, JSON.stringify(refused).slice(0, 500));
    assert.match(refused.result?.content?.[0].text ?? '', /^FILE_TOO_LARGE: The new content of .*big\.txt would be 11,534,336 bytes, above the 10,485,760-byte limit .* Nothing was written/);
    assert.ok(!fs.existsSync(path.join(root, 'big.txt')));
    await child.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    assert.deepStrictEqual((await child.answer(3)).result, {});
  });

  test('a line over the 64 MiB cap of one message is answered with an error for its request id, nothing is written, and the session goes on', async function () {
    this.timeout(60_000);
    const root = makeTempDir();
    child = startJsonLineChild(SERVER, ['--root', root]);
    await child.initialize();
    await child.send(toolCall(2, 'readgate_write', { filePath: 'huge.txt', content: 'x'.repeat(65 * MiB) }));
    const refused = await child.answer(2);
    assert.strictEqual(refused.error?.code, -32600, JSON.stringify(refused));
    assert.match(refused.error?.message ?? '', /64 MiB/);
    assert.ok(!fs.existsSync(path.join(root, 'huge.txt')));
    await child.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    assert.deepStrictEqual((await child.answer(3)).result, {});
    await child.send(toolCall(4, 'readgate_write', { filePath: 'small.txt', content: 'ok\n' }));
    assert.ok(!(await child.answer(4)).result?.isError);
    assert.strictEqual(fs.readFileSync(path.join(root, 'small.txt'), 'utf8'), 'ok\n');
    assert.match(child.stderr(), /64 MiB/, 'the refusal is logged on stderr');
  });
});
