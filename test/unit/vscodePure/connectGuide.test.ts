import * as assert from 'assert';
import { blocksOf, connectGuide, connectPageHtml, NOT_GUARDED, shellWord } from '../../../src/vscode/mcp/connectGuide';
import { parseDocument } from 'yaml';
import { frontmatter, guardedAgentFile } from '../../../src/vscode/mcp/guardedAgent';

const input = { bridgePath: '/home/me/.readgate/mcp-bridge.js', headlessPath: '/ext/dist/mcp.js', endpoint: { url: 'http://127.0.0.1:4567/mcp', token: 'SECRET-TOKEN-123' }, folder: '/work/my project' };

suite('Connect an External Agent: the guide', () => {
  test('has a section per kind of agent, each set-up starting the bridge', () => {
    const sections = connectGuide(input);
    assert.deepStrictEqual(sections.map((section) => section.id), ['claude-code', 'codex', 'gemini', 'qwen', 'cline', 'any', 'copilot']);
    assert.strictEqual(sections[0].blocks[0].text, 'node /home/me/.readgate/mcp-bridge.js setup claude-code');
    assert.strictEqual(sections[0].blocks[1].text, 'claude mcp add --scope project readgate -- node /home/me/.readgate/mcp-bridge.js');
    for (const id of ['claude-code', 'codex', 'gemini', 'qwen', 'cline', 'any']) assert.ok(sections.find((section) => section.id === id)!.blocks.some((block) => block.text.includes(input.bridgePath)), id);
  });

  test('Claude Code: the bridge\'s setup command (which writes the settings: setupCommand.test.ts), then the claude mcp add line it prints; the JSON and TOML snippets parse', () => {
    const sections = connectGuide(input);
    assert.match(sections[0].blocks[0].caption, /^In a terminal, in the project folder: this writes \.claude\/settings\.json, or merges into it/);
    assert.match(sections[0].blocks[0].caption, /Edit, Write and NotebookEdit tools are denied/);
    assert.match(sections[0].blocks[1].caption, /^Then the line it prints, in the same folder \(this writes \.mcp\.json\)\. Claude Code applies a project's allow rules only in a folder you trust/);
    assert.ok(!sections[0].blocks.some((block) => block.text.includes('"hooks"')), 'the guide still shows the settings to merge by hand');
    assert.deepStrictEqual(JSON.parse(sections[0].blocks[2].text), { enabledMcpjsonServers: ['readgate'] });
    assert.strictEqual(sections[0].blocks[3].text, 'claude -p "<your task>" --allowedTools mcp__readgate');
    const byId = (id: string) => sections.find((section) => section.id === id)!;
    assert.deepStrictEqual(JSON.parse(byId('cline').blocks[0].text), { mcpServers: { readgate: { command: 'node', args: [input.bridgePath] } } });
    assert.deepStrictEqual(JSON.parse(byId('gemini').blocks[0].text), { mcpServers: { readgate: { command: 'node', args: [input.bridgePath], trust: true } } });
    // Gemini CLI reads the project's settings only in a trusted folder; headless, it exits 55 in any other.
    assert.deepStrictEqual(JSON.parse(byId('gemini').blocks[1].text), { [input.folder]: 'TRUST_FOLDER' });
    assert.strictEqual(byId('gemini').blocks[2].text, 'GEMINI_CLI_TRUST_WORKSPACE=true gemini -p "<your task>"');
    assert.match(byId('gemini').blocks[2].caption, /exit code 55/);
    assert.deepStrictEqual(JSON.parse(byId('qwen').blocks[0].text), { mcpServers: { readgate: { command: 'node', args: [input.bridgePath], alwaysLoadTools: true, trust: true } } });
    assert.strictEqual(byId('qwen').blocks[1].text, 'qwen mcp approve readgate');
    // Codex: the setup command (codexSetup.test.ts), for the project or --user, and the table it writes.
    assert.deepStrictEqual(sections[1].blocks.slice(0, 2).map((block) => block.text), [`node ${input.bridgePath} setup codex`, `node ${input.bridgePath} setup codex --user`]);
    const toml = sections[1].blocks[2].text.split('\n');
    assert.deepStrictEqual(toml, ['[mcp_servers.readgate]', 'command = "node"', `args = ["${input.bridgePath}"]`, 'tool_timeout_sec = 600', 'default_tools_approval_mode = "approve"']);
  });

  test('"Any MCP client" says the bridge works from any terminal of this user, names the folder it looks in, and offers --list', () => {
    // The guide's path answered "no VS Code window … is running" from an ordinary terminal, and nothing said why.
    const any = connectGuide({ ...input, discoveryDir: '/home/me/.readgate/windows' }).find((section) => section.id === 'any')!;
    assert.match(any.intro, /from any terminal of this user/);
    assert.ok(any.blocks.some((block) => block.text === 'node /home/me/.readgate/mcp-bridge.js --list'));
    assert.match(any.notes.join('\n'), /publish themselves in \/home\/me\/\.readgate\/windows\. Unless READGATE_HOME is set, that folder is in your home as the system's user database has it, not \$HOME/);
  });

  test('paths with spaces or quotes are quoted for the shell, and for TOML', () => {
    assert.strictEqual(shellWord('/a b/it\'s.js'), `'/a b/it'\\''s.js'`);
    assert.strictEqual(shellWord('/plain/path.js'), '/plain/path.js');
    const sections = connectGuide({ ...input, bridgePath: 'C:\\Users\\Me Too\\"x".js' });
    assert.strictEqual(sections[0].blocks[0].text, `node 'C:\\Users\\Me Too\\"x".js' setup claude-code`);
    assert.match(sections[0].blocks[1].text, /-- node 'C:\\Users\\Me Too\\"x".js'$/);
    assert.strictEqual(sections[1].blocks[0].text, `node 'C:\\Users\\Me Too\\"x".js' setup codex`);
    assert.strictEqual(sections[1].blocks[2].text.split('\n')[2], 'args = ["C:\\\\Users\\\\Me Too\\\\\\"x\\".js"]');
    assert.match(sections.find((section) => section.id === 'any')!.blocks.at(-1)!.text, / --root '\/work\/my project'$/);
  });

  test('the token is copied in full but never shown; without a running server there is no HTTP block', () => {
    const http = blocksOf(connectGuide(input)).find((block) => block.text.includes('Bearer'))!;
    assert.ok(http.text.includes('SECRET-TOKEN-123'));
    assert.ok(!http.display!.includes('SECRET'));
    const html = connectPageHtml(connectGuide(input), { cspSource: 'x', nonce: 'n0nce', running: true });
    assert.ok(!html.includes('SECRET-TOKEN-123'), 'the page shows the token');
    assert.ok(!blocksOf(connectGuide({ ...input, endpoint: undefined })).some((block) => block.text.includes('Bearer')));
  });

  test('the page escapes every text, has one Copy button per block, a strict CSP and says what is not guarded', () => {
    const sections = connectGuide({ ...input, bridgePath: '/tmp/<script>alert(1)</script>.js' });
    const html = connectPageHtml(sections, { cspSource: 'x', nonce: 'n0nce', running: false });
    assert.ok(!html.includes('<script>alert(1)'));
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
    assert.strictEqual((html.match(/data-copy="/g) ?? []).length, blocksOf(sections).length);
    assert.match(html, /default-src 'none'; style-src 'nonce-n0nce'; script-src 'nonce-n0nce'/);
    assert.strictEqual((html.match(/<script(?![^>]*nonce="n0nce")/g) ?? []).length, 0, 'a script without the nonce');
    assert.match(html, /MCP server is off/);
    for (const line of NOT_GUARDED) assert.ok(html.includes(line.replace(/'/g, '&#39;').replace(/`/g, '`').slice(0, 40)));
    assert.match(NOT_GUARDED.join(' '), /shell commands/);
  });

  // MCP clients gave up while the user still read the diff: the guide names where each one sets how long a
  // call may wait, with its default.
  test('each agent\'s section says how long a call waits for review and names the setting that changes it', () => {
    const notes = (id: string) => connectGuide(input).find((section) => section.id === id)!.notes.join('\n');
    assert.match(notes('claude-code'), /MCP_TOOL_TIMEOUT milliseconds .*100,000,000 by default/);
    assert.match(notes('claude-code'), /MCP_TIMEOUT is something else: how long the server may take to start/);
    assert.match(notes('codex'), /tool_timeout_sec seconds, a key of the \[mcp_servers\.readgate\] table/);
    for (const id of ['gemini', 'qwen']) assert.match(notes(id), /"timeout" milliseconds, a field of the "readgate" entry \(600000, ten minutes, by default/, id);
    const page = connectPageHtml(connectGuide(input), { cspSource: 'x', nonce: 'n', running: true });
    assert.match(page, /<h2>While a change waits for your review<\/h2><p>[^<]*progressToken[^<]*every 10 seconds[^<]*resetTimeoutOnProgress/);
    assert.match(notes('copilot'), /Nothing to set/);
  });
});

/** The file's frontmatter as a strict YAML reader sees it: its errors, and its fields. */
function parsedHeader(content: string): { errors: string[]; fields: unknown } {
  const match = /^---\n([\s\S]*?\n)---\n/.exec(content);
  assert.ok(match, 'no frontmatter between --- lines');
  const document = parseDocument(match[1], { strict: true, uniqueKeys: true });
  return { errors: [...document.errors, ...document.warnings].map((error) => error.message), fields: document.toJS() };
}

suite('Create a Guarded Agent: the agent file', () => {
  test('VS Code 1.106 and later: a custom agent in .github/agents naming ReadGate\'s tools by their full names, without built-in edit or terminal tools', () => {
    for (const version of ['1.106.0', '1.139.1', '2.0.0']) {
      const file = guardedAgentFile(version);
      assert.strictEqual(file.path, '.github/agents/readgate.agent.md');
      const { errors, fields } = parsedHeader(file.content);
      assert.deepStrictEqual(errors, []);
      const tools = (fields as { tools: string[] }).tools;
      assert.deepStrictEqual(tools, ['search/fileSearch', 'search/textSearch', 'search/listDirectory', 'read/problems', 'todo', 'agent', 'readgate.readgate/readgateRead', 'readgate.readgate/readgateEdit', 'readgate.readgate/readgateMultiEdit', 'readgate.readgate/readgateWrite', 'readgate.readgate/readgateApplyPatch']);
      assert.ok(!tools.includes('edit') && !tools.includes('execute'));
      assert.deepStrictEqual(Object.keys(fields as object), ['name', 'description', 'tools']);
      assert.match(file.content, /^---\nname: .+\ndescription: .+\ntools: \[.+\]\n---\n/, 'one line per field, as VS Code\'s examples write them');
    }
  });

  test('VS Code 1.104 and 1.105: a custom chat mode naming the tools by their reference names', () => {
    for (const version of ['1.104.0', '1.105.2']) {
      const file = guardedAgentFile(version);
      assert.strictEqual(file.path, '.github/chatmodes/ReadGate.chatmode.md');
      const { errors, fields } = parsedHeader(file.content);
      assert.deepStrictEqual(errors, []);
      assert.deepStrictEqual((fields as { tools: string[] }).tools, ['fileSearch', 'textSearch', 'listDirectory', 'problems', 'readgateRead', 'readgateEdit', 'readgateMultiEdit', 'readgateWrite', 'readgateApplyPatch']);
    }
  });

  // The description holds "ReadGate: read"; written plain, a colon and a space inside a value is not YAML
  // ("mapping values are not allowed here"), and VS Code's Markdown preview said "Failed to parse frontmatter".
  test('the frontmatter is valid YAML whose every field reads back exactly as written, the description\'s colon too', () => {
    for (const version of ['1.104.0', '1.139.1']) {
      const file = guardedAgentFile(version);
      const { errors, fields } = parsedHeader(file.content);
      assert.deepStrictEqual(errors, [], version);
      assert.deepStrictEqual(fields, file.header, version);
      assert.match((fields as { description: string }).description, /ReadGate: read before changing/);
    }
  });

  test('values YAML would read as something else are quoted: colons, #, quotes, leading dashes, booleans, numbers', () => {
    const header = { name: 'yes', description: 'a: b # not a comment, "quoted" and \'single\', - dash, [x], {y}, *z, &w, !v, 1.0e3', tools: ['- item', 'true', '42', 'null', 'x: y', ''] };
    const { errors, fields } = parsedHeader(frontmatter(header) + 'body\n');
    assert.deepStrictEqual(errors, []);
    assert.deepStrictEqual(fields, header);
  });
});
