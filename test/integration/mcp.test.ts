import * as assert from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { discoveryDir, listWindows, type WindowEntry } from '../../src/mcp/index';
import * as harness from './harness';
import { api, freshFile, numbered, pendingReviews as pending, REVIEW_HOOK as HOOK, workspaceRoot } from './helpers';

type CallResult = { content: { type: string; text?: string }[]; isError?: boolean };

const settings = () => vscode.workspace.getConfiguration('readgate');

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** This window's discovery entry (the tests run in the extension host, so its pid is ours). */
const ownEntry = (): WindowEntry | undefined => listWindows().find((entry) => entry.pid === process.pid);

const textOf = (result: unknown): string => (result as CallResult).content.map((part) => part.text ?? '').join('');

async function connect(entry: WindowEntry, name: string, version: string): Promise<Client> {
  const client = new Client({ name, version });
  await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: { Authorization: `Bearer ${entry.token}` } } }));
  return client;
}

function rawPost(entry: WindowEntry, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(entry.url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: url.host, ...headers } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

suite('mcp: external agents through the window', () => {
  let entry: WindowEntry;
  const clients: Client[] = [];

  suiteSetup(async () => {
    await api();
    await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    await settings().update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
    entry = await waitFor('the discovery file', ownEntry);
  });

  suiteTeardown(async () => {
    await Promise.allSettled(clients.map((client) => client.close()));
    await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the discovery file names this window (owner-only), and the bridge is installed beside it', () => {
    assert.ok(entry.url.startsWith('http://127.0.0.1:'), entry.url);
    assert.ok(entry.folders.includes(workspaceRoot()), JSON.stringify(entry.folders));
    const file = fs.readdirSync(discoveryDir()).find((name) => name.startsWith(`${process.pid}-`));
    assert.ok(file);
    assert.strictEqual(fs.statSync(path.join(discoveryDir(), file)).mode & 0o777, 0o600);
    const extension = vscode.extensions.getExtension('readgate.readgate')!;
    const bridge = path.join(path.dirname(discoveryDir()), 'mcp-bridge.js');
    assert.ok(fs.readFileSync(bridge).equals(fs.readFileSync(path.join(extension.extensionPath, 'dist', 'mcp-bridge.js'))));
    // The agent hook beside it: what an own-tools set-up through the bridge runs before each tool call.
    assert.ok(fs.readFileSync(path.join(path.dirname(bridge), 'agent-hook.js')).equals(fs.readFileSync(path.join(extension.extensionPath, 'dist', 'agent-hook.js'))));
  });

  test('the window publishes under READGATE_HOME, not under its own HOME: the installed bridge, run from a terminal with another HOME, picks it', () => {
    // npm start gave VS Code a private HOME and the window published there, so an agent in the user's terminal
    // found nothing. VS Code and the terminal now meet in ReadGate's home (READGATE_HOME here; else the user's).
    const readgateHome = process.env.READGATE_HOME;
    assert.ok(readgateHome, 'the runner sets READGATE_HOME');
    assert.notStrictEqual(path.dirname(readgateHome), process.env.HOME);
    assert.strictEqual(discoveryDir(), path.join(readgateHome, 'windows'));
    assert.ok(fs.readdirSync(path.join(readgateHome, 'windows')).some((name) => name.startsWith(`${process.pid}-`)));
    const bridge = path.join(readgateHome, 'mcp-bridge.js');
    const terminal = { PATH: process.env.PATH ?? '', HOME: fs.mkdtempSync(path.join(os.tmpdir(), 'rg-terminal-home-')), READGATE_HOME: readgateHome };
    const list = spawnSync(process.execPath, [bridge, '--list', '--cwd', workspaceRoot()], { env: terminal, encoding: 'utf8', timeout: 10_000 });
    fs.rmSync(terminal.HOME, { recursive: true, force: true });
    assert.strictEqual(list.status, 0, list.stderr);
    assert.ok(list.stdout.includes(`Looked for VS Code windows in ${path.join(readgateHome, 'windows')}`), list.stdout);
    assert.match(list.stdout, new RegExp(`→ ".*" \\(pid ${process.pid}, `));
    assert.ok(list.stdout.includes(`picked: its folder ${workspaceRoot()} holds ${workspaceRoot()}`), list.stdout);
  });

  test('a client reads and edits with the tools\' names and refusal codes', async () => {
    const client = await connect(entry, 'Claude Code', '2.0.14');
    clients.push(client);
    const { tools } = await client.listTools();
    assert.deepStrictEqual(tools.map((tool) => tool.name).sort(), ['readgate_applyPatch', 'readgate_edit', 'readgate_multiEdit', 'readgate_read', 'readgate_write']);
    assert.strictEqual(client.getServerVersion()?.name, 'readgate');
    const file = freshFile(numbered(4));
    const unread = (await client.callTool({ name: 'readgate_edit', arguments: { filePath: file, oldString: 'line 2', newString: 'two' } })) as CallResult;
    assert.strictEqual(unread.isError, true);
    assert.match(textOf(unread), /^EDIT_REQUIRES_PRIOR_READ: /);
    assert.match(textOf(await client.callTool({ name: 'readgate_read', arguments: { filePath: file } })), /lines 1-4 of 4/);
    const edited = (await client.callTool({ name: 'readgate_edit', arguments: { filePath: file, oldString: 'line 2', newString: 'two' } })) as CallResult;
    assert.ok(!edited.isError, textOf(edited));
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(4).replace('line 2', 'two'));
    const bad = (await client.callTool({ name: 'readgate_read', arguments: { filePath: 42 } })) as CallResult;
    assert.match(textOf(bad), /^INVALID_INPUT: /);
    const outside = (await client.callTool({ name: 'readgate_read', arguments: { filePath: '/etc/hostname' } })) as CallResult;
    assert.match(textOf(outside), /^PATH_DENIED: /);
  });

  test('an unsaved editor buffer is the truth, as for the language model tools', async () => {
    const client = await connect(entry, 'Cline', '3.1');
    clients.push(client);
    const file = freshFile(numbered(3));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file));
    await editor.edit((builder) => builder.replace(new vscode.Range(0, 0, 0, 6), 'typed'));
    assert.match(textOf(await client.callTool({ name: 'readgate_read', arguments: { filePath: file } })), /1\ttyped\n/);
    await editor.edit((builder) => builder.replace(new vscode.Range(1, 0, 1, 6), 'typed again'));
    const stale = (await client.callTool({ name: 'readgate_edit', arguments: { filePath: file, oldString: 'line 2', newString: 'two' } })) as CallResult;
    assert.match(textOf(stale), /^FILE_CHANGED_SINCE_READ: /);
    assert.match(textOf(stale), /typing in the editor/);
    assert.ok(editor.document.isDirty);
    assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3), 'the disk was touched');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('its edit waits in the review panel labelled with the client\'s name and is applied by a click on Approve (screenshot)', async function () {
    // The panel is found as the first webview: another suite's preview left open must not come first.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await settings().update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
    try {
      const client = await connect(entry, 'Claude Code', '2.0.14');
      clients.push(client);
      const file = freshFile(numbered(5), '.ts');
      await client.callTool({ name: 'readgate_read', arguments: { filePath: file } });
      const call = client.callTool({ name: 'readgate_edit', arguments: { filePath: file, oldString: 'line 3', newString: 'three', explanation: 'a clearer name' } });
      const request = await waitFor('the review request', async () => (await pending())[0]);
      assert.strictEqual(request.sessionLabel, 'Claude Code 2.0.14');
      assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(5), 'written before approval');
      if (harness.isAvailable) {
        const inPanel = (selector: string) => `iframe.webview.ready >> internal:control=enter-frame >> #active-frame >> internal:control=enter-frame >> ${selector}`;
        // The panel's page renders in its own time: wait for it rather than for a fixed time.
        await harness.waitFor('the panel naming the client', async () => ((await harness.workbenchTexts(inPanel('body'))).some((text) => text.includes('Claude Code 2.0.14')) ? true : undefined));
        await harness.screenshot('mcp-review');
        await harness.click(inPanel('button[data-action="approve"]'));
      } else {
        await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
      }
      const result = (await call) as CallResult;
      assert.ok(!result.isError, textOf(result));
      assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(5).replace('line 3', 'three'));
    } finally {
      await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    }
  });

  test('two clients are two sessions: what one read does not let the other edit', async () => {
    const first = await connect(entry, 'Agent One', '1.0');
    const second = await connect(entry, 'Agent Two', '1.0');
    clients.push(first, second);
    const file = freshFile(numbered(3));
    await first.callTool({ name: 'readgate_read', arguments: { filePath: file } });
    const refused = (await second.callTool({ name: 'readgate_edit', arguments: { filePath: file, oldString: 'line 1', newString: 'one' } })) as CallResult;
    assert.match(textOf(refused), /^EDIT_REQUIRES_PRIOR_READ: /);
    const ids = (await vscode.commands.executeCommand<string[]>('readgate._test.sessionIds')) ?? [];
    assert.ok(ids.filter((id) => id.startsWith('mcp:')).length >= 2, ids.join(', '));
  });

  test('each client gets its own result budget, no placeholder by default, and forgets when its hook asks (the bridge\'s --forget)', async function () {
    this.timeout(30_000);
    const big = freshFile(Array.from({ length: 900 }, (_, i) => `row ${String(i + 1).padStart(4, '0')} ${'x'.repeat(90)}`).join('\n') + '\n');
    const claude = await connect(entry, 'claude-code', '2.1.332');
    const unknown = await connect(entry, 'some-new-agent', '0.1');
    clients.push(claude, unknown);
    const claudeRead = textOf(await claude.callTool({ name: 'readgate_read', arguments: { filePath: big } }));
    assert.ok(claudeRead.length <= 45_000 && claudeRead.length > 30_000, `${claudeRead.length}`);
    const unknownRead = textOf(await unknown.callTool({ name: 'readgate_read', arguments: { filePath: big } }));
    assert.ok(unknownRead.length <= 8_000, `${unknownRead.length}`);
    assert.match(unknownRead.split('\n')[0], /cut by the size limit: next offset \d+/);
    // Subagents share a connection: a repeated read is content again, and an unseen line stays unseen.
    assert.doesNotMatch(textOf(await unknown.callTool({ name: 'readgate_read', arguments: { filePath: big } })), /unchanged/);
    const line600 = fs.readFileSync(big, 'utf8').split('\n')[599];
    assert.match(textOf(await claude.callTool({ name: 'readgate_edit', arguments: { filePath: big, oldString: line600, newString: 'x' } })), /^EDIT_OUTSIDE_SEEN_RANGE: /);
    // Claude Code's compaction hook runs the installed bridge with --forget: the window forgets what it read.
    const bridge = path.join(path.dirname(discoveryDir()), 'mcp-bridge.js');
    const forget = spawnSync(process.execPath, [bridge, '--forget', '--client', 'claude-code'], { cwd: workspaceRoot(), env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8' });
    assert.strictEqual(forget.status, 0, forget.stderr);
    const line1 = fs.readFileSync(big, 'utf8').split('\n')[0];
    assert.match(textOf(await claude.callTool({ name: 'readgate_edit', arguments: { filePath: big, oldString: line1, newString: 'x' } })), /^EDIT_REQUIRES_PRIOR_READ: /);
    // The other client was not asked to forget.
    const edited = await unknown.callTool({ name: 'readgate_edit', arguments: { filePath: big, oldString: line1, newString: 'first' } });
    assert.ok(!(edited as CallResult).isError, textOf(edited));
  });

  test('a client whose hooks name its agent contexts: a ledger each, the main agent\'s repeated read is the placeholder, contexts nest in the Sessions view, a stopped subagent ends (screenshot)', async function () {
    this.timeout(60_000);
    const bridge = path.join(path.dirname(discoveryDir()), 'mcp-bridge.js');
    // Earlier suites' sessions fill the view: collapsed, they leave room for this client's, which open expanded.
    if (harness.isAvailable) {
      await vscode.commands.executeCommand('readgate.sessions.focus');
      await vscode.commands.executeCommand('workbench.actions.treeView.readgate.sessions.collapseAll').then(undefined, () => undefined);
    }
    const file = freshFile(numbered(300));
    const claude = await connect(entry, 'claude-code', '2.1.332');
    clients.push(claude);
    let next = 0;
    const hook = (input: Record<string, unknown>, args: string[] = []): void => {
      const run = spawnSync(process.execPath, [bridge, 'hook', ...args], { input: JSON.stringify({ cwd: workspaceRoot(), ...input }), env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, encoding: 'utf8' });
      assert.deepStrictEqual([run.status, run.stdout], [0, ''], run.stderr);
    };
    // As Claude Code does: the PreToolUse hook has run (and ended) before the call, which carries the same id.
    const call = async (agent: string | undefined, name: string, args: Record<string, unknown>): Promise<string> => {
      const id = `toolu_host_${++next}`;
      hook({ hook_event_name: 'PreToolUse', session_id: 'conversation-1', tool_use_id: id, tool_name: `mcp__readgate__${name}`, ...(agent ? { agent_id: agent, agent_type: 'Explore' } : {}) }, ['--compaction-hooked']);
      return textOf(await claude.callTool({ name, arguments: args, _meta: { 'claudecode/toolUseId': id } }));
    };
    assert.match(await call(undefined, 'readgate_read', { filePath: file }), /read #1\n/);
    assert.match(await call(undefined, 'readgate_read', { filePath: file }), /unchanged since your read #1/);
    assert.match(await call('agent-7', 'readgate_read', { filePath: file, limit: 5 }), /\tline 1\n/, 'a subagent is shown the content');
    assert.match(await call('agent-7', 'readgate_edit', { filePath: file, oldString: 'line 200\n', newString: 'x\n' }), /^EDIT_OUTSIDE_SEEN_RANGE: /);
    // A change of two lines by someone else: the main agent's re-read carries those two lines.
    fs.writeFileSync(file, numbered(300).replace('line 100\n', 'line one hundred\n').replace('line 250\n', 'line two hundred fifty\n'));
    const delta = await call(undefined, 'readgate_read', { filePath: file });
    assert.match(delta, /only what changed since your read #1/);
    assert.match(delta, /100\tline one hundred\n/);
    assert.doesNotMatch(delta, /line 150/);
    if (harness.isAvailable) {
      await vscode.commands.executeCommand('workbench.view.extension.readgate');
      const sidebar = async () => (await harness.workbenchTexts('.part.sidebar .pane:has(> .pane-header:has-text("Sessions"))')).join('\n');
      let seen = '';
      await harness.waitFor('the contexts under their client', async () => {
        seen = await sidebar();
        return seen.includes('Claude Code 2.1.332') && seen.includes('main agent') && seen.includes('subagent Explore') ? seen : undefined;
      }).catch((error: Error) => assert.fail(`${error.message}; the Sessions view shows:\n${seen}`));
      await harness.screenshot('sessions-agent-contexts');
    }
    // The subagent stops: its context ends and is listed under Ended sessions (emptied first, so the list's end,
    // which the test scrolls to, holds it whatever earlier suites left there).
    await vscode.commands.executeCommand('readgate.clearEndedSessions');
    hook({ hook_event_name: 'SubagentStop', session_id: 'conversation-1', agent_id: 'agent-7', agent_type: 'Explore' });
    assert.match(await call('agent-7', 'readgate_edit', { filePath: file, oldString: 'line 1\n', newString: 'x\n' }), /^EDIT_REQUIRES_PRIOR_READ: /, 'a new context of the same id starts empty');
    // The client's next call ended the stopped context (a new one of the same id started empty).
    if (harness.isAvailable) {
      // Named by its own part first, as at the default side bar width the end of a row is cut; its client follows.
      const endedRow = async () =>
        (await harness.workbenchTexts('.part.sidebar .monaco-list-row:has-text("subagent Explore") .label-description')).find((text) => text.startsWith('Claude Code 2.1.332 · '));
      await harness.waitFor('the Ended sessions group', async () => ((await harness.workbenchTexts('.part.sidebar')).join('\n').includes('Ended sessions') ? true : undefined));
      // The list draws only the rows in sight: the group, the last rows after the live sessions, is scrolled to.
      const collapsed = '.part.sidebar .monaco-list-row[aria-expanded="false"]:has-text("Ended sessions")';
      const shown = async () => {
        await vscode.commands.executeCommand('readgate.sessions.focus');
        await vscode.commands.executeCommand('list.focusLast');
        if ((await harness.workbenchTexts(collapsed)).length) await harness.click(collapsed);
        return endedRow();
      };
      await harness.waitFor('the ended context by its own name', shown).catch(async (error: Error) => {
        await harness.screenshot('sessions-ended-context-failed');
        assert.fail(`${error.message}; the side bar shows:\n${(await harness.workbenchTexts('.part.sidebar .monaco-list-row')).join('\n')}`);
      });
      await harness.screenshot('sessions-ended-context');
    }
    // A compaction of the conversation: the main agent's next read is content again.
    hook({ hook_event_name: 'PreCompact', session_id: 'conversation-1', trigger: 'auto' });
    assert.match(await call(undefined, 'readgate_read', { filePath: file }), /\tline 150\n/);
  });

  test('readgate.mcp.maxReadChars sets the budget of every client, live', async () => {
    const big = freshFile(Array.from({ length: 900 }, (_, i) => `row ${i + 1} ${'y'.repeat(90)}`).join('\n') + '\n');
    const client = await connect(entry, 'claude-code', '2.1.332');
    clients.push(client);
    await settings().update('mcp.maxReadChars', 3000, vscode.ConfigurationTarget.Global);
    try {
      await waitFor('the setting', () => settings().get('mcp.maxReadChars') === 3000);
      const text = textOf(await client.callTool({ name: 'readgate_read', arguments: { filePath: big } }));
      assert.ok(text.length <= 3000, `${text.length}`);
      assert.match(text, /the limit the user set for this server/);
    } finally {
      await settings().update('mcp.maxReadChars', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('readgate_applyPatch: lines not read are refused, a changed file shows the diff, a rename with its importer applies whole or not at all', async function () {
    this.timeout(30_000);
    const client = await connect(entry, 'codex-mcp-client', '0.169.0');
    clients.push(client);
    const patchOf = (file: string, ...lines: string[]) => [`--- a/${path.basename(file)}`, `+++ b/${path.basename(file)}`, ...lines, ''].join('\n');
    const call = (patch: string) => client.callTool({ name: 'readgate_applyPatch', arguments: { patch, explanation: 'test' } }) as Promise<CallResult>;
    // Paths in a patch are relative to the workspace folder.
    const big = freshFile(numbered(60));
    await client.callTool({ name: 'readgate_read', arguments: { filePath: big, offset: 1, limit: 10 } });
    const outside = await call(patchOf(big, '@@ -40,3 +40,3 @@', ' line 40', '-line 41', '+forty-one', ' line 42'));
    assert.match(textOf(outside), /^EDIT_OUTSIDE_SEEN_RANGE: .*40–42/s);
    // The file changes in lines the agent saw: refused with the diff.
    fs.writeFileSync(big, numbered(60).replace('line 5\n', 'line FIVE\n'));
    const stale = await call(patchOf(big, '@@ -4,3 +4,3 @@', ' line 4', '-line 5', '+5', ' line 6'));
    assert.match(textOf(stale), /^FILE_CHANGED_SINCE_READ: .*\+line FIVE/s);
    // A rename with its importer: the importer is unread, so nothing moves; read, it applies whole.
    const folder = path.join(workspaceRoot(), `mcp-rename-${Date.now()}`);
    fs.mkdirSync(folder);
    fs.writeFileSync(path.join(folder, 'mod.py'), 'X = 1\n');
    fs.writeFileSync(path.join(folder, 'main.py'), 'import mod\n');
    const rel = (file: string) => path.relative(workspaceRoot(), path.join(folder, file)).split(path.sep).join('/');
    const rename = ['*** Begin Patch', `*** Update File: ${rel('mod.py')}`, `*** Move to: ${rel('lib.py')}`, '@@', '-X = 1', '+X = 2', `*** Update File: ${rel('main.py')}`, '@@', '-import mod', '+import lib', '*** End Patch'].join('\n');
    await client.callTool({ name: 'readgate_read', arguments: { filePath: path.join(folder, 'mod.py') } });
    assert.match(textOf(await call(rename)), /^EDIT_REQUIRES_PRIOR_READ: /);
    assert.ok(fs.existsSync(path.join(folder, 'mod.py')) && !fs.existsSync(path.join(folder, 'lib.py')));
    await client.callTool({ name: 'readgate_read', arguments: { filePath: path.join(folder, 'main.py') } });
    const applied = await call(rename);
    assert.ok(!applied.isError, textOf(applied));
    assert.ok(!fs.existsSync(path.join(folder, 'mod.py')));
    assert.strictEqual(fs.readFileSync(path.join(folder, 'lib.py'), 'utf8'), 'X = 2\n');
    assert.strictEqual(fs.readFileSync(path.join(folder, 'main.py'), 'utf8'), 'import lib\n');
  });

  test('a request without the token, with a wrong one, from a web page (Origin) or for another host is refused', async () => {
    assert.strictEqual((await rawPost(entry, {})).status, 401);
    assert.strictEqual((await rawPost(entry, { authorization: 'Bearer not-the-token' })).status, 401);
    const origin = await rawPost(entry, { authorization: `Bearer ${entry.token}`, origin: 'https://evil.example' });
    assert.strictEqual(origin.status, 403);
    assert.match(origin.body, /web pages/);
    const rebinding = await rawPost(entry, { authorization: `Bearer ${entry.token}`, host: `evil.example:${new URL(entry.url).port}` });
    assert.strictEqual(rebinding.status, 403);
    // The same request with the token is served.
    assert.strictEqual((await rawPost(entry, { authorization: `Bearer ${entry.token}` })).status, 200);
  });

  test('the stdio bridge, started in a workspace folder as an agent starts it, relays a whole session', async () => {
    const bridge = path.join(path.dirname(discoveryDir()), 'mcp-bridge.js');
    const transport = new StdioClientTransport({ command: process.execPath, args: [bridge], cwd: workspaceRoot(), env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } as Record<string, string>, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk) => (stderr += chunk));
    const client = new Client({ name: 'Codex', version: '0.63.0' });
    await client.connect(transport);
    try {
      const file = freshFile(numbered(3));
      assert.match(textOf(await client.callTool({ name: 'readgate_read', arguments: { filePath: path.basename(file) } })), /lines 1-3 of 3/);
      const edited = (await client.callTool({ name: 'readgate_edit', arguments: { filePath: path.basename(file), oldString: 'line 3', newString: 'three' } })) as CallResult;
      assert.ok(!edited.isError, textOf(edited));
      assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3).replace('line 3', 'three'));
      const ids = (await vscode.commands.executeCommand<string[]>('readgate._test.sessionIds')) ?? [];
      assert.ok(ids.some((id) => id.startsWith('mcp:')));
      assert.match(stderr, /relaying to the VS Code window/);
    } finally {
      await client.close();
    }
  });

  test('outside every workspace folder the bridge answers the agent with an error naming the open windows', async () => {
    const bridge = path.join(path.dirname(discoveryDir()), 'mcp-bridge.js');
    const child = spawn(process.execPath, [bridge], { cwd: path.dirname(workspaceRoot()), env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lost agent', version: '1' } } })}\n`);
    for (let i = 0; i < 200 && !stdout.includes('"id":1'); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    const answer = JSON.parse(stdout.split('\n').find((line) => line.includes('"id":1')) ?? '{}') as { error?: { message: string } };
    assert.match(answer.error?.message ?? '', /^ReadGate: no open VS Code window has .* in its workspace/, stdout);
    assert.ok(answer.error?.message.includes(workspaceRoot()), answer.error?.message);
    assert.match(stderr, /no open VS Code window has/);
    child.stdin.end();
    assert.strictEqual(await exited, 0);
  });

  test('turning the setting off stops the server and removes the discovery file', async () => {
    await settings().update('mcp.enabled', false, vscode.ConfigurationTarget.Global);
    await waitFor('the discovery file to go', () => !ownEntry());
    await assert.rejects(rawPost(entry, { authorization: `Bearer ${entry.token}` }));
    await settings().update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
    const next = await waitFor('the discovery file', ownEntry);
    assert.strictEqual(next.token, entry.token, 'one secret per window');
    entry = next;
  });

  test('registered with VS Code\'s own MCP support only when asked: VS Code then gets the server\'s URL', async () => {
    const offered = async () => (await vscode.commands.executeCommand<string[][]>('readgate._test.mcpOffered')) ?? [];
    const before = (await offered()).length;
    await settings().update('mcp.registerWithVsCode', true, vscode.ConfigurationTarget.Global);
    try {
      // VS Code asks the provider again when it announces a change; the answer names this window's server.
      const answer = await waitFor('VS Code to ask for the servers', async () => (await offered()).slice(before).find((uris) => uris.length > 0));
      assert.deepStrictEqual(answer, [entry.url]);
    } finally {
      await settings().update('mcp.registerWithVsCode', false, vscode.ConfigurationTarget.Global);
    }
    // Withdrawn: VS Code asks again and gets nothing.
    await waitFor('VS Code to be given no server', async () => ((await offered()).at(-1)?.length === 0 ? true : undefined));
  });
});

suite('mcp: clients that wait for review, and sessions left idle', () => {
  let entry: WindowEntry;
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  type Progress = { progress: number; message?: string };

  suiteSetup(async () => {
    await api();
    await settings().update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
    await waitFor('the discovery file', ownEntry);
    // Shorter than a test runs: an idle session closes after 3 s, a wait for review reports every second.
    await vscode.commands.executeCommand('readgate._test.mcpTimings', { idleMs: 3000, progressMs: 1000 });
    entry = await waitFor('the discovery file of the restarted server', ownEntry);
  });

  suiteTeardown(async () => {
    await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('readgate._test.mcpTimings');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  /**
   * Calls readgate_edit as the SDK's client does with a 3 s timeout that progress resets, leaves the change
   * 8 s in review, approves it and returns the call's result and the progress it heard.
   */
  async function editThroughLongReview(client: Client, filePath: string): Promise<{ result: CallResult; progress: Progress[] }> {
    await settings().update('approval.mode', 'always', vscode.ConfigurationTarget.Global);
    try {
      await client.callTool({ name: 'readgate_read', arguments: { filePath } });
      const progress: Progress[] = [];
      const call = client.callTool({ name: 'readgate_edit', arguments: { filePath, oldString: 'line 2', newString: 'two' } }, undefined, { timeout: 3000, resetTimeoutOnProgress: true, onprogress: (heard) => progress.push(heard) });
      call.catch(() => undefined); // awaited below; a timeout must not count as unhandled meanwhile
      const request = await waitFor('the review request', async () => (await pending())[0]);
      await sleep(8000);
      await vscode.commands.executeCommand(HOOK, 'message', { type: 'approve', id: request.id, revision: request.revision, rejectedHunks: {} });
      return { result: (await call) as CallResult, progress };
    } finally {
      await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    }
  }

  function assertProgressOfReview(progress: Progress[], name: string): void {
    assert.ok(progress.length >= 6, `${progress.length} progress notifications in 8 s of review, one a second`);
    assert.deepStrictEqual(progress.map((heard) => heard.progress), progress.map((_, i) => i + 1), 'progress increases');
    for (const heard of progress) assert.strictEqual(heard.message, `Waiting for the user to review the change to ${name}`);
  }

  // The SDK's client gave up after 60 s while the user still read the diff: the call timed out, the review was
  // withdrawn, and the agent saw an error.
  test('a client with a short timeout that resets on progress waits through a long review and gets its result', async function () {
    this.timeout(40_000);
    const client = await connect(entry, 'Patient Agent', '1.0');
    try {
      const file = freshFile(numbered(3));
      const { result, progress } = await editThroughLongReview(client, file);
      assert.ok(!result.isError, textOf(result));
      assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3).replace('line 2', 'two'));
      assertProgressOfReview(progress, path.basename(file));
    } finally {
      await client.close();
    }
  });

  test('through the stdio bridge the progress reaches the agent too', async function () {
    this.timeout(40_000);
    const bridge = path.join(path.dirname(discoveryDir()), 'mcp-bridge.js');
    const transport = new StdioClientTransport({ command: process.execPath, args: [bridge], cwd: workspaceRoot(), env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'Bridged Agent', version: '1.0' });
    await client.connect(transport);
    try {
      const file = freshFile(numbered(3));
      const { result, progress } = await editThroughLongReview(client, path.basename(file));
      assert.ok(!result.isError, textOf(result));
      assert.strictEqual(fs.readFileSync(file, 'utf8'), numbered(3).replace('line 2', 'two'));
      assertProgressOfReview(progress, path.basename(file));
    } finally {
      await client.close();
    }
  });

  test('a session without a request for longer than the idle time is closed: its ledger session ends (Ended sessions) and its client must start anew', async function () {
    this.timeout(30_000);
    const client = new Client({ name: 'Idle Agent', version: '1.0' });
    const transport = new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: { Authorization: `Bearer ${entry.token}` } } });
    await client.connect(transport);
    const file = freshFile(numbered(2));
    assert.match(textOf(await client.callTool({ name: 'readgate_read', arguments: { filePath: file } })), /lines 1-2 of 2/);
    const sessionId = `mcp:${transport.sessionId}`;
    const sessionIds = async () => (await vscode.commands.executeCommand<string[]>('readgate._test.sessionIds')) ?? [];
    assert.ok((await sessionIds()).includes(sessionId));
    await waitFor('the idle session to end', async () => ((await vscode.commands.executeCommand<string>('readgate.showStatistics')) ?? '').includes('Idle Agent 1.0 (ended)'), 15_000);
    assert.ok(!(await sessionIds()).includes(sessionId), 'the idle session is still live');
    await assert.rejects(client.listTools(), /404|Session not found/);
    const again = await connect(entry, 'Idle Agent', '1.0');
    assert.strictEqual((await again.listTools()).tools.length, 5);
    await Promise.allSettled([client.close(), again.close()]);
  });
});
