/**
 * An agent's change comes back with the problems it introduced, as VS Code's own TypeScript and JSON language
 * features report them: through the extension API's sessions, the language model tools and the MCP server
 * (SDK client, and the bridge). A problem that only moved is not new, one there before is never new, a fix is
 * counted as resolved, a file no service reports on is said so without waiting, a service still checking is
 * said so.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { discoveryDir, listWindows } from '../../src/mcp/index';
import { api, freshFile, textOf, versionIn, warmTypeScript, workspaceRoot } from './helpers';

const settings = () => vscode.workspace.getConfiguration('readgate');
const TYPE_ERROR = /:(\d+):(\d+) error TS2322: Type 'string' is not assignable to type 'number'\./;

/** Reads a file whole through an API session, then applies `edits`: the change's result text. */
async function change(file: string, edits: { oldString: string; newString: string }[], id?: string): Promise<string> {
  const session = (await api()).openSession(id ? { id } : {});
  try {
    const read = await session.read(file);
    assert.ok(read.ok, JSON.stringify(read));
    const result = await session.edit(file, edits);
    assert.ok(result.ok, JSON.stringify(result));
    return (result as unknown as { text: string }).text;
  } finally {
    session.dispose();
  }
}

const sectionOf = (text: string): string => text.slice(text.indexOf('Problems after this change:'));

suite('problems a change introduced', () => {
  suiteSetup(async function () {
    this.timeout(60_000);
    await api();
    await settings().update('approval.mode', 'never', vscode.ConfigurationTarget.Global);
    await warmTypeScript();
  });
  suiteTeardown(async () => {
    await settings().update('problems.waitMs', undefined, vscode.ConfigurationTarget.Global);
    await settings().update('problems.afterChange', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('a change that introduces a type error names it: file, line, column, severity, code and message', async () => {
    const file = freshFile('export const price: number = 1;\nexport const tax = 2;\n', '.ts');
    const text = await change(file, [{ oldString: 'number = 1;', newString: "number = '1';" }]);
    const section = sectionOf(text);
    assert.match(section, new RegExp(`${path.basename(file)}: 1 new problem \\(TypeScript checked it\\):`), text);
    const [, line] = TYPE_ERROR.exec(section) ?? [];
    assert.strictEqual(line, '1', section);
    assert.ok(section.includes(`${path.basename(file)}:1:14 error TS2322`), section);
  });

  test('lines inserted above an existing error: the error moved, it is not new', async () => {
    const file = freshFile(['const a = 1;', 'const b = 2;', "export const broken: number = 'x';", ''].join('\n'), '.ts');
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    await waitForErrors(file, 1);
    const text = await change(file, [{ oldString: 'const a = 1;\n', newString: '// a comment\n// another\nconst a = 1;\n' }]);
    assert.match(sectionOf(text), /: no new problems \(TypeScript checked it\)\./, text);
  });

  test('a file with hundreds of existing errors reports only the new one', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `export const e${i}: number = 'x${i}';`);
    lines.splice(150, 0, 'export const clean = 1;');
    const file = freshFile(lines.join('\n') + '\n', '.ts');
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    await waitForErrors(file, 300);
    const text = await change(file, [{ oldString: 'export const clean = 1;', newString: "export const clean: number = 'now broken';" }]);
    const section = sectionOf(text);
    assert.match(section, /: 1 new problem \(TypeScript checked it\):/, section);
    assert.strictEqual(section.split('\n').filter((line) => TYPE_ERROR.test(line)).length, 1, section);
    assert.match(section, /:151:14 error TS2322/);
  });

  test('a fix is counted as resolved', async () => {
    const file = freshFile("export const total: number = 'five';\n", '.ts');
    await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: false });
    await waitForErrors(file, 1);
    const text = await change(file, [{ oldString: "'five'", newString: '5' }]);
    assert.match(sectionOf(text), /: no new problems \(TypeScript checked it\); it resolved 1\./, text);
  });

  test('a multi-file change reports per file (TypeScript and JSON)', async () => {
    const ts = freshFile('export const n = 1;\n', '.ts');
    const json = freshFile('{ "name": "x", "version": "1.0.0" }\n', '.json');
    const session = (await api()).openSession();
    await session.read(ts);
    await session.read(json);
    const result = await session.multiEdit([
      { uri: ts, edits: [{ oldString: 'const n = 1;', newString: "const n: number = 'one';" }] },
      { uri: json, edits: [{ oldString: '"version": "1.0.0" }', newString: '"version": "1.0.0",, }' }] },
    ]);
    session.dispose();
    assert.ok(result.ok, JSON.stringify(result));
    const section = sectionOf((result as unknown as { text: string }).text);
    assert.match(section, new RegExp(`${path.basename(ts)}: 1 new problem \\(TypeScript checked it\\)`), section);
    assert.match(section, new RegExp(`${path.basename(json)}: \\d+ new problems? \\(JSON checked it\\)`), section);
    assert.match(section, new RegExp(`${path.basename(json)}:1:\\d+ error`), section);
  });

  test('a file no language service reports on says so, and is not waited for (a minute-long wait would time the test out)', async function () {
    this.timeout(15_000);
    await settings().update('problems.waitMs', 60_000, vscode.ConfigurationTarget.Global);
    try {
      const file = freshFile('alpha\nbeta\n', '.txt');
      const text = await change(file, [{ oldString: 'beta', newString: 'gamma' }]);
      assert.match(sectionOf(text), new RegExp(`${path.basename(file)}: no language service reports on this file\\.`), text);
    } finally {
      await settings().update('problems.waitMs', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('a service that has not answered in time is said to be still checking; off says nothing', async () => {
    await settings().update('problems.waitMs', 0, vscode.ConfigurationTarget.Global);
    try {
      const file = freshFile('export const late = 1;\n', '.ts');
      const text = await change(file, [{ oldString: '= 1', newString: "= 'x'" }]);
      assert.match(sectionOf(text), /: TypeScript was still checking after 0 s; problems not known yet\./, text);
    } finally {
      await settings().update('problems.waitMs', undefined, vscode.ConfigurationTarget.Global);
    }
    await settings().update('problems.afterChange', 'off', vscode.ConfigurationTarget.Global);
    try {
      const file = freshFile('export const quiet = 1;\n', '.ts');
      assert.doesNotMatch(await change(file, [{ oldString: '= 1', newString: "= 'x'" }]), /Problems after this change/);
    } finally {
      await settings().update('problems.afterChange', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  test('through the language model tools, the MCP server and the stdio bridge, the same section arrives', async function () {
    this.timeout(60_000);
    // A language model tool call (no chat session: the edit names the version it read).
    const viaTool = freshFile('export const t: number = 1;\n', '.ts');
    const read = textOf(await vscode.lm.invokeTool('readgate_read', { input: { filePath: viaTool }, toolInvocationToken: undefined }));
    const toolText = textOf(await vscode.lm.invokeTool('readgate_edit', { input: { filePath: viaTool, oldString: '= 1', newString: "= 'one'", expectedVersion: versionIn(read) }, toolInvocationToken: undefined }));
    assert.match(toolText, /Problems after this change:\n.*: 1 new problem \(TypeScript checked it\):\n.*error TS2322/, toolText);
    // The MCP server, over HTTP with the SDK's client.
    await settings().update('mcp.enabled', true, vscode.ConfigurationTarget.Global);
    const entry = await until(() => listWindows().find((window) => window.pid === process.pid));
    const client = new Client({ name: 'problems-test', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(entry.url), { requestInit: { headers: { Authorization: `Bearer ${entry.token}` } } }));
    try {
      const viaMcp = freshFile('export const m: number = 1;\n', '.ts');
      await client.callTool({ name: 'readgate_read', arguments: { filePath: viaMcp } });
      const edited = await client.callTool({ name: 'readgate_edit', arguments: { filePath: viaMcp, oldString: '= 1', newString: "= 'one'" } });
      const mcpText = (edited as { content: { text?: string }[] }).content.map((part) => part.text ?? '').join('');
      assert.match(mcpText, TYPE_ERROR, mcpText);
    } finally {
      await client.close();
    }
    // The installed bridge, started as an agent starts it.
    const viaBridge = freshFile('export const b: number = 1;\n', '.ts');
    const bridge = path.join(path.dirname(discoveryDir()), 'mcp-bridge.js');
    const transport = new StdioClientTransport({ command: process.execPath, args: [bridge], cwd: workspaceRoot(), env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } as Record<string, string>, stderr: 'pipe' });
    const agent = new Client({ name: 'bridge-problems', version: '1' });
    await agent.connect(transport);
    try {
      await agent.callTool({ name: 'readgate_read', arguments: { filePath: viaBridge } });
      const edited = await agent.callTool({ name: 'readgate_edit', arguments: { filePath: viaBridge, oldString: '= 1', newString: "= 'one'" } });
      assert.match((edited as { content: { text?: string }[] }).content.map((part) => part.text ?? '').join(''), TYPE_ERROR);
    } finally {
      await agent.close();
    }
    assert.ok(fs.readFileSync(viaBridge, 'utf8').includes("'one'"));
  });
});

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until TypeScript reports at least `count` errors on the file (it was opened to be checked). */
async function waitForErrors(file: string, count: number): Promise<void> {
  const uri = vscode.Uri.file(file);
  await until(() => (vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length >= count ? true : undefined), 30_000);
}
