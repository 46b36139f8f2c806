import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { parseDocument } from 'yaml';
import * as harness from './harness';
import { api, workspaceRoot } from './helpers';

interface Section {
  id: string;
  title: string;
  blocks: { caption: string; text: string }[];
}

const inPanel = (selector: string) => `iframe.webview.ready >> internal:control=enter-frame >> #active-frame >> internal:control=enter-frame >> ${selector}`;

suite('agents: connecting external agents and a guarded Copilot agent', () => {
  suiteSetup(async () => {
    await api();
  });
  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Create a Guarded Agent writes a custom agent where VS Code reads agents, and VS Code takes it as one, its frontmatter parsed', async () => {
    const written = await vscode.commands.executeCommand<string>('readgate.createGuardedAgent');
    const file = path.join(workspaceRoot(), '.github', 'agents', 'readgate.agent.md');
    assert.strictEqual(vscode.Uri.parse(written).fsPath, file);
    const content = fs.readFileSync(file, 'utf8');
    const editor = vscode.window.activeTextEditor;
    assert.strictEqual(editor?.document.uri.fsPath, file);
    // VS Code's own language for custom agent files: it recognizes the file's place and name.
    assert.strictEqual(editor.document.languageId, 'chatagent');

    // VS Code's Markdown extension (its preview's renderer) shows the frontmatter as a table of the fields, not
    // "Failed to parse frontmatter", which it showed for the unquoted description.
    const html = await vscode.commands.executeCommand<string>('markdown.api.render', content);
    assert.doesNotMatch(html, /frontmatter-error|Failed to parse/);
    assert.match(html, /<table class="frontmatter"[^>]*><tbody><tr><th>name<\/th><td>ReadGate<\/td><\/tr><tr><th>description<\/th><td>Edits files only through ReadGate: read before changing/);

    // The header as a strict YAML reader takes it. A plain `description: … ReadGate: read …` is no YAML at all.
    const header = parseDocument(/^---\n([\s\S]*?\n)---\n/.exec(content)?.[1] ?? '', { strict: true });
    assert.deepStrictEqual([...header.errors, ...header.warnings].map((error) => error.message), []);
    const fields = header.toJS() as { name: string; description: string; tools: string[] };
    assert.strictEqual(fields.name, 'ReadGate');
    assert.match(fields.description, /^Edits files only through ReadGate: read before changing/);
    assert.ok(fields.tools.includes('readgate.readgate/readgateEdit') && fields.tools.includes('readgate.readgate/readgateApplyPatch'));
    assert.ok(!fields.tools.includes('edit') && !fields.tools.includes('execute'));

    // VS Code 1.139's prompt validator puts header and tool problems of prompt files into the Problems view (seen
    // for chat mode files: "Unknown tool …", "Chat modes have been renamed …"); for this file it reports none.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const problems = vscode.languages.getDiagnostics(editor.document.uri).filter((diagnostic) => diagnostic.severity <= vscode.DiagnosticSeverity.Warning);
    assert.deepStrictEqual(problems.map((problem) => problem.message), []);
  });

  test('Connect an External Agent turns the server on, shows each agent\'s set-up and copies it (screenshot)', async () => {
    const sections = await vscode.commands.executeCommand<Section[]>('readgate.connectExternalAgent', { enable: true });
    assert.deepStrictEqual(sections.map((section) => section.id), ['claude-code', 'codex', 'gemini', 'qwen', 'cline', 'any', 'copilot']);
    assert.strictEqual(vscode.workspace.getConfiguration('readgate').get('mcp.enabled'), true);
    const bridge = sections[0].blocks[0].text;
    assert.match(bridge, /^node \S+mcp-bridge\.js setup claude-code$/);
    assert.match(sections[0].blocks[1].text, /^claude mcp add --scope project readgate -- node \S+mcp-bridge\.js$/);
    assert.ok(fs.existsSync(sections[0].blocks[1].text.split(' -- node ')[1].replace(/^'|'$/g, '')), 'the bridge the set-up names is not installed');
    assert.ok(sections.find((section) => section.id === 'any')!.blocks.some((block) => /Bearer \S{20,}/.test(block.text)), 'no HTTP set-up for the running server');
    if (!harness.isAvailable) return;
    await harness.waitFor('the page', async () => ((await harness.workbenchTexts(inPanel('body'))).some((text) => text.includes('What is guarded, and what is not') && text.includes('Claude Code')) ? true : undefined));
    const page = (await harness.workbenchTexts(inPanel('body'))).join('\n');
    assert.ok(!/Bearer [A-Za-z0-9_-]{20,}/.test(page), 'the page shows the token');
    await harness.screenshot('connect-external-agent');
    await vscode.env.clipboard.writeText('');
    await harness.click(inPanel('button[data-copy="0"]'));
    await harness.waitFor('the copied set-up', async () => ((await vscode.env.clipboard.readText()) === bridge ? true : undefined));
    // Codex's block (its Copy button scrolls it into view): its first line copies and shows "[mcp_servers.readgate]".
    const codex = sections.flatMap((section) => section.blocks).findIndex((block) => block.text.startsWith('[mcp_servers.readgate]'));
    await harness.click(inPanel(`button[data-copy="${codex}"]`));
    await harness.waitFor('the copied Codex set-up', async () => ((await vscode.env.clipboard.readText()).startsWith('[mcp_servers.readgate]\n') ? true : undefined));
    await harness.screenshot('connect-external-agent-codex');
  });
});
